#pragma once

#include "data/DatasetImporter.h"

#include <QString>
#include <functional>

class QWidget;

namespace segstudio::ui {

// Runs one long core/data operation (import, export, demo generation) on a worker thread while a
// modal progress dialog with Cancel keeps the window responsive.
// Requirements: called on the GUI thread; the task touches no widget and reports through the
//   progress callback it is given (returning false there means "cancel").
// Guarantees: returns only after the task has ended; exceptions become Failed with their message,
//   data::ImportCancelled becomes Cancelled.
class TaskRunner {
public:
    enum class Outcome { Done, Cancelled, Failed };
    struct Result {
        Outcome outcome = Outcome::Done;
        QString error;
    };
    using Task = std::function<void(const data::ImportProgress& progress)>;

    static Result run(QWidget* parent, const QString& label, const Task& task);
};

}  // namespace segstudio::ui
