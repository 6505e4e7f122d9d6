#pragma once

#include "RegionMask.h"
#include "SmartClickSegmenter.h"
#include "WriteGuard.h"

#include <opencv2/core.hpp>

#include <cstdint>
#include <functional>
#include <vector>

namespace segstudio::paint {

// One region of one class being built by smart clicks: every click recomputes the region from all
// of the session's clicks and rewrites the label map from its state before the session, so a
// negative (Shift) click gives back exactly what the session had taken, and the editor's locks are
// judged against the labels as they were, not as the session left them.
// The region comes from a finder: the smart click segmenter, or GrabCut seeded by the clicks when
// no model is at hand.
// Requirements: the segmenter outlives the session; apply() always gets the same map, unchanged by
// anything else since the session began (the editor starts a new session after any other edit).
class SmartClickSession {
public:
    using Click = SmartClickSegmenter::Click;
    // labels: the map as the session found it (the finder may confine the region by it).
    using RegionFinder = std::function<RegionMask(const std::vector<Click>& clicks, int classId, const cv::Mat& labels)>;

    // labels: the map the session will edit, as it is now (kept as the session's "before").
    SmartClickSession(const SmartClickSegmenter& segmenter, int classId, const cv::Mat& labels);
    SmartClickSession(RegionFinder finder, int classId, const cv::Mat& labels);

    int classId() const { return m_classId; }
    const std::vector<Click>& clicks() const { return m_clicks; }
    const RegionMask& region() const { return m_region; }

    // The region the session would have with one more click (the hover preview, or the first
    // half of apply): nothing changes.
    RegionMask regionWith(const Click& click) const;
    // The rectangle apply() with this region writes in: the old region's and the new one's.
    cv::Rect changeOf(const RegionMask& next) const;
    // Adds the click and writes `next` (regionWith(click)) into labels: joining pixels get the
    // class where the guard allows their earlier value, leaving ones get that value back.
    // Returns how many pixels changed.
    std::int64_t apply(cv::Mat& labels, const Click& click, RegionMask next, const WriteGuard& guard);

private:
    RegionFinder m_finder;
    int m_classId;
    std::vector<Click> m_clicks;
    RegionMask m_region;
    cv::Mat m_before;  // the map before the first click (a copy)
};

}  // namespace segstudio::paint
