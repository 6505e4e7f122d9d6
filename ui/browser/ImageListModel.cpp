#include "ImageListModel.h"

#include "LabelStatsLoader.h"
#include "ThumbnailCache.h"
#include "data/project/FrameSequence.h"
#include "data/project/Project.h"
#include "document/ProjectDocument.h"

#include <QDir>
#include <QIcon>
#include <QPixmap>
#include <QStandardPaths>
#include <algorithm>

namespace segstudio::ui::browser {

namespace {

QByteArray maskBytes(const std::bitset<256>& classes)
{
    QByteArray bytes(32, '\0');
    for (int id = 0; id < 256; ++id)
        if (classes[id])
            bytes[id / 8] = char(bytes[id / 8] | (1 << (id % 8)));
    return bytes;
}

}  // namespace

ImageListModel::ImageListModel(QObject* parent)
    : QAbstractTableModel(parent), m_loader(new LabelStatsLoader(this)), m_thumbnails(new ThumbnailCache(this))
{
    const QString cacheRoot = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (!cacheRoot.isEmpty())
        m_thumbnails->setDiskCacheDir(cacheRoot + QStringLiteral("/thumbnails"));

    connect(m_loader, &LabelStatsLoader::statsReady, this, [this](const std::vector<LabelStatsLoader::RowStats>& batch) {
        int first = rowCount();
        int last = -1;
        for (const auto& item : batch) {
            if (item.row >= int(m_stats.size()))
                continue;
            applyStats(item.row, item.stats);
            first = std::min(first, item.row);
            last = std::max(last, item.row);
        }
        if (last >= first)
            emitRowChanged(first, last);
    });
    connect(m_loader, &LabelStatsLoader::finished, this, &ImageListModel::statsFinished);
    connect(m_thumbnails, &ThumbnailCache::thumbnailReady, this, [this](int row) {
        const QModelIndex cell = index(row, NameColumn);
        emit dataChanged(cell, cell, {Qt::DecorationRole, ThumbnailRole});
    });
    connect(m_thumbnails, &ThumbnailCache::thumbnailFailed, this, [this](int row, const QString&) {
        emitRowChanged(row, row);
    });
}

ImageListModel::~ImageListModel() = default;

QString ImageListModel::splitName(data::Split split)
{
    switch (split) {
    case data::Split::Train: return tr("Train");
    case data::Split::Val: return tr("Val");
    case data::Split::Test: return tr("Test");
    case data::Split::Unassigned: break;
    }
    return tr("Unassigned");
}

QString ImageListModel::statusName(data::LabelStatus status)
{
    switch (status) {
    case data::LabelStatus::InProgress: return tr("In progress");
    case data::LabelStatus::Labelled: return tr("Labelled");
    case data::LabelStatus::Reviewed: return tr("Reviewed");
    case data::LabelStatus::Unlabelled: break;
    }
    return tr("Unlabelled");
}

void ImageListModel::setDocument(document::ProjectDocument* document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    const bool hadIoU = hasIoU();
    beginResetModel();
    m_document = document;
    m_project = document ? &document->project() : nullptr;
    const std::size_t count = m_project ? m_project->size() : 0;
    m_stats.assign(count, ImageStats{});
    m_scores.assign(count, Scores{});
    m_frameKeys.clear();
    for (std::size_t index = 0; index < count; ++index)
        m_frameKeys.push_back(frameKeyOf(index));
    m_scoredRows = 0;
    m_pendingStats = int(count);
    endResetModel();
    connectDocument();
    startBackgroundWork();
    if (hadIoU)
        emit hasIoUChanged(false);
}

ImageListModel::FrameKey ImageListModel::frameKeyOf(std::size_t index) const
{
    const auto key = data::FrameSequence::keyOf(m_project->entries()[index].image);
    return {QString::fromStdString(key.sequence), qlonglong(key.frame)};
}

void ImageListModel::connectDocument()
{
    if (!m_document)
        return;
    using document::ProjectDocument;
    const auto rowChanged = [this](std::size_t index) { emitRowChanged(int(index), int(index)); };
    connect(m_document, &ProjectDocument::splitChanged, this, rowChanged);
    connect(m_document, &ProjectDocument::statusChanged, this, rowChanged);
    // Rows shift when images come and go, and the background work is keyed by row: the list is
    // reset around a command's whole batch and the work starts over.
    connect(m_document, &ProjectDocument::entriesAboutToChange, this, [this] { beginResetModel(); });
    connect(m_document, &ProjectDocument::imageRemoved, this, [this](std::size_t index) {
        if (m_scores[index].any())
            --m_scoredRows;
        m_stats.erase(m_stats.begin() + std::ptrdiff_t(index));
        m_scores.erase(m_scores.begin() + std::ptrdiff_t(index));
        m_frameKeys.erase(m_frameKeys.begin() + std::ptrdiff_t(index));
    });
    connect(m_document, &ProjectDocument::imageInserted, this, [this](std::size_t index) {
        m_stats.insert(m_stats.begin() + std::ptrdiff_t(index), ImageStats{});
        m_scores.insert(m_scores.begin() + std::ptrdiff_t(index), Scores{});
        m_frameKeys.insert(m_frameKeys.begin() + std::ptrdiff_t(index), frameKeyOf(index));
    });
    connect(m_document, &ProjectDocument::entriesChanged, this, [this] {
        const bool hadIoU = hasIoU();
        endResetModel();
        restartBackgroundWork();
        if (hadIoU != hasIoU())
            emit hasIoUChanged(hasIoU());
    });
    connect(m_document, &ProjectDocument::schemaChanged, this, &ImageListModel::onSchemaChanged);
    connect(m_document, &ProjectDocument::labelMapsChanged, this, [this](const std::vector<std::size_t>& changed) {
        for (const std::size_t index : changed)
            refreshRow(int(index));
    });
}

void ImageListModel::restartBackgroundWork()
{
    for (auto& stats : m_stats)
        stats.ready = false;
    m_pendingStats = int(m_stats.size());
    startBackgroundWork();
    if (rowCount() > 0)
        emitRowChanged(0, rowCount() - 1);
}

std::vector<ImageSource> ImageListModel::sources() const
{
    std::vector<ImageSource> sources;
    if (m_project) {
        sources.reserve(m_project->size());
        for (std::size_t i = 0; i < m_project->size(); ++i)
            sources.push_back({m_project->imagePath(i), m_project->labelMapPath(i)});
    }
    return sources;
}

std::vector<int> ImageListModel::classIds() const
{
    std::vector<int> ids;
    if (m_project)
        for (const auto& labelClass : m_project->schema().classes())
            ids.push_back(labelClass.id);
    return ids;
}

void ImageListModel::onSchemaChanged()
{
    // The label maps are read against the class ids: when ids come or go (a merge, a delete, an
    // add or their undo) every row is read again. A rename or recolour changes no map: only the
    // names and the thumbnails' colours follow, without re-reading the dataset.
    if (classIds() != m_classIds) {
        restartBackgroundWork();
        return;
    }
    m_thumbnails->setSources(sources(), m_project->schema());
    if (rowCount() > 0)
        emitRowChanged(0, rowCount() - 1);
}

void ImageListModel::startBackgroundWork()
{
    std::vector<ImageSource> sources = this->sources();
    const data::ClassSchema schema = m_project ? m_project->schema() : data::ClassSchema();
    m_classIds = classIds();
    m_thumbnails->setSources(sources, schema);
    if (m_project)
        m_loader->start(std::move(sources), schema);
    else
        m_loader->cancel();
}

void ImageListModel::setOverlayEnabled(bool enabled)
{
    if (enabled == m_overlay)
        return;
    m_overlay = enabled;
    if (rowCount() > 0)
        emit dataChanged(index(0, NameColumn), index(rowCount() - 1, NameColumn), {Qt::DecorationRole, ThumbnailRole});
}

int ImageListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_project ? 0 : int(m_stats.size());
}

int ImageListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ImageListModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_project || index.row() >= rowCount())
        return {};
    const int row = index.row();
    const data::ImageEntry& entry = m_project->entry(std::size_t(row));
    const ImageStats& stats = m_stats[std::size_t(row)];
    switch (role) {
    case Qt::DisplayRole: return displayData(row, index.column());
    case Qt::ToolTipRole: {
        // The full path: the list elides long names in the middle.
        const QString path = QString::fromStdString(m_project->imagePath(std::size_t(row)).string());
        const QString problem = data(index, ProblemRole).toString();
        return problem.isEmpty() ? path : path + QLatin1Char('\n') + problem;
    }
    case Qt::TextAlignmentRole:
        if (index.column() == LabelledColumn || index.column() >= IoUColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case EntryIndexRole: return qulonglong(row);
    case PathRole: return QString::fromStdString(entry.image);
    case SequenceRole: return m_frameKeys[std::size_t(row)].sequence;
    case FrameRole: return m_frameKeys[std::size_t(row)].frame;
    case SplitRole: return int(entry.split);
    case StatusRole: return int(entry.status);
    case LabelledFractionRole: return stats.ready ? stats.labelledFraction : -1.0;
    case ClassMaskRole: return maskBytes(stats.classes);
    case IoURole: return m_scores[std::size_t(row)].iou;
    case BoundaryF1Role: return m_scores[std::size_t(row)].boundaryF1;
    case WrongPixelsRole: return m_scores[std::size_t(row)].wrongPixels;
    case UncertaintyRole: return m_scores[std::size_t(row)].uncertainty;
    case SuspectRole: return m_scores[std::size_t(row)].suspect;
    case ProblemRole: {
        if (!stats.problem.isEmpty())
            return stats.problem;
        return m_thumbnails->problem(row);
    }
    case ThumbnailRole: return m_thumbnails->thumbnail(row, m_overlay);
    case Qt::DecorationRole: {
        // The detail list's small picture: the same thumbnail as the grid, as an icon so the view
        // scales it to its icon size. Null while it is loading (the request is queued).
        if (index.column() != NameColumn)
            return {};
        const QImage image = m_thumbnails->thumbnail(row, m_overlay);
        return image.isNull() ? QVariant() : QVariant(QIcon(QPixmap::fromImage(image)));
    }
    default: return {};
    }
}

