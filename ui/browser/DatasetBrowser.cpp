#include "DatasetBrowser.h"

#include "document/ProjectDocument.h"

#include "ImageFilterProxyModel.h"
#include "ImageListModel.h"
#include "ImageNavigator.h"
#include "LabelStatsLoader.h"
#include "ThumbnailCache.h"
#include "ThumbnailDelegate.h"
#include "data/project/FrameSequence.h"
#include "data/project/Project.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace segstudio::ui::browser {

namespace {

// Status filter entries beyond the four statuses.
constexpr int kAnyStatus = -1;
constexpr int kProblems = -2;

// In the order the filters and menus list them.
constexpr data::Split kSplits[] = {data::Split::Train, data::Split::Val, data::Split::Test, data::Split::Unassigned};
constexpr data::LabelStatus kStatuses[] = {data::LabelStatus::Unlabelled, data::LabelStatus::InProgress,
                                           data::LabelStatus::Labelled, data::LabelStatus::Reviewed};

}  // namespace

DatasetBrowser::DatasetBrowser(QWidget* parent)
    : QWidget(parent),
      m_model(new ImageListModel(this)),
      m_proxy(new ImageFilterProxyModel(this)),
      m_delegate(new ThumbnailDelegate(QSize(160, 120), this))
{
    m_proxy->setSourceModel(m_model);
    m_model->thumbnails()->setThumbnailSize(QSize(160, 120));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(createFilterBar());
    createViews();
    layout->addWidget(m_stack, 1);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("summary"));
    layout->addWidget(m_summary);
    createActions();

    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &DatasetBrowser::updateSummary);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &DatasetBrowser::updateSummary);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &DatasetBrowser::updateSummary);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &DatasetBrowser::updateSummary);
    connect(m_model, &ImageListModel::statsFinished, this, &DatasetBrowser::updateSummary);
    connect(m_model->statsLoader(), &LabelStatsLoader::statsReady, this, &DatasetBrowser::updateSummary);
    // After a reset or removal the same entry index can name another image (rows shift up), so
    // the last emitted entry no longer says what the editor shows: forget it, or reselecting the
    // image that moved into a removed one's place would emit nothing.
    connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] { m_lastEmitted.reset(); });
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, [this] {
        if (!m_filtering)  // rows a filter hides are still the same images
            m_lastEmitted.reset();
    });
    // Nothing sets an IoU until predictions exist; a column and a sort entry of dashes only
    // confuse. The header forgets hidden sections on a reset, so it is applied again then.
    connect(m_model, &ImageListModel::hasIoUChanged, this, &DatasetBrowser::updateIoUVisibility);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &DatasetBrowser::updateIoUVisibility);
    updateIoUVisibility();
    updateSummary();
}

DatasetBrowser::~DatasetBrowser() = default;

