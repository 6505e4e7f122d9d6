#pragma once

#include <QString>

class QPlainTextEdit;

namespace segstudio::ui::common {

// Appends a child process's output to a read-only log view as a terminal would show it: a bare
// carriage return (progress lines such as "packing 3/7\r") rewrites the current line instead of
// adding one, and the view follows the end unless the user scrolled up.
void appendProcessOutput(QPlainTextEdit* view, const QString& text);

}  // namespace segstudio::ui::common