QVariant ImageListModel::displayData(int row, int column) const
{
    const data::ImageEntry& entry = m_project->entry(std::size_t(row));
    const ImageStats& stats = m_stats[std::size_t(row)];
    switch (column) {
    case NameColumn: return QString::fromStdString(entry.image);
    case SplitColumn: return splitName(entry.split);
    case StatusColumn: return statusName(entry.status);
    case LabelledColumn:
        return stats.ready ? QStringLiteral("%1 %").arg(stats.labelledFraction * 100.0, 0, 'f', 1) : tr("…");
    case ClassesColumn: return stats.ready ? classNames(stats) : tr("…");
    case IoUColumn: return scoreText(m_scores[std::size_t(row)].iou, 'f', 3);
    case BoundaryF1Column: return scoreText(m_scores[std::size_t(row)].boundaryF1, 'f', 3);
    case WrongPixelsColumn: return scoreText(m_scores[std::size_t(row)].wrongPixels, 'f', 0);
    case UncertaintyColumn: return scoreText(m_scores[std::size_t(row)].uncertainty, 'f', 3);
    case SuspectColumn: {
        const double suspect = m_scores[std::size_t(row)].suspect;
        return suspect < 0 ? tr("—") : QStringLiteral("%1 %").arg(suspect * 100.0, 0, 'f', 1);
    }
    default: return {};
    }
}

