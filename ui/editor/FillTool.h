#pragma once

#include "AbstractTool.h"

namespace segstudio::ui::editor {

// Click-to-fill: either the connected region of the clicked label (Region) or a magic wand that
// takes connected pixels of similar image colour within ToolSettings::tolerance() (Wand).
class FillTool : public AbstractTool {
    Q_OBJECT

public:
    enum class Mode { Region, Wand };

    FillTool(Mode mode, ToolSettings* settings, QObject* parent = nullptr);
    QString toolTip() const override;
    void mousePressed(QMouseEvent* event, const QPointF& imagePos) override;

private:
    Mode m_mode;
};

}  // namespace segstudio::ui::editor
