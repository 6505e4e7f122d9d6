#pragma once

#include "AbstractTool.h"

namespace segstudio::ui::editor {

// Eyedropper: makes the class under the cursor the current class (unlabelled pixels are ignored).
class PickerTool : public AbstractTool {
    Q_OBJECT

public:
    explicit PickerTool(ToolSettings* settings, QObject* parent = nullptr);
    QString toolTip() const override;
    void mousePressed(QMouseEvent* event, const QPointF& imagePos) override;
};

}  // namespace segstudio::ui::editor
