#include "UndoRouter.h"

#include "icons/Icons.h"

#include <QAction>
#include <QUndoGroup>
#include <QUndoStack>

namespace segstudio::ui::shell {

UndoRouter::UndoRouter(QUndoGroup* group, QObject* parent)
    : QObject(parent), m_group(group), m_undo(new QAction(this)), m_redo(new QAction(this))
{
    m_undo->setShortcut(QKeySequence::Undo);
    m_undo->setIcon(icons::icon(QStringLiteral("edit-undo")));
    // Both common redo keys, each once: QKeySequence::Redo already holds Ctrl+Shift+Z on X11, and
    // a key registered twice on one action is "ambiguous" to Qt and does nothing.
    m_redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    m_redo->setIcon(icons::icon(QStringLiteral("edit-redo")));
    connect(m_undo, &QAction::triggered, this, [this] {
        if (QUndoStack* stack = stackFor(true)) {
            m_group->setActiveStack(stack);
            stack->undo();
        }
    });
    connect(m_redo, &QAction::triggered, this, [this] {
        if (QUndoStack* stack = stackFor(false)) {
            m_group->setActiveStack(stack);
            stack->redo();
        }
    });
    for (auto signal : {&QUndoGroup::canUndoChanged, &QUndoGroup::canRedoChanged})
        connect(group, signal, this, &UndoRouter::update);
    connect(group, &QUndoGroup::activeStackChanged, this, &UndoRouter::update);
    connect(group, &QUndoGroup::indexChanged, this, &UndoRouter::update);
    update();
}

QUndoStack* UndoRouter::stackFor(bool undo) const
{
    const auto can = [undo](const QUndoStack* stack) { return stack && (undo ? stack->canUndo() : stack->canRedo()); };
    // Only stacks of the group are asked: QUndoGroup::setActiveStack takes any stack, even one
    // removed from the group, which it would then keep after that stack is freed.
    const QList<QUndoStack*> stacks = m_group->stacks();
    if (stacks.contains(m_group->activeStack()) && can(m_group->activeStack()))
        return m_group->activeStack();
    for (QUndoStack* stack : stacks)
        if (can(stack))
            return stack;
    return nullptr;
}

void UndoRouter::update()
{
    const QUndoStack* undo = stackFor(true);
    const QUndoStack* redo = stackFor(false);
    m_undo->setEnabled(undo != nullptr);
    m_redo->setEnabled(redo != nullptr);
    m_undo->setText(undo ? tr("&Undo %1").arg(undo->undoText()) : tr("&Undo"));
    m_redo->setText(redo ? tr("&Redo %1").arg(redo->redoText()) : tr("&Redo"));
}

}  // namespace segstudio::ui::shell
