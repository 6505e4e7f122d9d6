#pragma once

#include "data/project/ImageEntry.h"

#include <QWidget>
#include <optional>

class QAction;
class QComboBox;
class QItemSelectionModel;
class QLabel;
class QLineEdit;
class QListView;
class QStackedWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace segstudio::data {
inline namespace project { class Project; }
}

namespace segstudio::document {
class ProjectDocument;
}

namespace segstudio::ui::browser {

class ImageFilterProxyModel;
class ImageListModel;
class ThumbnailDelegate;

// The way through a project's images: a thumbnail grid and a detail list over one filtered,
// sorted model with one shared selection; filter bar (split, status/problems, class, search,
// sort; the IoU column and sort entry only while some image has an IoU); a context menu to set
// split or status of the selection, accept its prediction, propagate labels along its sequence,
// or remove it; next/previous/next unlabelled navigation.
// Requirements: GUI thread; the document outlives the browser or is replaced with setDocument(nullptr).
// Guarantees: currentEntryChanged fires once per change of the current image, with the project
//   index (not the view row); removal, Accept Prediction and Propagate are only requested: the
//   window decides (it owns the editor and the prediction rooms).
class DatasetBrowser : public QWidget {
    Q_OBJECT

public:
    explicit DatasetBrowser(QWidget* parent = nullptr);
    ~DatasetBrowser() override;

    void setDocument(document::ProjectDocument* document);
    ImageListModel* model() const { return m_model; }
    ImageFilterProxyModel* proxy() const { return m_proxy; }
    QListView* gridView() const { return m_grid; }
    QTableView* listView() const { return m_list; }

    std::optional<std::size_t> currentEntry() const;
    QList<std::size_t> selectedEntries() const;
    // Through the document, as undoable commands (the context menu's Set Split / Set Status).
    void setSplitOf(const QList<std::size_t>& entries, data::Split split);
    void setStatusOf(const QList<std::size_t>& entries, data::LabelStatus status);
    bool selectEntry(std::size_t entry);  // false when the filter hides it
    // Selects the view row `proxyRow`, or the last row when fewer are left (after a removal, the
    // image that moved into the removed one's place); nothing when no row is shown.
    void selectNearestRow(int proxyRow);

    QAction* nextAction() const { return m_nextAction; }
    QAction* previousAction() const { return m_previousAction; }
    QAction* nextUnlabelledAction() const { return m_nextUnlabelledAction; }
    QAction* nextInQueueAction() const { return m_nextInQueueAction; }
    QAction* showListAction() const { return m_showListAction; }
    QAction* overlayAction() const { return m_overlayAction; }

public slots:
    void selectNext();
    void selectPrevious();
    void selectNextUnlabelled();
    void selectNextInQueue();  // the most uncertain image to label next (ImageNavigator::nextInQueue)

signals:
    void currentEntryChanged(std::size_t entry);
    void removeRequested(const QList<std::size_t>& entries);
    void acceptPredictionRequested(const QList<std::size_t>& entries);
    // Propagate Labels Along the Sequence: one entry means its sequence, several those frames.
    void propagateAlongSequenceRequested(const QList<std::size_t>& entries);
    void statusMessage(const QString& text);

private:
    QWidget* createFilterBar();
    void createViews();
    void createActions();
    void fillClassFilter();
    QComboBox* createSequenceFilter(QWidget* bar);
    void fillSequenceFilter();
    void applyFilters();
    void applySort();
    void keepCurrentInView();
    void selectProxyRow(int row);
    void showContextMenu(const QPoint& globalPos);
    void updateSummary();
    void updateIoUVisibility();
    QList<int> selectedRows() const;

    ImageListModel* m_model;
    ImageFilterProxyModel* m_proxy;
    ThumbnailDelegate* m_delegate;
    QItemSelectionModel* m_selection = nullptr;
    QStackedWidget* m_stack = nullptr;
    QListView* m_grid = nullptr;
    QTableView* m_list = nullptr;
    QLineEdit* m_search = nullptr;
    QComboBox* m_splitFilter = nullptr;
    QComboBox* m_statusFilter = nullptr;
    QComboBox* m_classFilter = nullptr;
    QComboBox* m_sequenceFilter = nullptr;  // shown when the project has a sequence of frames
    QTimer* m_sequenceRefill = nullptr;      // recounts its labelled frames after status changes
    QComboBox* m_sortKey = nullptr;
    QToolButton* m_sortOrder = nullptr;
    QLabel* m_summary = nullptr;
    QAction* m_nextAction = nullptr;
    QAction* m_previousAction = nullptr;
    QAction* m_nextUnlabelledAction = nullptr;
    QAction* m_nextInQueueAction = nullptr;
    QAction* m_showListAction = nullptr;
    QAction* m_overlayAction = nullptr;
    std::optional<std::size_t> m_lastEmitted;  // the image the editor was asked to show
    bool m_filtering = false;                  // a filter change is moving rows
};

}  // namespace segstudio::ui::browser
