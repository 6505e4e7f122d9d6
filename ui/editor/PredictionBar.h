#pragma once

#include "PredictionLayer.h"

#include <QToolBar>

class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;
class QToolButton;

namespace segstudio::ui {

// The editor's prediction controls, a tool bar row: which layer of the model's prediction is
// drawn (off, predicted classes, errors against the labels, confidence, uncertainty) and how
// opaque, the heat map's legend, and "Accept prediction" (into unlabelled pixels, or everywhere,
// from a confidence on). Disabled until the image has a prediction.
class PredictionBar : public QToolBar {
    Q_OBJECT

public:
    explicit PredictionBar(QWidget* parent = nullptr);

    void setPredictionAvailable(bool available, const QString& why = {});
    bool isPredictionAvailable() const;
    PredictionLayer::View view() const;
    void setView(PredictionLayer::View view);
    int minConfidence() const;  // 0..255

signals:
    void viewChanged(PredictionLayer::View view);
    void opacityChanged(double opacity);
    void acceptRequested(bool unlabelledOnly, int minConfidence);

private:
    void updateLegend();

    QComboBox* m_view;
    QSlider* m_opacity;
    QLabel* m_legend;
    QSpinBox* m_threshold;
    QToolButton* m_accept;
};

}  // namespace segstudio::ui
