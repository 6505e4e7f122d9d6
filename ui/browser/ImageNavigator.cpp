#include "ImageNavigator.h"

#include "ImageListModel.h"
#include "data/project/ImageEntry.h"

#include <algorithm>
#include <vector>

namespace segstudio::ui::browser {

std::optional<int> ImageNavigator::find(const QAbstractItemModel& model, int row, int step, const Predicate& accept)
{
    if (step == 0)
        return std::nullopt;
    const int count = model.rowCount();
    if (row < -1)
        row = -1;
    if (row > count)
        row = count;
    if (row == -1 && step < 0)
        row = count;
    for (int r = row + step; r >= 0 && r < count; r += step) {
        if (!accept || accept(model.index(r, 0)))
            return r;
    }
    return std::nullopt;
}

bool ImageNavigator::needsLabelling(const QModelIndex& index)
{
    const auto status = data::LabelStatus(index.data(ImageListModel::StatusRole).toInt());
    return status == data::LabelStatus::Unlabelled || status == data::LabelStatus::InProgress;
}

std::optional<int> ImageNavigator::nextInQueue(const QAbstractItemModel& model, int row)
{
    std::vector<std::pair<double, int>> queue;  // (uncertainty, row)
    for (int r = 0; r < model.rowCount(); ++r) {
        const QModelIndex index = model.index(r, 0);
        const double uncertainty = index.data(ImageListModel::UncertaintyRole).toDouble();
        if (uncertainty >= 0.0 && needsLabelling(index))
            queue.emplace_back(uncertainty, r);
    }
    if (queue.empty())
        return std::nullopt;
    // Most uncertain first; equal ones in row order, so the queue is the same every time.
    std::sort(queue.begin(), queue.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    const auto here = std::find_if(queue.begin(), queue.end(), [row](const auto& entry) { return entry.second == row; });
    if (here == queue.end())
        return queue.front().second;
    const auto next = std::next(here);
    return next == queue.end() ? queue.front().second : next->second;
}

}  // namespace segstudio::ui::browser
