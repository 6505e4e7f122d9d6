#pragma once

#include <QImage>
#include <QRgb>

#include <opencv2/core.hpp>

namespace segstudio::ui::editor {

// A region's mask as an overlay image: `colour` (premultiplied ARGB) where the CV_8UC1 mask is
// nonzero, transparent elsewhere. The tools' previews (GrabCut's result, the superpixel and the
// smart click under the cursor) are drawn with it. A null image for an empty mask.
QImage maskTint(const cv::Mat& mask, QRgb colour);

}  // namespace segstudio::ui::editor
