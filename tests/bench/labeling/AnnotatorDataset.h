#pragma once

#include "data/labels/ClassSchema.h"

#include <opencv2/core.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace segstudio::bench {

// The images the simulated annotator labels and their ground truth (issue 62.2): a dataset in
// SegNet's layout (<split>/ and <split>annot/, CamVid's classes) or a project's split (any format
// the importers take: its label maps and its class schema, any class count). Frames come in name
// order; `sequenceId` keeps one sequence's frames (CamVid names them <sequence>_<number>), so a
// sequence held out of training and tuning is chosen by its name.
class AnnotatorDataset {
public:
    struct Frame {
        std::string key;  // the prediction cache's key: the image's stem
        std::filesystem::path image;
        std::filesystem::path truth;
    };

    struct Selection {
        std::string split = "val";
        int skip = 0;        // drop the first frames
        int count = 0;       // keep at most this many (0: all)
        bool sequence = false;  // consecutive frames of one sequence, in order
        std::string sequenceId;  // only the frames whose names start with this (empty: any)
    };

    // Throws std::runtime_error naming the folder or file and what is wrong.
    static AnnotatorDataset segnet(const std::filesystem::path& folder, const Selection& selection);
    static AnnotatorDataset project(const std::filesystem::path& file, const Selection& selection);

    const std::vector<Frame>& frames() const { return m_frames; }
    const data::ClassSchema& schema() const { return m_schema; }
    int classes() const { return int(m_schema.classes().size()); }
    const std::string& sequenceId() const { return m_sequenceId; }

    // The frame's ground truth, CV_8UC1 class ids with 255 (void) wherever no class counts.
    cv::Mat truthOf(const Frame& frame) const;

private:
    void select(std::vector<Frame> all, const Selection& selection);

    std::vector<Frame> m_frames;
    data::ClassSchema m_schema;
    std::string m_sequenceId;
    bool m_fromProject = false;
};

}  // namespace segstudio::bench
