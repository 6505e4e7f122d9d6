#pragma once

#include "data/labels/ClassSchema.h"

#include <QImage>
#include <QSize>
#include <QString>
#include <filesystem>

namespace segstudio::ui::browser {

// Renders the small preview of one image for the browser, optionally with its label map blended
// on top, and names the disk-cache file for it. Pure functions: safe on any thread.
class ThumbnailRenderer {
public:
    // Fits the image into `size` keeping its aspect ratio. Throws data::DataError naming the file
    // when the image (or, with overlay, the label map) is missing or cannot be decoded.
    static QImage render(const std::filesystem::path& image, const std::filesystem::path& labelMap,
                         const data::ClassSchema& schema, QSize size, bool overlay);

    // A key that changes whenever a file the thumbnail depends on changes (path, size, mtime), the
    // rendering does, or (with overlay) a class id or colour of the schema; empty when the image
    // does not exist (nothing worth caching).
    static QString cacheKey(const std::filesystem::path& image, const std::filesystem::path& labelMap,
                            const data::ClassSchema& schema, QSize size, bool overlay);
};

}  // namespace segstudio::ui::browser
