#include "FillTool.h"

#include "LabelDocument.h"
#include "ToolSettings.h"

#include "paint/RegionMask.h"

#include <QMouseEvent>

#include <cmath>

namespace segstudio::ui::editor {

FillTool::FillTool(Mode mode, ToolSettings* settings, QObject* parent)
    : AbstractTool(mode == Mode::Region ? tr("Fill") : tr("Magic wand"), settings, parent), m_mode(mode)
{
}

void FillTool::mousePressed(QMouseEvent* event, const QPointF& imagePos)
{
    LabelDocument* doc = document();
    if (event->button() != Qt::LeftButton || !doc)
        return;
    const cv::Point seed(static_cast<int>(std::floor(imagePos.x())), static_cast<int>(std::floor(imagePos.y())));
    const paint::RegionMask region = m_mode == Mode::Region || doc->image().empty()
                                         ? paint::RegionMask::floodLabel(doc->labels(), seed)
                                         : paint::RegionMask::magicWand(doc->image(), seed, settings()->tolerance());
    const auto changed = doc->paintRegion(region, static_cast<std::uint8_t>(settings()->currentClass()),
                                          settings()->guard(), m_mode == Mode::Region ? tr("Fill region") : tr("Magic wand"));
    emit message(tr("%n pixel(s) relabelled", nullptr, static_cast<int>(changed)));
}

QString FillTool::toolTip() const
{
    return m_mode == Mode::Region
               ? tr("Fill: click to give the whole connected region of that label the current class")
               : tr("Magic wand: click to give connected pixels of similar colour (Tolerance) the current class");
}

}  // namespace segstudio::ui::editor
