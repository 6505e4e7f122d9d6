#include "FixedTextAction.h"

namespace segstudio::ui::shell {

FixedTextAction::FixedTextAction(QAction* action, const QString& text, QObject* parent) : QAction(action->icon(), text, parent)
{
    setObjectName(action->objectName().isEmpty() ? text : action->objectName() + QStringLiteral(".toolbar"));
    const auto mirror = [this, action] {
        setEnabled(action->isEnabled());
        setToolTip(QStringLiteral("%1 (%2)").arg(action->text().remove(u'&'), action->shortcut().toString(QKeySequence::NativeText)));
    };
    connect(action, &QAction::changed, this, mirror);
    connect(this, &QAction::triggered, action, &QAction::trigger);
    mirror();
}

}  // namespace segstudio::ui::shell
