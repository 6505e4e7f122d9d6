#pragma once

#include <QToolBar>

namespace segstudio::ui::editor {

class LabelCanvas;
class ToolSettings;

// The editor's second row: the brush size ([ and ]), its shape, the fill tolerance and the
// labels' opacity. A row of its own, because a tool bar outside a QMainWindow cannot show its
// "»" overflow; the editor adds the Propagate button after these.
class ToolOptionsBar : public QToolBar {
    Q_OBJECT

public:
    ToolOptionsBar(ToolSettings* settings, LabelCanvas* canvas, QWidget* parent = nullptr);
};

}  // namespace segstudio::ui::editor
