#pragma once

#include <opencv2/core.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <string>

namespace segstudio::ui::editor {

class LabelDocument;

// The pixel history of images the user has left: their LabelDocuments (labels, image and undo
// stack), most recently left first, so switching back to an image brings its Undo back. Bounded
// by a number of images and by the bytes of their pixels (the oldest go first).
// Requirements: GUI thread; only saved documents are kept (what is on disk is what they hold).
// Guarantees: take() gives a document back only when its labels still equal the map on disk (a
//   class merge, a batch accept or another program may have rewritten it), else drops it.
class PixelHistoryCache {
public:
    explicit PixelHistoryCache(std::size_t maxImages = 16, std::size_t maxBytes = std::size_t(768) << 20);
    ~PixelHistoryCache();

    void keep(std::unique_ptr<LabelDocument> document);
    std::unique_ptr<LabelDocument> take(const std::string& imageKey, const cv::Mat& labelsOnDisk);
    // A class merge or delete rewrote every map: the kept histories follow its table.
    void remapClasses(std::uint64_t step, const std::array<std::uint8_t, 256>& table);
    void clear();
    std::size_t size() const { return m_documents.size(); }

private:
    static std::size_t bytesOf(const LabelDocument& document);
    void trim();

    std::size_t m_maxImages;
    std::size_t m_maxBytes;
    std::list<std::unique_ptr<LabelDocument>> m_documents;  // newest first
};

}  // namespace segstudio::ui::editor
