#pragma once

#include "PredictionLayer.h"

#include <QToolBar>

class QAction;
class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;
class QToolButton;

namespace segstudio::ui::editor {

// The editor's prediction controls, a tool bar row: whether the model's prediction of the image
// is there (hover and Smart Click use it also while its layer is hidden), which layer of it is
// drawn (hidden, predicted classes, errors against the labels, confidence, uncertainty) and how
// opaque, the heat map's legend, and "Accept prediction" (into unlabelled pixels, or everywhere,
// from a confidence on). Accept is disabled until the image has a prediction. The layer, its
// opacity and the accept threshold are kept across starts.
class PredictionBar : public QToolBar {
    Q_OBJECT

public:
    explicit PredictionBar(QWidget* parent = nullptr);

    void setPredictionAvailable(bool available, const QString& why = {});
    bool isPredictionAvailable() const;
    PredictionLayer::View view() const;
    void setView(PredictionLayer::View view);
    double opacity() const;  // 0..1
    int minConfidence() const;  // 0..255
    QString stateText() const;  // "Model: ready", "Model: no prediction": what the row starts with
    bool isLegendShown() const;  // the heat map's legend: with the confidence and uncertainty layers only
    static void forgetChoices();  // the kept layer, opacity and threshold back to the defaults at the next start (tests)

signals:
    void viewChanged(PredictionLayer::View view);
    void opacityChanged(double opacity);
    void acceptRequested(bool unlabelledOnly, int minConfidence);

private:
    void updateLegend();
    void restoreChoices();  // the layer, opacity and accept threshold chosen last time (QSettings)

    QLabel* m_state;
    QComboBox* m_view;
    QSlider* m_opacity;
    QLabel* m_legend;
    QAction* m_legendAction = nullptr;  // a widget in a tool bar is shown and hidden through its action
    QSpinBox* m_threshold;
    QToolButton* m_accept;
};

}  // namespace segstudio::ui::editor
