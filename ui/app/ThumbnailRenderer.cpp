#include "ThumbnailRenderer.h"

#include "data/ImageIO.h"
#include "data/LabelMapIO.h"

#include <QCryptographicHash>
#include <opencv2/imgproc.hpp>

namespace segstudio::ui {

namespace {

// Bump when the rendering changes so old disk-cache files are not reused.
constexpr int kRenderVersion = 1;
constexpr double kOverlayOpacity = 0.5;

QByteArray fileStamp(const std::filesystem::path& path)
{
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    if (error)
        return QByteArrayLiteral("-");
    const auto time = std::filesystem::last_write_time(path, error).time_since_epoch().count();
    return QByteArray::number(qulonglong(size)) + '@' + QByteArray::number(qlonglong(time));
}

}  // namespace

QImage ThumbnailRenderer::render(const std::filesystem::path& image, const std::filesystem::path& labelMap,
                                 const data::ClassSchema& schema, QSize size, bool overlay)
{
    const cv::Mat rgb = data::readImageRgb(image);
    const double scale = std::min(double(size.width()) / rgb.cols, double(size.height()) / rgb.rows);
    const cv::Size target(std::max(1, int(rgb.cols * scale + 0.5)), std::max(1, int(rgb.rows * scale + 0.5)));
    cv::Mat small;
    cv::resize(rgb, small, target, 0, 0, cv::INTER_AREA);

    std::error_code error;
    if (overlay && !labelMap.empty() && std::filesystem::exists(labelMap, error)) {
        const cv::Mat labels = data::readLabelMap(labelMap, schema, rgb.size());
        cv::Mat smallLabels;
        cv::resize(labels, smallLabels, target, 0, 0, cv::INTER_NEAREST);
        const cv::Mat colours = data::colorize(smallLabels, schema);
        cv::Mat blended;
        cv::addWeighted(small, 1.0 - kOverlayOpacity, colours, kOverlayOpacity, 0.0, blended);
        // Unlabelled pixels keep the photo as it is.
        blended.copyTo(small, smallLabels != data::kUnlabelled);
    }
    QImage result(small.data, small.cols, small.rows, int(small.step), QImage::Format_RGB888);
    return result.copy();
}

QString ThumbnailRenderer::cacheKey(const std::filesystem::path& image, const std::filesystem::path& labelMap,
                                    QSize size, bool overlay)
{
    std::error_code error;
    if (!std::filesystem::exists(image, error))
        return {};
    QByteArray text = QByteArray::fromStdString(std::filesystem::absolute(image, error).string());
    text += '|' + fileStamp(image) + '|' + QByteArray::number(size.width()) + 'x' + QByteArray::number(size.height());
    text += '|' + QByteArray::number(kRenderVersion);
    if (overlay)
        text += "|overlay|" + QByteArray::fromStdString(labelMap.string()) + '|' + fileStamp(labelMap);
    return QString::fromLatin1(QCryptographicHash::hash(text, QCryptographicHash::Sha1).toHex());
}

}  // namespace segstudio::ui
