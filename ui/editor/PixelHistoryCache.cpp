#include "PixelHistoryCache.h"

#include "LabelDocument.h"

namespace segstudio::ui::editor {

PixelHistoryCache::PixelHistoryCache(std::size_t maxImages, std::size_t maxBytes)
    : m_maxImages(maxImages), m_maxBytes(maxBytes)
{
}

PixelHistoryCache::~PixelHistoryCache() = default;

std::size_t PixelHistoryCache::bytesOf(const LabelDocument& document)
{
    // The pixels dominate: an undo entry holds only the tiles it changed.
    return document.image().total() * document.image().elemSize() + document.labels().total() * document.labels().elemSize();
}

void PixelHistoryCache::keep(std::unique_ptr<LabelDocument> document)
{
    if (!document || document->isModified())
        return;
    m_documents.remove_if([&](const auto& kept) { return kept->imageKey() == document->imageKey(); });
    m_documents.push_front(std::move(document));
    trim();
}

std::unique_ptr<LabelDocument> PixelHistoryCache::take(const std::string& imageKey, const cv::Mat& labelsOnDisk)
{
    for (auto it = m_documents.begin(); it != m_documents.end(); ++it) {
        if ((*it)->imageKey() != imageKey)
            continue;
        std::unique_ptr<LabelDocument> document = std::move(*it);
        m_documents.erase(it);
        const cv::Mat& labels = document->labels();
        const bool same = labels.size() == labelsOnDisk.size() && labels.type() == labelsOnDisk.type() &&
                          cv::countNonZero(labels != labelsOnDisk) == 0;
        return same ? std::move(document) : nullptr;
    }
    return nullptr;
}

void PixelHistoryCache::remapClasses(std::uint64_t step, const std::array<std::uint8_t, 256>& table)
{
    for (const auto& document : m_documents)
        document->remapClasses(step, table);  // as the map on disk: still unmodified
}

void PixelHistoryCache::clear() { m_documents.clear(); }

void PixelHistoryCache::trim()
{
    std::size_t bytes = 0;
    std::size_t count = 0;
    for (auto it = m_documents.begin(); it != m_documents.end();) {
        bytes += bytesOf(**it);
        ++count;
        // The newest always stays, whatever its size: it is the image the user just left.
        if (count > 1 && (count > m_maxImages || bytes > m_maxBytes))
            it = m_documents.erase(it);
        else
            ++it;
    }
}

}  // namespace segstudio::ui::editor
