#include "ToolActions.h"

#include "ActionIcons.h"
#include "BrushTool.h"
#include "FillTool.h"
#include "GrabCutTool.h"
#include "LabelCanvas.h"
#include "PickerTool.h"
#include "PolygonTool.h"
#include "SmartClickTool.h"
#include "SuperpixelTool.h"
#include "ThinStrokeTool.h"
#include "ToolSettings.h"

#include <QAction>
#include <QActionGroup>
#include <QKeySequence>
#include <QToolBar>
#include <QWidget>

namespace segstudio::ui::editor {

ToolActions::ToolActions(QWidget* owner, QToolBar* bar, ToolSettings* settings, LabelCanvas* canvas)
    : QObject(owner), m_owner(owner), m_bar(bar), m_canvas(canvas), m_group(new QActionGroup(owner))
{
    m_group->setExclusive(true);
    ToolSettings* s = settings;
    add(new BrushTool(false, s, owner), QStringLiteral("brush"), QKeySequence(Qt::Key_B));
    add(new BrushTool(true, s, owner), QStringLiteral("eraser"), QKeySequence(Qt::Key_E));
    add(new PolygonTool(s, owner), QStringLiteral("polygon"), QKeySequence(Qt::Key_P));
    add(new FillTool(FillTool::Mode::Region, s, owner), QStringLiteral("fill"), QKeySequence(Qt::Key_F));
    add(new FillTool(FillTool::Mode::Wand, s, owner), QStringLiteral("wand"), QKeySequence(Qt::Key_W));
    add(new SuperpixelTool(s, owner), QStringLiteral("superpixel"), QKeySequence(Qt::Key_S));
    add(new GrabCutTool(s, owner), QStringLiteral("grabcut"), QKeySequence(Qt::Key_G));
    add(new SmartClickTool(s, owner), QStringLiteral("smartclick"), QKeySequence(Qt::Key_C));
    add(new ThinStrokeTool(s, owner), QStringLiteral("thinstroke"), QKeySequence(Qt::Key_L));
    add(new PickerTool(s, owner), QStringLiteral("picker"), QKeySequence(Qt::Key_I));
    m_actions.first()->trigger();
}

void ToolActions::add(AbstractTool* tool, const QString& id, const QKeySequence& key)
{
    auto* action = new QAction(tool->name(), m_owner);
    action->setObjectName(QStringLiteral("tool.") + id);
    action->setCheckable(true);
    action->setShortcut(key);
    // Anywhere in the window, as in labelme and CVAT: a class table or a thumbnail with focus must
    // not swallow B or E. Text fields still get their letters: they claim printable keys first
    // (ShortcutOverride), so typing a filter never switches tools.
    action->setShortcutContext(Qt::WindowShortcut);
    action->setIcon(ActionIcons::forAction(action->objectName()));
    action->setToolTip(tool->toolTip());  // the name and key go before it (setIconToolTips)
    m_group->addAction(action);
    m_actions << action;
    m_owner->addAction(action);
    m_bar->addAction(action);
    connect(action, &QAction::triggered, m_canvas, [canvas = m_canvas, tool] { canvas->setTool(tool); });
    connect(tool, &AbstractTool::message, this, &ToolActions::message);
}

}  // namespace segstudio::ui::editor
