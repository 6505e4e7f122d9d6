#include "RecoveryQuestion.h"

#include <QDateTime>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>

namespace segstudio::ui::editor {

QString RecoveryQuestion::describe(const data::RecoveryStore::Entry& entry)
{
    const QDateTime when = QDateTime::fromMSecsSinceEpoch(entry.savedAtMs);
    return QStringLiteral("%1 — %2").arg(QString::fromStdString(entry.image), QLocale().toString(when, QLocale::ShortFormat));
}

bool RecoveryQuestion::ask(QWidget* parent, const QStringList& found)
{
    QMessageBox box(QMessageBox::Question, tr("Unsaved labels found"),
                    tr("SegStudio ended without saving the labels of %n image(s). Restore them?", nullptr, int(found.size())),
                    QMessageBox::NoButton, parent);
    constexpr int kShown = 8;
    QStringList shown = found.mid(0, kShown);
    if (found.size() > kShown)
        shown << tr("… and %1 more").arg(found.size() - kShown);
    box.setInformativeText(shown.join(u'\n') +
                           tr("\n\nRestored edits open as unsaved changes that Undo takes back; Discard deletes the copies."));
    QPushButton* restore = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
    box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box.setDefaultButton(restore);
    box.exec();
    return box.clickedButton() == restore;
}

}  // namespace segstudio::ui::editor
