#include "ProcessLog.h"

#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>

namespace segstudio::ui {

void appendProcessOutput(QPlainTextEdit* view, const QString& text)
{
    QScrollBar* bar = view->verticalScrollBar();
    const bool atEnd = bar->value() == bar->maximum();
    QString normalised = text;
    normalised.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    QTextCursor cursor(view->document());
    cursor.movePosition(QTextCursor::End);
    const QStringList parts = normalised.split(QLatin1Char('\r'));
    for (qsizetype i = 0; i < parts.size(); ++i) {
        if (i > 0) {  // a carriage return: the next text replaces the current line
            cursor.movePosition(QTextCursor::StartOfBlock, QTextCursor::KeepAnchor);
            cursor.removeSelectedText();
        }
        cursor.insertText(parts[i]);
    }
    if (atEnd)
        bar->setValue(bar->maximum());
}

}  // namespace segstudio::ui
