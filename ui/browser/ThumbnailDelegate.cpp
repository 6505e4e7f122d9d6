#include "ThumbnailDelegate.h"

#include "ImageListModel.h"
#include "data/project/ImageEntry.h"

#include <QApplication>
#include <QFileInfo>
#include <QPainter>

namespace segstudio::ui::browser {

namespace {

constexpr int kMargin = 4;
constexpr int kBarHeight = 4;

QColor statusColor(data::LabelStatus status)
{
    switch (status) {
    case data::LabelStatus::InProgress: return QColor(230, 160, 30);
    case data::LabelStatus::Labelled: return QColor(60, 170, 80);
    case data::LabelStatus::Reviewed: return QColor(50, 120, 220);
    case data::LabelStatus::Unlabelled: break;
    }
    return QColor(150, 150, 150);
}

}  // namespace

ThumbnailDelegate::ThumbnailDelegate(QSize thumbnailSize, QObject* parent)
    : QStyledItemDelegate(parent), m_thumbnailSize(thumbnailSize)
{
}

QSize ThumbnailDelegate::cellSize() const
{
    const int textHeight = QFontMetrics(QApplication::font()).height();
    return {m_thumbnailSize.width() + 2 * kMargin, m_thumbnailSize.height() + textHeight + kBarHeight + 4 * kMargin};
}

QSize ThumbnailDelegate::sizeHint(const QStyleOptionViewItem&, const QModelIndex&) const
{
    return cellSize();
}

void ThumbnailDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    painter->save();
    const QRect cell = option.rect;
    if (option.state & QStyle::State_Selected)
        painter->fillRect(cell, option.palette.highlight());
    else if (option.state & QStyle::State_MouseOver)
        painter->fillRect(cell, option.palette.alternateBase());

    const QRect thumbRect(cell.left() + kMargin, cell.top() + kMargin, m_thumbnailSize.width(), m_thumbnailSize.height());
    const QString problem = index.data(ImageListModel::ProblemRole).toString();
    const QImage image = problem.isEmpty() ? index.data(ImageListModel::ThumbnailRole).value<QImage>() : QImage();
    if (image.isNull()) {
        paintPlaceholder(painter, thumbRect, problem);
    } else {
        const QSize fitted = image.size().scaled(thumbRect.size(), Qt::KeepAspectRatio);
        QRect target(QPoint(), fitted);
        target.moveCenter(thumbRect.center());
        painter->drawImage(target, image);
    }
    paintFooter(painter, cell.adjusted(kMargin, thumbRect.height() + 2 * kMargin, -kMargin, -kMargin), option, index);
    painter->restore();
}

void ThumbnailDelegate::paintPlaceholder(QPainter* painter, const QRect& rect, const QString& problem) const
{
    painter->fillRect(rect, problem.isEmpty() ? QColor(70, 70, 70) : QColor(90, 40, 40));
    painter->setPen(QColor(230, 230, 230));
    QFont font = painter->font();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    painter->setFont(font);
    // The reason is the one thing a user needs to fix a broken entry: show it, not just an icon.
    const QString text = problem.isEmpty() ? tr("loading…") : tr("⚠ %1").arg(problem);
    painter->drawText(rect.adjusted(4, 4, -4, -4), Qt::AlignCenter | Qt::TextWrapAnywhere, text);
}

void ThumbnailDelegate::paintFooter(QPainter* painter, const QRect& rect, const QStyleOptionViewItem& option,
                                    const QModelIndex& index) const
{
    const auto status = data::LabelStatus(index.data(ImageListModel::StatusRole).toInt());
    const double fraction = index.data(ImageListModel::LabelledFractionRole).toDouble();
    const QFontMetrics metrics(option.font);
    const int dot = metrics.height() / 2;
    painter->setFont(option.font);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(statusColor(status));
    painter->drawEllipse(QRect(rect.left(), rect.top() + (metrics.height() - dot) / 2, dot, dot));

    painter->setPen(option.palette.color(option.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
    const QString name = QFileInfo(index.data(ImageListModel::PathRole).toString()).fileName();
    const QRect textRect(rect.left() + dot + kMargin, rect.top(), rect.width() - dot - kMargin, metrics.height());
    painter->drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter, metrics.elidedText(name, Qt::ElideMiddle, textRect.width()));

    const QRect bar(rect.left(), rect.top() + metrics.height() + kMargin / 2, rect.width(), kBarHeight);
    painter->fillRect(bar, QColor(60, 60, 60, 80));
    if (fraction > 0)
        painter->fillRect(QRect(bar.left(), bar.top(), int(bar.width() * fraction), bar.height()), statusColor(status));
}

}  // namespace segstudio::ui::browser