QWidget* DatasetBrowser::createFilterBar()
{
    auto* bar = new QWidget(this);
    auto* grid = new QVBoxLayout(bar);
    grid->setContentsMargins(2, 2, 2, 2);
    grid->setSpacing(2);

    m_search = new QLineEdit(bar);
    m_search->setObjectName(QStringLiteral("search"));
    m_search->setPlaceholderText(tr("Search file names…"));
    m_search->setClearButtonEnabled(true);
    grid->addWidget(m_search);

    auto* row = new QHBoxLayout;
    m_splitFilter = new QComboBox(bar);
    m_splitFilter->setObjectName(QStringLiteral("splitFilter"));
    m_splitFilter->addItem(tr("All splits"), -1);
    for (data::Split split : kSplits)
        m_splitFilter->addItem(ImageListModel::splitName(split), int(split));
    m_statusFilter = new QComboBox(bar);
    m_statusFilter->setObjectName(QStringLiteral("statusFilter"));
    m_statusFilter->addItem(tr("Any status"), kAnyStatus);
    for (data::LabelStatus status : kStatuses)
        m_statusFilter->addItem(ImageListModel::statusName(status), int(status));
    m_statusFilter->addItem(tr("Problems"), kProblems);
    m_classFilter = new QComboBox(bar);
    m_classFilter->setObjectName(QStringLiteral("classFilter"));
    row->addWidget(m_splitFilter);
    row->addWidget(m_statusFilter);
    row->addWidget(m_classFilter);
    grid->addLayout(row);
    grid->addWidget(createSequenceFilter(bar));

    auto* sortRow = new QHBoxLayout;
    sortRow->addWidget(new QLabel(tr("Sort:"), bar));
    m_sortKey = new QComboBox(bar);
    m_sortKey->setObjectName(QStringLiteral("sortKey"));
    m_sortKey->addItem(tr("Name"), int(ImageFilterProxyModel::SortKey::Name));
    m_sortKey->addItem(tr("Labelled %"), int(ImageFilterProxyModel::SortKey::LabelledFraction));
    m_sortKey->addItem(tr("Sequence, frame"), int(ImageFilterProxyModel::SortKey::Frame));
    m_sortOrder = new QToolButton(bar);
    m_sortOrder->setCheckable(true);
    m_sortOrder->setArrowType(Qt::UpArrow);
    m_sortOrder->setToolTip(tr("Ascending / descending"));
    sortRow->addWidget(m_sortKey, 1);
    sortRow->addWidget(m_sortOrder);
    grid->addLayout(sortRow);

    connect(m_search, &QLineEdit::textChanged, this, &DatasetBrowser::applyFilters);
    for (QComboBox* combo : {m_splitFilter, m_statusFilter, m_classFilter, m_sequenceFilter})
        connect(combo, &QComboBox::currentIndexChanged, this, &DatasetBrowser::applyFilters);
    connect(m_sortKey, &QComboBox::currentIndexChanged, this, &DatasetBrowser::applySort);
    connect(m_sortOrder, &QToolButton::toggled, this, [this](bool descending) {
        m_sortOrder->setArrowType(descending ? Qt::DownArrow : Qt::UpArrow);
        applySort();
    });
    return bar;
}

// Frames of a video (issue 51): one sequence at a time, in frame order, each entry saying how many
// of its frames are labelled, so the labelled and unlabelled stretches show along it.
QComboBox* DatasetBrowser::createSequenceFilter(QWidget* bar)
{
    m_sequenceFilter = new QComboBox(bar);
    m_sequenceFilter->setObjectName(QStringLiteral("sequenceFilter"));
    m_sequenceFilter->setToolTip(tr("Show the frames of one video sequence, in frame order (told from the file names)"));
    m_sequenceFilter->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_sequenceFilter->setMinimumContentsLength(12);
    m_sequenceFilter->hide();
    m_sequenceRefill = new QTimer(this);
    m_sequenceRefill->setSingleShot(true);
    m_sequenceRefill->setInterval(100);
    connect(m_sequenceRefill, &QTimer::timeout, this, &DatasetBrowser::fillSequenceFilter);
    connect(m_sequenceFilter, &QComboBox::activated, this, [this] {
        // Choosing a sequence lists it as a film strip: by frame number.
        if (!m_sequenceFilter->currentData().toString().isEmpty())
            m_sortKey->setCurrentIndex(m_sortKey->findData(int(ImageFilterProxyModel::SortKey::Frame)));
    });
    return m_sequenceFilter;
}

