#pragma once

#include <QList>
#include <QString>

class QAction;

namespace segstudio::ui::icons {

// What an icon-only tool button's tooltip starts with, as Krita, GIMP and CVAT write it: the
// action's name and its keys in the platform's notation, "Zoom In (Ctrl++)", "Redo (Ctrl+Shift+Z,
// Ctrl+Y)"; the name alone ("Open Project") for an action without a key. The name is the action's
// text without its mnemonic and ellipsis.
QString nameAndKeys(const QAction& action);

// Gives each action the tooltip "Name (Key)" (nameAndKeys), followed on the next line by what the
// action's own tooltip says when it says more than the name ("Brush (B)" then "Drag to paint the
// current class; ..."; a leading "Brush: " is dropped). Call it once the actions' text, shortcuts
// and tooltips are set; calling it again changes nothing.
void setIconToolTips(const QList<QAction*>& actions);

}  // namespace segstudio::ui::icons
