#include "ImageLoader.h"

#include "data/labels/DataError.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "document/WorkerPool.h"

#include <QFuture>
#include <QtConcurrent/QtConcurrentRun>

namespace segstudio::ui::editor {

namespace {

// What the label-map worker hands back: the map as saved (empty when there is none) and its counts.
struct SavedLabels {
    cv::Mat labels;
    data::LabelCounts counts{};
    QImage overlay;  // composed for the canvas
};

}  // namespace

ImageLoader::Loaded ImageLoader::load(const std::filesystem::path& imagePath, const std::filesystem::path& labelPath,
                                      const data::ClassSchema& schema, const std::string& key,
                                      const LabelCanvas::OverlayStyle& style, QSize viewport)
{
    Loaded loaded;
    loaded.key = key;
    loaded.prepared.style = style;
    try {
        QFuture<SavedLabels> savedFuture = QtConcurrent::run(document::workerPool(), [labelPath, schema, style] {
            SavedLabels saved;
            if (std::filesystem::exists(labelPath)) {
                saved.labels = data::readLabelMap(labelPath, schema);
                saved.counts = data::countLabels(saved.labels);
                saved.overlay = LabelCanvas::composedOverlay(saved.labels, style);
            }
            return saved;
        });
        try {
            loaded.rgb = data::readImageRgb(imagePath);
            loaded.prepared.display = LabelCanvas::displayImage(loaded.rgb);
            loaded.prepared.previewScale = LabelCanvas::fitScale(QSize(loaded.rgb.cols, loaded.rgb.rows), viewport);
            loaded.prepared.preview = LabelCanvas::previewImage(loaded.rgb, loaded.prepared.previewScale);
        } catch (...) {
            savedFuture.waitForFinished();
            throw;
        }
        SavedLabels saved = savedFuture.result();  // rethrows the worker's DataError
        if (saved.labels.empty()) {
            saved.labels = cv::Mat(loaded.rgb.size(), CV_8UC1, cv::Scalar(data::kUnlabelled));
            saved.counts.fill(0);
            saved.counts[data::kUnlabelled] = static_cast<std::int64_t>(loaded.rgb.total());
            saved.overlay = LabelCanvas::composedOverlay(saved.labels, style);
        }
        loaded.prepared.overlay = std::move(saved.overlay);
        if (!style.outline)  // (a 1-pixel outline would average away)
            loaded.prepared.overlayPreview = LabelCanvas::previewOverlay(loaded.prepared.overlay, loaded.prepared.previewScale);
        if (saved.labels.size() != loaded.rgb.size())
            throw data::DataError(labelPath.string(), "the label map is " + std::to_string(saved.labels.cols) + "x" +
                                                          std::to_string(saved.labels.rows) + " but the image is " +
                                                          std::to_string(loaded.rgb.cols) + "x" + std::to_string(loaded.rgb.rows));
        loaded.labels = std::move(saved.labels);
        loaded.counts = saved.counts;
    } catch (const std::exception& e) {
        loaded.error = e.what();
    }
    return loaded;
}

}  // namespace segstudio::ui::editor
