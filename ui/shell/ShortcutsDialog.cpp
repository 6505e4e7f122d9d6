#include "ShortcutsDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QShortcut>
#include <QTableWidget>
#include <QVBoxLayout>

namespace segstudio::ui::shell {

namespace {

QString keysOf(const QList<QKeySequence>& sequences)
{
    QStringList keys;
    for (const QKeySequence& sequence : sequences)
        keys << sequence.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

QString plainText(const QAction* action)
{
    QString text = action->text();
    text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    return text.remove(QStringLiteral("…")).trimmed();
}

void collectMenu(const QMenu* menu, const QString& group, QList<ShortcutsDialog::Row>& rows, QSet<const QAction*>& seen)
{
    for (const QAction* action : menu->actions()) {
        if (action->menu()) {
            collectMenu(action->menu(), group, rows, seen);
            continue;
        }
        if (action->shortcuts().isEmpty() || seen.contains(action))
            continue;
        seen.insert(action);
        rows.append({group, plainText(action), keysOf(action->shortcuts())});
    }
}

}  // namespace

QList<ShortcutsDialog::Row> ShortcutsDialog::collect(const QMainWindow& window)
{
    QList<Row> rows;
    QSet<const QAction*> seen;
    for (const QAction* menuAction : window.menuBar()->actions())
        if (const QMenu* menu = menuAction->menu())
            collectMenu(menu, plainText(menuAction), rows, seen);
    const QString editor = tr("Editor");
    for (const QAction* action : window.findChildren<QAction*>()) {
        if (!action->shortcuts().isEmpty() && !seen.contains(action) && !action->text().isEmpty()) {
            seen.insert(action);
            rows.append({editor, plainText(action), keysOf(action->shortcuts())});
        }
    }
    for (const QShortcut* shortcut : window.findChildren<QShortcut*>())
        if (!shortcut->whatsThis().isEmpty())
            rows.append({editor, shortcut->whatsThis(), shortcut->key().toString(QKeySequence::NativeText)});
    return rows;
}

ShortcutsDialog::ShortcutsDialog(const QList<Row>& rows, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    auto* filter = new QLineEdit(this);
    filter->setPlaceholderText(tr("Filter"));
    filter->setClearButtonEnabled(true);
    auto* table = new QTableWidget(int(rows.size()), 3, this);
    table->setHorizontalHeaderLabels({tr("Menu"), tr("Command"), tr("Keys")});
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->hide();
    for (int row = 0; row < rows.size(); ++row) {
        table->setItem(row, 0, new QTableWidgetItem(rows[row].group));
        table->setItem(row, 1, new QTableWidgetItem(rows[row].command));
        table->setItem(row, 2, new QTableWidgetItem(rows[row].keys));
    }
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    connect(filter, &QLineEdit::textChanged, table, [table](const QString& text) {
        for (int row = 0; row < table->rowCount(); ++row) {
            bool match = text.isEmpty();
            for (int column = 0; column < table->columnCount() && !match; ++column)
                match = table->item(row, column)->text().contains(text, Qt::CaseInsensitive);
            table->setRowHidden(row, !match);
        }
    });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(filter);
    layout->addWidget(table, 1);
    layout->addWidget(buttons);
    resize(560, 620);
}

}  // namespace segstudio::ui::shell
