#include "PickerTool.h"

#include "LabelDocument.h"
#include "ToolSettings.h"

#include "data/labels/LabelClass.h"

#include <QMouseEvent>

#include <cmath>

namespace segstudio::ui::editor {

PickerTool::PickerTool(ToolSettings* settings, QObject* parent) : AbstractTool(tr("Class picker"), settings, parent) {}

void PickerTool::mousePressed(QMouseEvent* event, const QPointF& imagePos)
{
    LabelDocument* doc = document();
    if (event->button() != Qt::LeftButton || !doc)
        return;
    const cv::Point p(static_cast<int>(std::floor(imagePos.x())), static_cast<int>(std::floor(imagePos.y())));
    if (!cv::Rect({0, 0}, doc->size()).contains(p))
        return;
    const std::uint8_t value = doc->labels().at<std::uint8_t>(p);
    if (value != data::kUnlabelled)
        settings()->setCurrentClass(value);
}

QString PickerTool::toolTip() const
{
    return tr("Class picker: click a labelled pixel to make its class the current class");
}

}  // namespace segstudio::ui::editor
