#include "HelpMenu.h"

#include "MainWindow.h"
#include "ShortcutsDialog.h"
#include "Workspaces.h"
#include "editor/LabelEditor.h"
#include "editor/LabelingTips.h"

#include <QApplication>
#include <QMessageBox>

namespace segstudio::ui::shell {

HelpMenu::HelpMenu(MainWindow* window, Workspaces* workspaces) : QMenu(tr("&Help"), window)
{
    QAction* shortcuts = addAction(tr("&Keyboard Shortcuts"), window, [window] {
        ShortcutsDialog dialog(ShortcutsDialog::collect(*window), window);
        dialog.exec();
    });
    shortcuts->setObjectName(QStringLiteral("help.shortcuts"));
    shortcuts->setShortcut(QKeySequence(Qt::Key_F1));
    QAction* labelingTips = addAction(tr("How &Labeling Works"), window, [window, workspaces] {
        if (!window->document()) {  // no canvas to lay it over: the same text in a box
            QMessageBox::information(window, tr("How Labeling Works"), window->editor()->labelingTips()->text());
            return;
        }
        workspaces->switchTo(Workspaces::Workspace::Label);
        window->editor()->labelingTips()->showAgain();
    });
    labelingTips->setObjectName(QStringLiteral("help.labelingTips"));
    addAction(tr("&About SegStudio"), window, [window] {
        QMessageBox::about(window, tr("About SegStudio"),
                           tr("<b>SegStudio %1</b><p>Semantic segmentation: label, browse, train, inspect.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

}  // namespace segstudio::ui::shell
