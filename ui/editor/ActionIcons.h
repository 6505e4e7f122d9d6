#pragma once

#include <QIcon>
#include <QString>

namespace segstudio::ui::editor {

// The Breeze icon (resources/icons/breeze) of each of the editor's tool and view actions, by the
// action's object name ("tool.brush", "view.zoomIn"); a null icon for a name it does not know.
class ActionIcons {
public:
    static QIcon forAction(const QString& objectName);
};

}  // namespace segstudio::ui::editor
