#include "SmartClickSession.h"

namespace segstudio::paint {

SmartClickSession::SmartClickSession(const SmartClickSegmenter& segmenter, int classId, const cv::Mat& labels)
    : SmartClickSession([&segmenter](const std::vector<Click>& clicks, int c, const cv::Mat& before) {
          return segmenter.region(clicks, c, before);
      },
                        classId, labels)
{
}

SmartClickSession::SmartClickSession(RegionFinder finder, int classId, const cv::Mat& labels)
    : m_finder(std::move(finder)), m_classId(classId), m_before(labels.clone())
{
}

RegionMask SmartClickSession::regionWith(const Click& click) const
{
    std::vector<Click> clicks = m_clicks;
    clicks.push_back(click);
    return m_finder(clicks, m_classId, m_before);
}

cv::Rect SmartClickSession::changeOf(const RegionMask& next) const
{
    if (m_region.empty())
        return next.bounds;
    if (next.empty())
        return m_region.bounds;
    return m_region.bounds | next.bounds;
}

std::int64_t SmartClickSession::apply(cv::Mat& labels, const Click& click, RegionMask next, const WriteGuard& guard)
{
    const cv::Rect change = changeOf(next);
    const auto value = static_cast<std::uint8_t>(m_classId);
    std::int64_t changed = 0;
    for (int y = change.y; y < change.br().y; ++y) {
        auto* out = labels.ptr<std::uint8_t>(y);
        const auto* before = m_before.ptr<std::uint8_t>(y);
        const bool inNextRows = y >= next.bounds.y && y < next.bounds.br().y;
        const std::uint8_t* inNext = inNextRows ? next.mask.ptr<std::uint8_t>(y - next.bounds.y) : nullptr;
        for (int x = change.x; x < change.br().x; ++x) {
            const bool joins = inNext && x >= next.bounds.x && x < next.bounds.br().x && inNext[x - next.bounds.x];
            const std::uint8_t wanted = joins && guard.allows(before[x]) ? value : before[x];
            if (out[x] != wanted) {
                out[x] = wanted;
                ++changed;
            }
        }
    }
    m_clicks.push_back(click);
    m_region = std::move(next);
    return changed;
}

}  // namespace segstudio::paint
