#pragma once

#include "paint/PredictionBatch.h"

#include <QString>
#include <QUndoCommand>

#include <functional>
#include <memory>
#include <vector>

namespace segstudio::ui {

// "Accept Prediction" for a selection of images, on the project's undo stack. The batch has been
// applied when the command is pushed (so the first redo does nothing); undo and redo write the
// kept label maps back (PredictionBatch), leaving alone any map labelled since. Dropping the
// command from the stack removes its backups.
class AcceptPredictionsCommand : public QUndoCommand {
public:
    // beforeChange: the open image's edits reach disk first (the main window saves).
    // afterChange(changed, kept, error): the label maps that changed on disk, those left alone,
    //   and what went wrong ("" when nothing did).
    using BeforeChange = std::function<void()>;
    using AfterChange =
        std::function<void(const std::vector<std::size_t>& changed, const std::vector<std::size_t>& kept, const QString& error)>;

    AcceptPredictionsCommand(std::shared_ptr<paint::PredictionBatch> batch, const QString& text, BeforeChange beforeChange,
                             AfterChange afterChange);
    ~AcceptPredictionsCommand() override;

    void undo() override;
    void redo() override;

private:
    void change(bool forward);

    std::shared_ptr<paint::PredictionBatch> m_batch;
    BeforeChange m_beforeChange;
    AfterChange m_afterChange;
    bool m_applied = true;  // by the batch itself, before the push
};

}  // namespace segstudio::ui
