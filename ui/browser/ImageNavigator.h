#pragma once

#include <QModelIndex>
#include <functional>
#include <optional>

class QAbstractItemModel;

namespace segstudio::ui::browser {

// Keyboard navigation through the browser's visible (filtered, sorted) rows: next, previous and
// next unlabelled. Pure functions over a model, so they are tested without a view.
class ImageNavigator {
public:
    using Predicate = std::function<bool(const QModelIndex&)>;

    // The first row after (step +1) or before (step -1) `row` that `accept` takes (any row when
    // empty); row -1 starts before the first row. nullopt at the end: navigation does not wrap.
    static std::optional<int> find(const QAbstractItemModel& model, int row, int step, const Predicate& accept = {});

    // Still needs labelling: status Unlabelled or InProgress (reads ImageListModel::StatusRole).
    static bool needsLabelling(const QModelIndex& index);

    // The labeling queue: the rows that need labelling and have an uncertainty (UncertaintyRole,
    // from a checkpoint's predictions), most uncertain first; the one after `row` in that order
    // (the first when row is not queued), wrapping round. nullopt when nothing is queued.
    static std::optional<int> nextInQueue(const QAbstractItemModel& model, int row);
};

}  // namespace segstudio::ui::browser
