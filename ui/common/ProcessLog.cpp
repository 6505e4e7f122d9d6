#include "ProcessLog.h"

#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>

namespace segstudio::ui::common {

void appendProcessOutput(QPlainTextEdit* view, const QString& text)
{
    QScrollBar* bar = view->verticalScrollBar();
    const bool atEnd = bar->value() == bar->maximum();
    // A chunk may end between the \r and the \n of a CRLF: the \r waits for the next chunk, or
    // it would be taken for a rewrite and erase the line it ends.
    static const char* const kPendingCarriageReturn = "segstudioPendingCarriageReturn";
    QString normalised = view->property(kPendingCarriageReturn).toBool() ? QLatin1Char('\r') + text : text;
    const bool pending = normalised.endsWith(QLatin1Char('\r'));
    if (pending)
        normalised.chop(1);
    view->setProperty(kPendingCarriageReturn, pending);
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

}  // namespace segstudio::ui::common
