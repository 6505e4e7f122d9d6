#pragma once

#include "LabelCanvas.h"

#include "data/labels/ClassSchema.h"
#include "data/labels/LabelCounts.h"

#include <QSize>
#include <opencv2/core.hpp>

#include <filesystem>
#include <string>

namespace segstudio::ui::editor {

// Opening an image for the editor, off the GUI thread: the image and its saved label map decoded
// on document::workerPool() (the map on a second worker meanwhile), checked against each other,
// and what the canvas would otherwise draw on the GUI thread made ahead (display image, preview,
// overlay). No label map yet: an unlabelled map of the image's size.
class ImageLoader {
public:
    struct Loaded {
        std::string key;
        cv::Mat rgb;
        cv::Mat labels;
        data::LabelCounts counts{};
        LabelCanvas::Prepared prepared;  // what the canvas would otherwise make on the GUI thread
        std::string error;               // empty on success: else why (the file named)
    };

    // Runs on a worker; never throws (a failure is Loaded::error).
    static Loaded load(const std::filesystem::path& imagePath, const std::filesystem::path& labelPath,
                       const data::ClassSchema& schema, const std::string& key, const LabelCanvas::OverlayStyle& style,
                       QSize viewport);
};

}  // namespace segstudio::ui::editor
