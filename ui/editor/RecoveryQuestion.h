#pragma once

#include "data/labels/RecoveryStore.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

class QWidget;

namespace segstudio::ui::editor {

// The question the editor asks when a project opens with unsaved labels of an earlier session
// (LabelEditor's default RecoveryPrompt): the images found and when each was written, Restore or
// Discard.
class RecoveryQuestion {
    Q_DECLARE_TR_FUNCTIONS(RecoveryQuestion)

public:
    static QString describe(const data::RecoveryStore::Entry& entry);  // "image — when"
    static bool ask(QWidget* parent, const QStringList& found);        // true: Restore
};

}  // namespace segstudio::ui::editor