void DatasetBrowser::fillSequenceFilter()
{
    const QString chosen = m_sequenceFilter->currentData().toString();
    const QSignalBlocker blocker(m_sequenceFilter);
    m_sequenceFilter->clear();
    m_sequenceFilter->addItem(tr("Any sequence"), QString());
    const data::Project* project = m_model->project();
    if (project) {
        const data::FrameSequence sequences(*project);
        for (const auto& frames : sequences.sequences()) {
            if (frames.size() < 2)
                continue;  // an image alone, or a name without a frame number
            const auto key = data::FrameSequence::keyOf(project->entry(frames.front()).image);
            const auto labelled = std::count_if(frames.begin(), frames.end(), [project](std::size_t i) {
                const auto status = project->entry(i).status;
                return status == data::LabelStatus::Labelled || status == data::LabelStatus::Reviewed;
            });
            // Its folder and name without the extension: CamVid has a 0016E5 in train/ and in val/.
            QString name = QString::fromStdString(key.sequence).section(u'/', -2);
            name = name.left(name.lastIndexOf(u'.') > name.lastIndexOf(u'/') ? name.lastIndexOf(u'.') : name.size());
            m_sequenceFilter->addItem(
                tr("%1 — %2 frames, %3 labelled").arg(name).arg(frames.size()).arg(labelled),
                QString::fromStdString(key.sequence));
        }
    }
    const int again = chosen.isEmpty() ? 0 : m_sequenceFilter->findData(chosen);
    m_sequenceFilter->setCurrentIndex(std::max(again, 0));
    m_sequenceFilter->setVisible(m_sequenceFilter->count() > 1);
    if (again < 0)
        applyFilters();  // the chosen sequence is gone
}

void DatasetBrowser::createViews()
{
    m_stack = new QStackedWidget(this);
    m_grid = new QListView(m_stack);
    m_grid->setObjectName(QStringLiteral("thumbnailGrid"));
    m_grid->setViewMode(QListView::IconMode);
    m_grid->setMovement(QListView::Static);
    m_grid->setResizeMode(QListView::Adjust);
    m_grid->setWrapping(true);
    // Uniform sizes keep layout O(1) per item: the grid never asks 10,000 cells for a size hint.
    m_grid->setUniformItemSizes(true);
    m_grid->setItemDelegate(m_delegate);
    m_grid->setGridSize(m_delegate->cellSize() + QSize(4, 4));
    m_grid->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_grid->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_grid->setMouseTracking(true);
    m_grid->setModel(m_proxy);
    m_grid->setModelColumn(ImageListModel::NameColumn);

    m_list = new QTableView(m_stack);
    m_list->setObjectName(QStringLiteral("detailList"));
    m_list->setModel(m_proxy);
    m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_list->setSortingEnabled(false);
    m_list->verticalHeader()->hide();
    const int rowHeight = m_list->fontMetrics().height() + 6;
    m_list->verticalHeader()->setDefaultSectionSize(rowHeight);
    // The name column shows the thumbnail (4:3) at row height.
    m_list->setIconSize(QSize((rowHeight - 2) * 4 / 3, rowHeight - 2));
    // The image column takes the width the dock gives and elides in the middle, where a long
    // path has the least to say ("images/…/street_0001.png"); the tooltip has it whole.
    m_list->horizontalHeader()->setStretchLastSection(false);
    m_list->horizontalHeader()->setDefaultSectionSize(90);
    m_list->horizontalHeader()->setSectionResizeMode(ImageListModel::NameColumn, QHeaderView::Stretch);
    m_list->setTextElideMode(Qt::ElideMiddle);
    m_list->setWordWrap(false);

    m_selection = m_grid->selectionModel();
    m_list->setSelectionModel(m_selection);
    m_stack->addWidget(m_grid);
    m_stack->addWidget(m_list);

    connect(m_selection, &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
        if (!current.isValid() || m_filtering)
            return;
        const std::size_t entry = m_proxy->entryOfRow(current.row());
        if (m_lastEmitted == entry)
            return;
        m_lastEmitted = entry;
        emit currentEntryChanged(entry);
    });
    for (QAbstractItemView* view : {static_cast<QAbstractItemView*>(m_grid), static_cast<QAbstractItemView*>(m_list)}) {
        view->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(view, &QWidget::customContextMenuRequested, this,
                [this, view](const QPoint& pos) { showContextMenu(view->viewport()->mapToGlobal(pos)); });
    }
}

