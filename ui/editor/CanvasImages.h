#pragma once

#include <QImage>

#include <array>

namespace segstudio::ui::editor {

// How the canvas colours a label map: a colour per class id (hidden classes transparent), and
// whether only the class boundaries are drawn.
struct OverlayStyle {
    std::array<QRgb, 256> colors{};
    bool outline = false;
    bool operator==(const OverlayStyle& other) const { return colors == other.colors && outline == other.outline; }
};

// What a worker can make ahead of LabelCanvas::setDocument() so that showing a 12 MP image costs
// the GUI thread only the drawing: the RGB32 display copy and the overlay composed in `style`.
struct CanvasImages {
    QImage display;  // RGB32
    QImage preview;            // display scaled to previewScale (the fit-to-window scale), averaged
    double previewScale = 0;   // preview pixels per image pixel
    QImage overlayPreview;     // overlay at previewScale, averaged: valid until the labels change
    QImage overlay;  // ARGB32 premultiplied
    OverlayStyle style;
};

}  // namespace segstudio::ui::editor
