#pragma once

#include <QWidget>

namespace segstudio::ui {

// The classes of the open project (stub until the editor lands).
class ClassesPanel : public QWidget {
    Q_OBJECT

public:
    explicit ClassesPanel(QWidget* parent = nullptr);
};

}  // namespace segstudio::ui