void DatasetBrowser::createActions()
{
    m_nextAction = new QAction(tr("&Next Image"), this);
    m_nextAction->setShortcut(QKeySequence(Qt::Key_PageDown));
    connect(m_nextAction, &QAction::triggered, this, &DatasetBrowser::selectNext);
    m_previousAction = new QAction(tr("&Previous Image"), this);
    m_previousAction->setShortcut(QKeySequence(Qt::Key_PageUp));
    connect(m_previousAction, &QAction::triggered, this, &DatasetBrowser::selectPrevious);
    m_nextUnlabelledAction = new QAction(tr("Next &Unlabelled Image"), this);
    m_nextUnlabelledAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    connect(m_nextUnlabelledAction, &QAction::triggered, this, &DatasetBrowser::selectNextUnlabelled);
    m_nextInQueueAction = new QAction(tr("Next in Labeling &Queue"), this);
    m_nextInQueueAction->setShortcut(QKeySequence(Qt::Key_Q));
    m_nextInQueueAction->setToolTip(tr("The image the model is least sure of among those still to label"));
    connect(m_nextInQueueAction, &QAction::triggered, this, &DatasetBrowser::selectNextInQueue);

    m_showListAction = new QAction(tr("Show Detail &List"), this);
    m_showListAction->setCheckable(true);
    connect(m_showListAction, &QAction::toggled, this, [this](bool list) { m_stack->setCurrentIndex(list ? 1 : 0); });
    m_overlayAction = new QAction(tr("Label &Overlay on Thumbnails"), this);
    m_overlayAction->setCheckable(true);
    connect(m_overlayAction, &QAction::toggled, m_model, &ImageListModel::setOverlayEnabled);
}

void DatasetBrowser::setDocument(document::ProjectDocument* document)
{
    m_lastEmitted.reset();
    if (m_model->document())
        disconnect(m_model->document(), nullptr, this, nullptr);
    m_model->setDocument(document);
    if (document) {
        using document::ProjectDocument;
        connect(document, &ProjectDocument::schemaChanged, this, &DatasetBrowser::fillClassFilter);
        // A batch of status changes comes as one signal per image: count the frames once after it.
        connect(document, &ProjectDocument::statusChanged, m_sequenceRefill, qOverload<>(&QTimer::start));
        connect(document, &ProjectDocument::entriesChanged, m_sequenceRefill, qOverload<>(&QTimer::start));
    }
    fillClassFilter();
    fillSequenceFilter();
    updateSummary();
}

void DatasetBrowser::fillClassFilter()
{
    const QSignalBlocker blocker(m_classFilter);
    m_classFilter->clear();
    m_classFilter->addItem(tr("Any class"), -1);
    if (const data::Project* project = m_model->project())
        for (const auto& labelClass : project->schema().classes())
            m_classFilter->addItem(QString::fromStdString(labelClass.name), labelClass.id);
    m_proxy->setClassFilter(std::nullopt);
}

void DatasetBrowser::applyFilters()
{
    const int split = m_splitFilter->currentData().toInt();
    const int status = m_statusFilter->currentData().toInt();
    const int classId = m_classFilter->currentData().toInt();
    // A filter never changes the image being labeled: the selection model moves the current row
    // off a row the filter hides, which must not take the editor along. The image stays current
    // where the filter shows it, and is found again when the filter is cleared.
    const std::optional<std::size_t> shown = m_lastEmitted;
    {
        const QScopedValueRollback filtering(m_filtering, true);
        m_proxy->setSplitFilter(split < 0 ? std::nullopt : std::optional(data::Split(split)));
        m_proxy->setStatusFilter(status < 0 ? std::nullopt : std::optional(data::LabelStatus(status)));
        m_proxy->setProblemsOnly(status == kProblems);
        m_proxy->setClassFilter(classId < 0 ? std::nullopt : std::optional(classId));
        m_proxy->setSearchText(m_search->text());
        const QString sequence = m_sequenceFilter->currentData().toString();
        m_proxy->setSequenceFilter(sequence.isEmpty() ? std::nullopt : std::optional(sequence));
    }
    updateSummary();
    const int row = shown ? m_proxy->rowOfEntry(*shown) : -1;
    if (row >= 0) {
        selectProxyRow(row);
    } else if (shown) {
        const QSignalBlocker blocker(m_selection);
        m_selection->clear();  // nothing listed is open: Next starts from the top
        m_grid->viewport()->update();
        m_list->viewport()->update();
    } else {
        keepCurrentInView();
    }
}

