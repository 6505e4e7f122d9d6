#include "ViewActions.h"

#include "ActionIcons.h"
#include "LabelCanvas.h"
#include "ToolSettings.h"

#include <QAction>
#include <QKeySequence>
#include <QShortcut>
#include <QWidget>

namespace segstudio::ui::editor {

ViewActions::ViewActions(QWidget* owner, LabelCanvas* canvas, ToolSettings* settings) : QObject(owner), m_owner(owner)
{
    connect(add(tr("Zoom In"), QStringLiteral("zoomIn"), QKeySequence::ZoomIn), &QAction::triggered, canvas,
            &LabelCanvas::zoomIn);
    connect(add(tr("Zoom Out"), QStringLiteral("zoomOut"), QKeySequence::ZoomOut), &QAction::triggered, canvas,
            &LabelCanvas::zoomOut);
    connect(add(tr("Fit to Window"), QStringLiteral("fit"), QKeySequence(Qt::CTRL | Qt::Key_0)), &QAction::triggered,
            canvas, &LabelCanvas::fitToWindow);
    connect(add(tr("Actual Pixels (1:1)"), QStringLiteral("actual"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_0)),
            &QAction::triggered, canvas, &LabelCanvas::actualSize);
    QAction* labels = add(tr("Show Labels"), QStringLiteral("labels"), QKeySequence(Qt::Key_H));
    labels->setCheckable(true);
    labels->setChecked(true);
    connect(labels, &QAction::toggled, canvas, &LabelCanvas::setLabelsVisible);
    QAction* outline = add(tr("Outline Only"), QStringLiteral("outline"), QKeySequence(Qt::Key_O));
    outline->setCheckable(true);
    connect(outline, &QAction::toggled, canvas, &LabelCanvas::setOutlineMode);
    QAction* flip = add(tr("Prediction Instead of Labels"), QStringLiteral("predictionInstead"), QKeySequence(Qt::Key_T));
    flip->setCheckable(true);
    connect(flip, &QAction::toggled, canvas, &LabelCanvas::setShowPredictionInstead);
    auto* grow = new QShortcut(QKeySequence(Qt::Key_BracketRight), owner, nullptr, nullptr, Qt::WindowShortcut);
    grow->setWhatsThis(tr("Larger brush"));
    connect(grow, &QShortcut::activated, settings, &ToolSettings::growBrush);
    auto* shrink = new QShortcut(QKeySequence(Qt::Key_BracketLeft), owner, nullptr, nullptr, Qt::WindowShortcut);
    shrink->setWhatsThis(tr("Smaller brush"));
    connect(shrink, &QShortcut::activated, settings, &ToolSettings::shrinkBrush);
}

QAction* ViewActions::add(const QString& text, const QString& id, const QKeySequence& key)
{
    auto* action = new QAction(text, m_owner);
    action->setObjectName(QStringLiteral("view.") + id);
    action->setIcon(ActionIcons::forAction(action->objectName()));
    action->setShortcut(key);
    action->setShortcutContext(Qt::WindowShortcut);
    m_actions << action;
    m_owner->addAction(action);
    return action;
}

}  // namespace segstudio::ui::editor
