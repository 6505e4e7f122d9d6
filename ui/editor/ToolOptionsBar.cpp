#include "ToolOptionsBar.h"

#include "LabelCanvas.h"
#include "ToolSettings.h"

#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>

namespace segstudio::ui::editor {

ToolOptionsBar::ToolOptionsBar(ToolSettings* settings, LabelCanvas* canvas, QWidget* parent)
    : QToolBar(tr("Tool options"), parent)
{
    QToolBar* bar = this;
    ToolSettings* s = settings;
    auto* size = new QSpinBox(bar);
    size->setRange(1, ToolSettings::kMaxBrushSize);
    size->setValue(s->brushSize());
    size->setPrefix(tr("Size "));
    size->setToolTip(tr("Brush size ([ and ])"));
    connect(size, &QSpinBox::valueChanged, s, &ToolSettings::setBrushSize);
    auto* shape = new QComboBox(bar);
    shape->addItems({tr("Round"), tr("Square")});
    connect(shape, &QComboBox::currentIndexChanged, s, [s](int index) {
        s->setBrushShape(index == 0 ? paint::BrushShape::Round : paint::BrushShape::Square);
    });
    auto* tolerance = new QSpinBox(bar);
    tolerance->setRange(0, 255);
    tolerance->setValue(s->tolerance());
    tolerance->setPrefix(tr("Tolerance "));
    connect(tolerance, &QSpinBox::valueChanged, s, &ToolSettings::setTolerance);
    auto* opacity = new QSlider(Qt::Horizontal, bar);
    opacity->setRange(0, 100);
    opacity->setValue(static_cast<int>(canvas->labelOpacity() * 100));
    opacity->setMaximumWidth(120);
    opacity->setToolTip(tr("Label opacity (H hides the labels)"));
    connect(opacity, &QSlider::valueChanged, canvas, [canvas](int v) { canvas->setLabelOpacity(v / 100.0); });
    connect(s, &ToolSettings::changed, size, [s, size] { size->setValue(s->brushSize()); });
    bar->addWidget(size);
    bar->addWidget(shape);
    bar->addWidget(tolerance);
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Opacity "), bar));
    bar->addWidget(opacity);
}

}  // namespace segstudio::ui::editor
