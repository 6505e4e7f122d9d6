#include "ThemedSvgIconEngine.h"

#include <QGuiApplication>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QPixmapCache>
#include <QSvgRenderer>

#include <utility>

namespace segstudio::ui::icons {

namespace {

QColor inkFor(QIcon::Mode mode)
{
    const QPalette palette = QGuiApplication::palette();
    switch (mode) {
    case QIcon::Disabled:
        return palette.color(QPalette::Disabled, QPalette::WindowText);
    case QIcon::Selected:
        return palette.color(QPalette::Active, QPalette::HighlightedText);
    default:
        return palette.color(QPalette::Active, QPalette::WindowText);
    }
}

}  // namespace

ThemedSvgIconEngine::ThemedSvgIconEngine(QByteArray svg) : m_svg(std::move(svg)), m_svgHash(qHash(m_svg)) { }

QByteArray ThemedSvgIconEngine::recoloured(const QByteArray& svg, const QString& ink)
{
    QByteArray out = svg;
    out.replace(QByteArray("color:") + kBreezeInk, QByteArray("color:") + ink.toLatin1());
    return out;
}

void ThemedSvgIconEngine::paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State state)
{
    Q_UNUSED(state);
    QSvgRenderer renderer(recoloured(m_svg, inkFor(mode).name()));
    renderer.render(painter, QRectF(rect));
}

QPixmap ThemedSvgIconEngine::pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state)
{
    const QString ink = inkFor(mode).name();
    // Tool bars ask for the same few sizes at every repaint: keep what was drawn.
    const QString cacheKey = QStringLiteral("segstudio-icon:%1:%2x%3:%4")
                                 .arg(QString::number(m_svgHash))
                                 .arg(size.width())
                                 .arg(size.height())
                                 .arg(ink);
    QPixmap pixmap;
    if (QPixmapCache::find(cacheKey, &pixmap))
        return pixmap;
    pixmap = QPixmap(size);
    pixmap.fill(Qt::transparent);
    {
        QPainter painter(&pixmap);
        paint(&painter, QRect(QPoint(0, 0), size), mode, state);
    }
    QPixmapCache::insert(cacheKey, pixmap);
    return pixmap;
}

QIconEngine* ThemedSvgIconEngine::clone() const { return new ThemedSvgIconEngine(m_svg); }

QString ThemedSvgIconEngine::key() const { return QStringLiteral("segstudio-themed-svg"); }

}  // namespace segstudio::ui::icons
