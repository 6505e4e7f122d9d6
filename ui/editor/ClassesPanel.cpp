#include "ClassesPanel.h"

namespace segstudio::ui {

ClassesPanel::ClassesPanel(QWidget* parent) : QWidget(parent) {}

}  // namespace segstudio::ui
