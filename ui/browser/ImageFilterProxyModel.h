#pragma once

#include "data/project/ImageEntry.h"

#include <QSortFilterProxyModel>
#include <optional>

namespace segstudio::ui::browser {

// Filters and sorts an ImageListModel for the browser: by split, status, class present, problems,
// the video sequence (data::FrameSequence's key) and a text search over the image path; sorted by
// name, sequence and frame number, labelled % or a prediction score (ties by name, so the order is
// stable). Reads only the model's roles, so it is tested without any view.
class ImageFilterProxyModel : public QSortFilterProxyModel {
    Q_OBJECT

public:
    // Frame: by sequence, then frame number (frame_9 before frame_10), images that are no frame by name.
    enum class SortKey { Name, LabelledFraction, IoU, BoundaryF1, WrongPixels, Uncertainty, Suspect, Frame };
    // The model's column and role of a sort key (the prediction scores, labelled %); -1 for Name.
    static int columnOf(SortKey key);
    static int roleOf(SortKey key);

    explicit ImageFilterProxyModel(QObject* parent = nullptr);

    void setSplitFilter(std::optional<data::Split> split);
    void setStatusFilter(std::optional<data::LabelStatus> status);
    void setClassFilter(std::optional<int> classId);
    void setProblemsOnly(bool problemsOnly);
    void setSearchText(const QString& text);
    // Only the frames of this sequence (FrameSequence::Key::sequence); nullopt: every image.
    void setSequenceFilter(std::optional<QString> sequence);
    void setSortKey(SortKey key, Qt::SortOrder order = Qt::AscendingOrder);

    std::optional<data::Split> splitFilter() const { return m_split; }
    std::optional<data::LabelStatus> statusFilter() const { return m_status; }
    std::optional<int> classFilter() const { return m_classId; }
    bool problemsOnly() const { return m_problemsOnly; }
    QString searchText() const { return m_search; }
    std::optional<QString> sequenceFilter() const { return m_sequence; }
    SortKey sortKey() const { return m_sortKey; }

    // The proxy row showing project entry `entry`, or -1 when it is filtered out.
    int rowOfEntry(std::size_t entry) const;
    std::size_t entryOfRow(int proxyRow) const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    void refilter();

    std::optional<data::Split> m_split;
    std::optional<data::LabelStatus> m_status;
    std::optional<int> m_classId;
    bool m_problemsOnly = false;
    QString m_search;
    std::optional<QString> m_sequence;
    SortKey m_sortKey = SortKey::Name;
};

}  // namespace segstudio::ui::browser