QString ImageListModel::scoreText(double value, char format, int precision)
{
    return value < 0 ? tr("—") : QString::number(value, format, precision);
}

QString ImageListModel::classNames(const ImageStats& stats) const
{
    QStringList names;
    for (const auto& labelClass : m_project->schema().classes())
        if (labelClass.id >= 0 && labelClass.id < 256 && stats.classes[std::size_t(labelClass.id)])
            names << QString::fromStdString(labelClass.name);
    return names.join(QStringLiteral(", "));
}

QVariant ImageListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Image");
    case SplitColumn: return tr("Split");
    case StatusColumn: return tr("Status");
    case LabelledColumn: return tr("Labelled");
    case ClassesColumn: return tr("Classes present");
    case IoUColumn: return tr("IoU");
    case BoundaryF1Column: return tr("BF score");
    case WrongPixelsColumn: return tr("Pixels wrong");
    case UncertaintyColumn: return tr("Uncertainty");
    case SuspectColumn: return tr("Suspect");
    default: return {};
    }
}

QList<int> ImageListModel::problemRows() const
{
    QList<int> rows;
    for (int row = 0; row < rowCount(); ++row)
        if (!data(index(row, 0), ProblemRole).toString().isEmpty())
            rows << row;
    return rows;
}

void ImageListModel::setLabelledFraction(int row, double fraction)
{
    if (row < 0 || row >= rowCount())
        return;
    ImageStats& stats = m_stats[std::size_t(row)];
    if (!stats.ready) {
        stats.ready = true;
        --m_pendingStats;
    }
    stats.labelledFraction = std::clamp(fraction, 0.0, 1.0);
    m_thumbnails->invalidate(row);
    emitRowChanged(row, row);
}

void ImageListModel::refreshRow(int row)
{
    if (row < 0 || row >= rowCount())
        return;
    m_thumbnails->invalidate(row);
    m_loader->refresh(row);
    emitRowChanged(row, row);
}

void ImageListModel::setScores(int row, const Scores& scores)
{
    if (row < 0 || row >= rowCount())
        return;
    Scores& slot = m_scores[std::size_t(row)];
    const bool hadScores = hasIoU();
    if (slot.any() != scores.any())
        m_scoredRows += scores.any() ? 1 : -1;
    slot = scores;
    emitRowChanged(row, row);
    if (hadScores != hasIoU())
        emit hasIoUChanged(hasIoU());
}

void ImageListModel::setPredictionScores(const std::vector<data::PredictionScore>& scores)
{
    std::vector<Scores> next(static_cast<std::size_t>(rowCount()));
    for (const auto& score : scores) {
        if (score.index >= next.size())
            continue;
        Scores& values = next[score.index];
        values.iou = score.iou.value_or(-1.0);
        values.boundaryF1 = score.boundaryF1.value_or(-1.0);
        values.wrongPixels = double(score.wrongPixels);
        values.uncertainty = score.uncertainty.value_or(-1.0);
        values.suspect = score.suspectFraction.value_or(-1.0);
    }
    for (int row = 0; row < rowCount(); ++row) {
        const Scores& now = m_scores[std::size_t(row)];
        const Scores& wanted = next[std::size_t(row)];
        if (now.any() || wanted.any())
            setScores(row, wanted);
    }
}

void ImageListModel::setIoU(int row, std::optional<double> iou)
{
    Scores scores;
    scores.iou = iou ? std::clamp(*iou, 0.0, 1.0) : -1.0;
    setScores(row, scores);
}

void ImageListModel::applyStats(int row, const ImageStats& stats)
{
    ImageStats& slot = m_stats[std::size_t(row)];
    if (!slot.ready)
        --m_pendingStats;
    slot = stats;
}

void ImageListModel::emitRowChanged(int first, int last)
{
    emit dataChanged(index(first, 0), index(last, ColumnCount - 1));
}

}  // namespace segstudio::ui::browser
