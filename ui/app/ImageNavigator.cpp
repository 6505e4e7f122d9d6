#include "ImageNavigator.h"

#include "ImageListModel.h"
#include "data/ImageEntry.h"

namespace segstudio::ui {

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

}  // namespace segstudio::ui
