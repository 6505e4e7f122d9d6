#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QMainWindow;

namespace segstudio::ui::shell {

// Help > Keyboard Shortcuts: every shortcut of a window, read from its menus' actions, any other
// action with a shortcut, and its QShortcut objects (described by their whatsThis) when asked, so
// the list cannot drift from what the keys really do.
class ShortcutsDialog : public QDialog {
    Q_OBJECT

public:
    struct Row {
        QString group;    // the menu, or "Editor" for shortcuts outside the menus
        QString command;  // the action's text without accelerator marks
        QString keys;     // all its key sequences, in the platform's notation
    };

    static QList<Row> collect(const QMainWindow& window);
    explicit ShortcutsDialog(const QList<Row>& rows, QWidget* parent = nullptr);
};

}  // namespace segstudio::ui::shell
