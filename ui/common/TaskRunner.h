#pragma once

#include "data/formats/DatasetImporter.h"

#include <QString>
#include <functional>

class QWidget;

namespace segstudio::ui::common {

// Runs one long core/data operation (import, export, demo generation) on a worker thread while a
// modal progress dialog with Cancel keeps the window painting.
// Requirements: called on the GUI thread; the task touches no widget and reports through the
//   progress callback it is given (returning false there means "cancel").
// Guarantees: returns only after the task has ended; exceptions become Failed with their message,
//   data::ImportCancelled becomes Cancelled. While it runs, parent's window takes no input (only
//   the progress dialog does), so nothing the task reads can be closed or removed under it; a run
//   started while another is in progress does nothing and returns Refused.
class TaskRunner {
public:
    enum class Outcome { Done, Cancelled, Failed, Refused };
    struct Result {
        Outcome outcome = Outcome::Done;
        QString error;
    };
    using Task = std::function<void(const data::ImportProgress& progress)>;

    static Result run(QWidget* parent, const QString& label, const Task& task);
    static bool isBusy();  // a run is in progress (its nested event loop is what called you)
};

}  // namespace segstudio::ui::common
