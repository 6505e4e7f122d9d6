#pragma once

#include <QAction>

namespace segstudio::ui::shell {

// A tool bar's stand-in for an action whose text changes with what it does ("Undo Magic wand"):
// fixed text, so the buttons after it never shift; the tooltip says the whole text and the
// shortcut; enabled and triggered as the real action.
class FixedTextAction : public QAction {
    Q_OBJECT

public:
    FixedTextAction(QAction* action, const QString& text, QObject* parent);
};

}  // namespace segstudio::ui::shell
