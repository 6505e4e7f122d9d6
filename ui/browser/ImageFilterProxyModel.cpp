#include "ImageFilterProxyModel.h"

#include "ImageListModel.h"

namespace segstudio::ui::browser {

ImageFilterProxyModel::ImageFilterProxyModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortCaseSensitivity(Qt::CaseInsensitive);
    setDynamicSortFilter(true);
    sort(ImageListModel::NameColumn, Qt::AscendingOrder);
}

void ImageFilterProxyModel::setSplitFilter(std::optional<data::Split> split)
{
    m_split = split;
    refilter();
}

void ImageFilterProxyModel::setStatusFilter(std::optional<data::LabelStatus> status)
{
    m_status = status;
    refilter();
}

void ImageFilterProxyModel::setClassFilter(std::optional<int> classId)
{
    m_classId = classId;
    refilter();
}

void ImageFilterProxyModel::setProblemsOnly(bool problemsOnly)
{
    m_problemsOnly = problemsOnly;
    refilter();
}

void ImageFilterProxyModel::setSearchText(const QString& text)
{
    m_search = text.trimmed();
    refilter();
}

void ImageFilterProxyModel::setSortKey(SortKey key, Qt::SortOrder order)
{
    m_sortKey = key;
    // The column only tells views which header shows the arrow; lessThan reads m_sortKey.
    invalidate();
    const bool byName = key == SortKey::Name || key == SortKey::Frame;
    sort(byName ? int(ImageListModel::NameColumn) : columnOf(key), order);
}

namespace {

struct SortColumn {
    ImageFilterProxyModel::SortKey key;
    int column;
    int role;
};

// Every sort key but Name reads one value of the model: its column (for the header's arrow) and role.
constexpr SortColumn kSortColumns[] = {
    {ImageFilterProxyModel::SortKey::LabelledFraction, ImageListModel::LabelledColumn, ImageListModel::LabelledFractionRole},
    {ImageFilterProxyModel::SortKey::IoU, ImageListModel::IoUColumn, ImageListModel::IoURole},
    {ImageFilterProxyModel::SortKey::BoundaryF1, ImageListModel::BoundaryF1Column, ImageListModel::BoundaryF1Role},
    {ImageFilterProxyModel::SortKey::WrongPixels, ImageListModel::WrongPixelsColumn, ImageListModel::WrongPixelsRole},
    {ImageFilterProxyModel::SortKey::Uncertainty, ImageListModel::UncertaintyColumn, ImageListModel::UncertaintyRole},
    {ImageFilterProxyModel::SortKey::Suspect, ImageListModel::SuspectColumn, ImageListModel::SuspectRole},
};

const SortColumn* sortColumnOf(ImageFilterProxyModel::SortKey key)
{
    for (const auto& entry : kSortColumns)
        if (entry.key == key)
            return &entry;
    return nullptr;  // Name
}

}  // namespace

int ImageFilterProxyModel::columnOf(SortKey key)
{
    const SortColumn* entry = sortColumnOf(key);
    return entry ? entry->column : -1;
}

int ImageFilterProxyModel::roleOf(SortKey key)
{
    const SortColumn* entry = sortColumnOf(key);
    return entry ? entry->role : -1;
}

void ImageFilterProxyModel::refilter()
{
    invalidateRowsFilter();
}

void ImageFilterProxyModel::setSequenceFilter(std::optional<QString> sequence)
{
    if (sequence == m_sequence)
        return;
    m_sequence = std::move(sequence);
    refilter();
}

int ImageFilterProxyModel::rowOfEntry(std::size_t entry) const
{
    if (!sourceModel() || entry >= std::size_t(sourceModel()->rowCount()))
        return -1;
    return mapFromSource(sourceModel()->index(int(entry), 0)).row();
}

std::size_t ImageFilterProxyModel::entryOfRow(int proxyRow) const
{
    return std::size_t(mapToSource(index(proxyRow, 0)).row());
}

bool ImageFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex cell = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_split && cell.data(ImageListModel::SplitRole).toInt() != int(*m_split))
        return false;
    if (m_status && cell.data(ImageListModel::StatusRole).toInt() != int(*m_status))
        return false;
    if (m_classId) {
        const QByteArray mask = cell.data(ImageListModel::ClassMaskRole).toByteArray();
        const int id = *m_classId;
        if (id < 0 || id / 8 >= mask.size() || !(uchar(mask[id / 8]) & (1 << (id % 8))))
            return false;
    }
    if (m_problemsOnly && cell.data(ImageListModel::ProblemRole).toString().isEmpty())
        return false;
    if (!m_search.isEmpty() && !cell.data(ImageListModel::PathRole).toString().contains(m_search, Qt::CaseInsensitive))
        return false;
    if (m_sequence && cell.data(ImageListModel::SequenceRole).toString() != *m_sequence)
        return false;
    return true;
}

bool ImageFilterProxyModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const QModelIndex l = left.siblingAtColumn(0);
    const QModelIndex r = right.siblingAtColumn(0);
    // A total order on rows: file names without case, then with case ("A.png" before "a.png"),
    // then the folders (an imported CamVid sorts its images by name, not test/ before train/),
    // then the source row, so no two rows compare equal and every comparison below is strict.
    auto compareNames = [](const QModelIndex& a, const QModelIndex& b) {
        const QString pathA = a.data(ImageListModel::PathRole).toString();
        const QString pathB = b.data(ImageListModel::PathRole).toString();
        const QStringView nameA = QStringView(pathA).mid(pathA.lastIndexOf(QLatin1Char('/')) + 1);
        const QStringView nameB = QStringView(pathB).mid(pathB.lastIndexOf(QLatin1Char('/')) + 1);
        if (const int byFold = nameA.compare(nameB, Qt::CaseInsensitive))
            return byFold;
        if (const int byCase = nameA.compare(nameB, Qt::CaseSensitive))
            return byCase;
        if (const int byFolder = QString::compare(pathA, pathB, Qt::CaseInsensitive))
            return byFolder;
        if (const int byCase = QString::compare(pathA, pathB, Qt::CaseSensitive))
            return byCase;
        return a.row() < b.row() ? -1 : a.row() > b.row() ? 1 : 0;
    };
    if (m_sortKey == SortKey::Frame) {
        const QString sequenceA = l.data(ImageListModel::SequenceRole).toString();
        const QString sequenceB = r.data(ImageListModel::SequenceRole).toString();
        if (sequenceA != sequenceB)
            return sequenceA < sequenceB;
        const qlonglong frameA = l.data(ImageListModel::FrameRole).toLongLong();
        const qlonglong frameB = r.data(ImageListModel::FrameRole).toLongLong();
        if (frameA != frameB)
            return frameA < frameB;
        return compareNames(l, r) < 0;
    }
    const int role = roleOf(m_sortKey);
    if (role < 0)
        return compareNames(l, r) < 0;
    const double a = l.data(role).toDouble();
    const double b = r.data(role).toDouble();
    // No value (-1: no prediction, stats not read yet) goes last in either order: a descending
    // sort places l first when lessThan(r, l), so the answer flips with the order.
    const bool hasA = a >= 0.0;
    const bool hasB = b >= 0.0;
    if (hasA != hasB)
        return sortOrder() == Qt::AscendingOrder ? hasA : hasB;
    if (a != b)
        return a < b;
    // Ties keep name order whichever way the sort goes, so equal values do not shuffle: a
    // descending sort asks lessThan(right, left), so compare the names the other way round.
    return sortOrder() == Qt::AscendingOrder ? compareNames(l, r) < 0 : compareNames(r, l) < 0;
}

}  // namespace segstudio::ui::browser
