#include "LabelEditor.h"

#include "ClassesPanel.h"

#include <QUndoGroup>

namespace segstudio::ui {

// Minimal placeholder so ui/app can compile and link against the facade; replaced by the real
// editor in the following commits.
class LabelEditor::Private {
public:
    QUndoGroup* undoGroup = nullptr;
    ClassesPanel* classesPanel = nullptr;
};

LabelEditor::LabelEditor(QWidget* parent) : QWidget(parent), m_d(std::make_unique<Private>())
{
    m_d->undoGroup = new QUndoGroup(this);
    m_d->classesPanel = new ClassesPanel(this);
}

LabelEditor::~LabelEditor() = default;

void LabelEditor::setProject(data::Project*) {}
bool LabelEditor::openImage(std::size_t)
{
    emit errorOccurred(tr("The label editor is not implemented yet."));
    return false;
}
std::optional<std::size_t> LabelEditor::currentIndex() const { return std::nullopt; }
bool LabelEditor::save() { return true; }
bool LabelEditor::isModified() const { return false; }
bool LabelEditor::maybeSave(QWidget*) { return true; }
QUndoGroup* LabelEditor::undoGroup() const { return m_d->undoGroup; }
QList<QAction*> LabelEditor::toolActions() const { return {}; }
QList<QAction*> LabelEditor::viewActions() const { return {}; }
ClassesPanel* LabelEditor::classesPanel() const { return m_d->classesPanel; }
LabelCanvas* LabelEditor::canvas() const { return nullptr; }
LabelDocument* LabelEditor::document() const { return nullptr; }
ToolSettings* LabelEditor::toolSettings() const { return nullptr; }
void LabelEditor::setAutosaveInterval(int) {}
bool LabelEditor::writeRecovery() { return true; }

}  // namespace segstudio::ui
