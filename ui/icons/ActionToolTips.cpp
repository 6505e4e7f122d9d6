#include "ActionToolTips.h"

#include <QAction>
#include <QKeySequence>
#include <QStringList>

namespace segstudio::ui::icons {

namespace {

// Text as a button or tooltip shows it: no mnemonic marks, no ellipsis.
QString plainText(QString name)
{
    name.replace(QStringLiteral("&&"), QStringLiteral("\x01"));  // a literal ampersand stays
    name.remove(u'&');
    name.replace(u'\x01', u'&');
    name.remove(QStringLiteral("…"));
    name.remove(QStringLiteral("..."));
    return name.trimmed();
}

}  // namespace

QString nameAndKeys(const QAction& action)
{
    QStringList keys;
    for (const QKeySequence& key : action.shortcuts())
        if (!key.isEmpty())
            keys << key.toString(QKeySequence::NativeText);
    const QString name = plainText(action.text());
    return keys.isEmpty() ? name : QStringLiteral("%1 (%2)").arg(name, keys.join(QStringLiteral(", ")));
}

void setIconToolTips(const QList<QAction*>& actions)
{
    for (QAction* action : actions) {
        const QString head = nameAndKeys(*action);
        const QString name = plainText(action->text());
        // QAction::toolTip() falls back to the text when none was set: that says nothing more.
        QString more = action->toolTip().trimmed();
        if (more.startsWith(head))
            continue;  // done before
        if (plainText(more).compare(name, Qt::CaseInsensitive) == 0)
            more.clear();
        if (more.startsWith(name + u':', Qt::CaseInsensitive))
            more = more.mid(name.size() + 1).trimmed();
        if (!more.isEmpty())
            more[0] = more.at(0).toUpper();
        action->setToolTip(more.isEmpty() ? head : head + u'\n' + more);
    }
}

}  // namespace segstudio::ui::icons
