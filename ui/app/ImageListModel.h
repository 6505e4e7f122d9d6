#pragma once

#include "ImageStats.h"
#include "data/ImageEntry.h"

#include <QAbstractTableModel>
#include <optional>
#include <vector>

namespace segstudio::data {
class Project;
}

namespace segstudio::ui {

class LabelStatsLoader;
class ThumbnailCache;

// The images of a project as a table for the browser's grid and list: name, split, status,
// labelled %, classes present and IoU, plus roles that the filter and delegate read; the name
// column's decoration is the thumbnail (as an icon, for the detail list). Row r is
// project entry r. Labelled % and classes come from LabelStatsLoader (background); thumbnails from
// ThumbnailCache (on demand, for the rows a view paints).
// Requirements: the project outlives the model or is replaced with setProject(nullptr) first; the
//   project's entry list changes only through this model (or is followed by setProject again).
// Guarantees: never reads a file on the calling thread; every change of a row emits dataChanged.
class ImageListModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { NameColumn, SplitColumn, StatusColumn, LabelledColumn, ClassesColumn, IoUColumn, ColumnCount };
    enum Role {
        EntryIndexRole = Qt::UserRole + 1,  // std::size_t as qulonglong
        PathRole,                           // relative image path
        SplitRole,                          // int(data::Split)
        StatusRole,                         // int(data::LabelStatus)
        LabelledFractionRole,               // double, -1 while unknown
        ClassMaskRole,                      // QByteArray of 32 bytes, bit id set when class id is present
        IoURole,                            // double, -1 when there is no prediction
        ProblemRole,                        // QString, empty when fine
        ThumbnailRole,                      // QImage, null while loading
    };

    explicit ImageListModel(QObject* parent = nullptr);
    ~ImageListModel() override;

    // The one spelling of split and status names, for the list's cells and the browser's filters
    // and menus alike.
    static QString splitName(data::Split split);
    static QString statusName(data::LabelStatus status);

    void setProject(data::Project* project);
    data::Project* project() const { return m_project; }
    ThumbnailCache* thumbnails() const { return m_thumbnails; }
    LabelStatsLoader* statsLoader() const { return m_loader; }

    void setOverlayEnabled(bool enabled);
    bool overlayEnabled() const { return m_overlay; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const ImageStats& stats(int row) const { return m_stats.at(row); }
    bool statsComplete() const { return m_pendingStats == 0; }
    int pendingStatsCount() const { return m_pendingStats; }
    QList<int> problemRows() const;  // rows whose image or label map cannot be used

    void setSplit(const QList<int>& rows, data::Split split);
    void setStatus(const QList<int>& rows, data::LabelStatus status);
    void removeEntries(QList<int> rows);
    void setLabelledFraction(int row, double fraction);  // live, from the editor
    void refreshRow(int row);                            // re-read its label map and thumbnail
    void setIoU(int row, std::optional<double> iou);
    bool hasIoU() const { return m_iouCount > 0; }  // some row has an IoU (views show the column)

signals:
    void projectModified();
    void hasIoUChanged(bool hasIoU);
    void statsFinished();

private:
    void startBackgroundWork();
    void applyStats(int row, const ImageStats& stats);
    void emitRowChanged(int first, int last);
    QString classNames(const ImageStats& stats) const;
    QVariant displayData(int row, int column) const;

    data::Project* m_project = nullptr;
    std::vector<ImageStats> m_stats;
    std::vector<double> m_iou;  // -1 = none
    int m_iouCount = 0;
    int m_pendingStats = 0;
    bool m_overlay = false;
    LabelStatsLoader* m_loader;
    ThumbnailCache* m_thumbnails;
};

}  // namespace segstudio::ui