void DatasetBrowser::keepCurrentInView()
{
    // A filtered-out current row has already moved the current index to a neighbour (the
    // selection model does that on row removal, and the editor followed); with none left, the
    // first row that is shown becomes current, so the editor never shows an image not listed.
    const QModelIndex current = m_selection->currentIndex();
    if (current.isValid())
        selectProxyRow(current.row());
    else
        selectNearestRow(0);
}

void DatasetBrowser::applySort()
{
    m_proxy->setSortKey(ImageFilterProxyModel::SortKey(m_sortKey->currentData().toInt()),
                        m_sortOrder->isChecked() ? Qt::DescendingOrder : Qt::AscendingOrder);
    keepCurrentInView();
}

std::optional<std::size_t> DatasetBrowser::currentEntry() const
{
    const QModelIndex current = m_selection->currentIndex();
    if (!current.isValid())
        return std::nullopt;
    return m_proxy->entryOfRow(current.row());
}

QList<int> DatasetBrowser::selectedRows() const
{
    QList<int> rows;
    for (const QModelIndex& index : m_selection->selectedIndexes())
        if (index.column() == 0)
            rows << m_proxy->mapToSource(index).row();
    // The grid selects column 0 only, the list whole rows; both give one index in column 0.
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

QList<std::size_t> DatasetBrowser::selectedEntries() const
{
    QList<std::size_t> entries;
    for (int row : selectedRows())
        entries << std::size_t(row);
    return entries;
}

bool DatasetBrowser::selectEntry(std::size_t entry)
{
    const int row = m_proxy->rowOfEntry(entry);
    if (row < 0)
        return false;
    selectProxyRow(row);
    return true;
}

void DatasetBrowser::selectNearestRow(int proxyRow)
{
    const int rows = m_proxy->rowCount();
    if (rows == 0)
        return;
    selectProxyRow(std::clamp(proxyRow, 0, rows - 1));
}

void DatasetBrowser::selectProxyRow(int row)
{
    const QModelIndex index = m_proxy->index(row, 0);
    m_selection->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_grid->scrollTo(index);
    m_list->scrollTo(index);
}

void DatasetBrowser::selectNext()
{
    if (auto row = ImageNavigator::find(*m_proxy, m_selection->currentIndex().row(), +1))
        selectProxyRow(*row);
}

void DatasetBrowser::selectPrevious()
{
    const QModelIndex current = m_selection->currentIndex();
    if (auto row = ImageNavigator::find(*m_proxy, current.isValid() ? current.row() : -1, -1))
        selectProxyRow(*row);
}

void DatasetBrowser::selectNextUnlabelled()
{
    if (auto row = ImageNavigator::find(*m_proxy, m_selection->currentIndex().row(), +1, &ImageNavigator::needsLabelling))
        selectProxyRow(*row);
    else
        emit statusMessage(tr("No unlabelled image after this one"));
}

void DatasetBrowser::selectNextInQueue()
{
    const QModelIndex current = m_selection->currentIndex();
    const int currentRow = current.isValid() ? m_proxy->mapToSource(current).row() : -1;
    const auto next = ImageNavigator::nextInQueue(*m_model, currentRow);
    if (!next) {
        bool anyToLabel = false;
        for (int row = 0; row < m_model->rowCount() && !anyToLabel; ++row)
            anyToLabel = ImageNavigator::needsLabelling(m_model->index(row, 0));
        emit statusMessage(anyToLabel
                               ? tr("The labeling queue is empty: predict the images to label (Predictions panel) first")
                               : tr("The labeling queue is empty: every image is labelled (sort by Uncertainty to review)"));
        return;
    }
    if (!selectEntry(std::size_t(*next)))
        emit statusMessage(tr("The next image in the queue is hidden by the filters"));
}

void DatasetBrowser::setSplitOf(const QList<std::size_t>& entries, data::Split split)
{
    if (m_model->document())
        m_model->document()->setSplit({entries.begin(), entries.end()}, split);
}

void DatasetBrowser::setStatusOf(const QList<std::size_t>& entries, data::LabelStatus status)
{
    if (m_model->document())
        m_model->document()->setStatus({entries.begin(), entries.end()}, status);
}

void DatasetBrowser::showContextMenu(const QPoint& globalPos)
{
    const QList<int> rows = selectedRows();
    if (rows.isEmpty())
        return;
    QMenu menu(this);
    QMenu* splitMenu = menu.addMenu(tr("Set &Split"));
    for (data::Split split : kSplits)
        connect(splitMenu->addAction(ImageListModel::splitName(split)), &QAction::triggered, this,
                [this, split] { setSplitOf(selectedEntries(), split); });
    QMenu* statusMenu = menu.addMenu(tr("Set S&tatus"));
    for (data::LabelStatus status : kStatuses)
        connect(statusMenu->addAction(ImageListModel::statusName(status)), &QAction::triggered, this,
                [this, status] { setStatusOf(selectedEntries(), status); });
    menu.addSeparator();
    connect(menu.addAction(tr("&Accept Prediction for %n Image(s)…", nullptr, int(rows.size()))), &QAction::triggered, this,
            [this] { emit acceptPredictionRequested(selectedEntries()); });
    // One image: its whole sequence; several: those frames (issue 51).
    QAction* propagate =
        menu.addAction(rows.size() == 1 ? tr("Pro&pagate Labels Along the Sequence…")
                                        : tr("Pro&pagate Labels into %n Selected Frame(s)…", nullptr, int(rows.size())));
    propagate->setObjectName(QStringLiteral("propagateAlongSequenceAction"));
    propagate->setToolTip(tr("Carry the labels of each labelled frame by optical flow into the unlabelled frames "
                             "after it, one after the other; frames that have labels are never changed"));
    connect(propagate, &QAction::triggered, this, [this] { emit propagateAlongSequenceRequested(selectedEntries()); });
    menu.addSeparator();
    connect(menu.addAction(tr("&Remove %n Image(s) from Project…", nullptr, int(rows.size()))), &QAction::triggered, this,
            [this] { emit removeRequested(selectedEntries()); });
    menu.exec(globalPos);
}

void DatasetBrowser::updateIoUVisibility()
{
    // The prediction columns and sorts exist while some image has a checkpoint's score.
    const bool scored = m_model->hasIoU();
    for (int column = ImageListModel::IoUColumn; column <= ImageListModel::SuspectColumn; ++column)
        m_list->setColumnHidden(column, !scored);
    using Key = ImageFilterProxyModel::SortKey;
    const std::pair<Key, QString> keys[] = {{Key::IoU, tr("IoU")},
                                            {Key::BoundaryF1, tr("BF score")},
                                            {Key::WrongPixels, tr("Pixels wrong")},
                                            {Key::Uncertainty, tr("Uncertainty (labeling queue)")},
                                            {Key::Suspect, tr("Suspect labels")}};
    for (const auto& [key, name] : keys) {
        const int item = m_sortKey->findData(int(key));
        if (scored && item < 0) {
            m_sortKey->addItem(name, int(key));
        } else if (!scored && item >= 0) {
            // Sorting by a score falls back to name order (currentIndexChanged re-sorts) before it goes.
            if (m_sortKey->currentIndex() == item)
                m_sortKey->setCurrentIndex(m_sortKey->findData(int(Key::Name)));
            m_sortKey->removeItem(m_sortKey->findData(int(key)));
        }
    }
}

void DatasetBrowser::updateSummary()
{
    const int total = m_model->rowCount();
    QString text = tr("%1 of %2 images").arg(m_proxy->rowCount()).arg(total);
    if (total > 0 && !m_model->statsComplete())
        text += tr(" · reading labels %1 %").arg(100 * (total - m_model->pendingStatsCount()) / total);
    m_summary->setText(text);
}

}  // namespace segstudio::ui::browser
