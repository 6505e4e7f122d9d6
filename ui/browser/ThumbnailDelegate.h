#pragma once

#include <QStyledItemDelegate>

namespace segstudio::ui::browser {

// Paints one cell of the browser's grid: the thumbnail (or a placeholder saying it is loading, or
// why the image cannot be shown), the file name, a status mark and a labelled-% bar. Asking the
// model for ThumbnailRole is what queues a thumbnail, so only painted cells are ever loaded.
class ThumbnailDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    explicit ThumbnailDelegate(QSize thumbnailSize, QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    QSize cellSize() const;

private:
    void paintPlaceholder(QPainter* painter, const QRect& rect, const QString& problem) const;
    void paintFooter(QPainter* painter, const QRect& rect, const QStyleOptionViewItem& option,
                     const QModelIndex& index) const;

    QSize m_thumbnailSize;
};

}  // namespace segstudio::ui::browser
