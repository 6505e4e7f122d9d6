#pragma once

#include "ImageSource.h"
#include "ImageStats.h"
#include "data/project/ImageEntry.h"
#include "data/project/PredictionIoU.h"

#include <QAbstractTableModel>
#include <optional>
#include <vector>

namespace segstudio::data {
inline namespace project { class Project; }
}
namespace segstudio::document {
class ProjectDocument;
}

namespace segstudio::ui::browser {

class LabelStatsLoader;
class ThumbnailCache;

// The images of a project as a table for the browser's grid and list: name, split, status,
// labelled %, classes present and IoU, plus roles that the filter and delegate read; the name
// column's decoration is the thumbnail (as an icon, for the detail list). Row r is
// project entry r. Labelled % and classes come from LabelStatsLoader (background); thumbnails from
// ThumbnailCache (on demand, for the rows a view paints).
// A read-only adapter over the ProjectDocument: edits go to the document (as undoable commands) and
// come back here through its signals, like every other view's.
// Requirements: the document outlives the model or is replaced with setDocument(nullptr) first.
// Guarantees: never reads a file on the calling thread; every change of a row emits dataChanged.
class ImageListModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        NameColumn,
        SplitColumn,
        StatusColumn,
        LabelledColumn,
        ClassesColumn,
        IoUColumn,  // the prediction columns, from IoUColumn to SuspectColumn
        BoundaryF1Column,
        WrongPixelsColumn,
        UncertaintyColumn,
        SuspectColumn,
        ColumnCount
    };
    enum Role {
        EntryIndexRole = Qt::UserRole + 1,  // std::size_t as qulonglong
        PathRole,                           // relative image path
        SplitRole,                          // int(data::Split)
        StatusRole,                         // int(data::LabelStatus)
        LabelledFractionRole,               // double, -1 while unknown
        ClassMaskRole,                      // QByteArray of 32 bytes, bit id set when class id is present
        IoURole,                            // double, -1 when there is no prediction (all prediction roles)
        BoundaryF1Role,                     // double: mean BF score
        WrongPixelsRole,                    // double: pixels the prediction gets wrong
        UncertaintyRole,                    // double 0..1: mean entropy where not labelled yet (the labeling queue)
        SuspectRole,                        // double 0..1: labelled share a sure prediction disagrees with
        ProblemRole,                        // QString, empty when fine
        ThumbnailRole,                      // QImage, null while loading
        // The image's place in a frame sequence (data::FrameSequence::keyOf), parsed once per
        // row: sorting thousands of rows by sequence compares these, not file names re-parsed.
        SequenceRole,  // QString: folder/name with '#' for the number; the path when it has none
        FrameRole,     // qlonglong: the frame number, 0 when the name has none
    };

    explicit ImageListModel(QObject* parent = nullptr);
    ~ImageListModel() override;

    // The one spelling of split and status names, for the list's cells and the browser's filters
    // and menus alike.
    static QString splitName(data::Split split);
    static QString statusName(data::LabelStatus status);

    void setDocument(document::ProjectDocument* document);
    document::ProjectDocument* document() const { return m_document; }
    const data::Project* project() const { return m_project; }
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

    void setLabelledFraction(int row, double fraction);  // live, from the editor
    void refreshRow(int row);                            // re-read its label map and thumbnail
    // A checkpoint's scores of one image (-1 = none), from the Predictions panel.
    struct Scores {
        double iou = -1;
        double boundaryF1 = -1;
        double wrongPixels = -1;
        double uncertainty = -1;
        double suspect = -1;
        bool any() const { return iou >= 0 || boundaryF1 >= 0 || wrongPixels >= 0 || uncertainty >= 0 || suspect >= 0; }
    };
    void setScores(int row, const Scores& scores);
    void setIoU(int row, std::optional<double> iou);  // the other scores of the row are cleared
    // A model's scores of every image (the predictions panel's scoresChanged): rows without one
    // in the list are cleared. Only rows that change are touched: each change re-sorts a proxy
    // sorted by a score.
    void setPredictionScores(const std::vector<data::PredictionScore>& scores);
    const Scores& scores(int row) const { return m_scores.at(std::size_t(row)); }
    bool hasIoU() const { return m_scoredRows > 0; }  // some row has a score (views show the columns)

signals:
    void hasIoUChanged(bool hasIoU);
    void statsFinished();

private:
    struct FrameKey {
        QString sequence;
        qlonglong frame = 0;
    };

    void connectDocument();
    void restartBackgroundWork();  // every row's stats again (after a class-id or entry-list change)
    void onSchemaChanged();
    std::vector<ImageSource> sources() const;
    std::vector<int> classIds() const;
    void startBackgroundWork();
    void applyStats(int row, const ImageStats& stats);
    void emitRowChanged(int first, int last);
    QString classNames(const ImageStats& stats) const;
    static QString scoreText(double value, char format, int precision);
    QVariant displayData(int row, int column) const;
    FrameKey frameKeyOf(std::size_t index) const;

    document::ProjectDocument* m_document = nullptr;
    const data::Project* m_project = nullptr;
    std::vector<ImageStats> m_stats;
    std::vector<Scores> m_scores;
    std::vector<FrameKey> m_frameKeys;
    std::vector<int> m_classIds;  // of the schema the loader reads with
    int m_scoredRows = 0;
    int m_pendingStats = 0;
    bool m_overlay = false;
    LabelStatsLoader* m_loader;
    ThumbnailCache* m_thumbnails;
};

}  // namespace segstudio::ui::browser
