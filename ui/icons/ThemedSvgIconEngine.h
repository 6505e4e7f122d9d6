#pragma once

#include <QByteArray>
#include <QIconEngine>

namespace segstudio::ui::icons {

// A Breeze SVG drawn in the palette's colours, as KDE's icon loader draws them: the ink of the
// icon's "ColorScheme-Text" parts (Breeze's #232629) becomes the palette's window text, so the
// icons stay legible on a dark theme; disabled icons take the disabled text colour and a
// selected one the highlighted text. Accents (Breeze's blue and red) keep their colour.
// Rendered at the size asked for (any size is sharp), read from the palette at each paint, so a
// theme switched while running shows at the next repaint.
class ThemedSvgIconEngine : public QIconEngine {
public:
    static constexpr const char* kBreezeInk = "#232629";

    explicit ThemedSvgIconEngine(QByteArray svg);

    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State state) override;
    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override;
    QIconEngine* clone() const override;
    QString key() const override;

    // The SVG with its ink replaced by `ink` (#rrggbb).
    static QByteArray recoloured(const QByteArray& svg, const QString& ink);

private:
    QByteArray m_svg;
    size_t m_svgHash;  // the pixmap cache's key for this SVG, hashed once
};

}  // namespace segstudio::ui::icons
