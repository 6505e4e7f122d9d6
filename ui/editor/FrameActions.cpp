#include "FrameActions.h"

#include <QAction>
#include <QKeySequence>
#include <QMenu>
#include <QToolBar>
#include <QToolButton>
#include <QWidget>

namespace segstudio::ui::editor {

FrameActions::FrameActions(QWidget* owner, QToolBar* optionsBar) : QObject(owner)
{
    const auto make = [owner](const QString& text, const QString& id, const QKeySequence& key, const QString& tip) {
        auto* action = new QAction(text, owner);
        action->setObjectName(QStringLiteral("frame.") + id);
        action->setShortcut(key);
        action->setShortcutContext(Qt::WindowShortcut);
        action->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString()));
        owner->addAction(action);
        return action;
    };
    // With Alt: Page Up and Page Down alone are the browser's Previous / Next Image (in its sort
    // order), and a key that two of the window's actions hold does nothing.
    QAction* previous = make(tr("Previous Frame"), QStringLiteral("previous"), QKeySequence(Qt::ALT | Qt::Key_PageUp),
                             tr("The frame before this one in its sequence (frames are told by the number in their names)"));
    QAction* next = make(tr("Next Frame"), QStringLiteral("next"), QKeySequence(Qt::ALT | Qt::Key_PageDown),
                         tr("The frame after this one in its sequence (frames are told by the number in their names)"));
    QAction* fromPrevious =
        make(tr("Propagate from Previous Frame"), QStringLiteral("propagatePrevious"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P),
             tr("Carry the labels of the nearest labelled frame before this one onto it, where the optical flow can "
                "be trusted; one undoable edit that respects the locks"));
    QAction* fromNext =
        make(tr("Propagate from Next Frame"), QStringLiteral("propagateNext"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_P),
             tr("Carry the labels of the nearest labelled frame after this one onto it, where the optical flow can "
                "be trusted; one undoable edit that respects the locks"));
    connect(previous, &QAction::triggered, this, [this] { emit stepRequested(false); });
    connect(next, &QAction::triggered, this, [this] { emit stepRequested(true); });
    connect(fromPrevious, &QAction::triggered, this, [this] { emit propagateRequested(false); });
    connect(fromNext, &QAction::triggered, this, [this] { emit propagateRequested(true); });
    m_stepActions = {previous, next};
    m_propagateActions = {fromPrevious, fromNext};
    // On the options row, one button for both ways (the menus list them too).
    auto* button = new QToolButton(optionsBar);
    button->setObjectName(QStringLiteral("propagateButton"));
    button->setText(tr("Propagate"));
    button->setToolTip(tr("Carry labels from the nearest labelled frame of the sequence"));
    button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(button);
    menu->addActions(m_propagateActions);
    button->setMenu(menu);
    optionsBar->addSeparator();
    optionsBar->addWidget(button);
}

}  // namespace segstudio::ui::editor
