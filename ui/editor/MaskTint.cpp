#include "MaskTint.h"

#include <cstdint>

namespace segstudio::ui::editor {

QImage maskTint(const cv::Mat& mask, QRgb colour)
{
    if (mask.empty())
        return {};
    QImage image(mask.cols, mask.rows, QImage::Format_ARGB32_Premultiplied);
    for (int y = 0; y < mask.rows; ++y) {
        auto* out = reinterpret_cast<QRgb*>(image.scanLine(y));
        const auto* in = mask.ptr<std::uint8_t>(y);
        for (int x = 0; x < mask.cols; ++x)
            out[x] = in[x] ? colour : qRgba(0, 0, 0, 0);
    }
    return image;
}

}  // namespace segstudio::ui::editor
