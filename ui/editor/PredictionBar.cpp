#include "PredictionBar.h"

#include "paint/ColourScale.h"

#include <algorithm>

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLinearGradient>
#include <QMenu>
#include <QPainter>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>

namespace segstudio::ui::editor {

namespace {

// The heat map's colours from 0 to 1, as the canvas draws them, with the ends named.
QPixmap legendPixmap(const QString& low, const QString& high, const QFont& font)
{
    constexpr int kWidth = 120, kHeight = 18;
    QPixmap pixmap(kWidth, kHeight);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    for (int x = 0; x < kWidth; ++x)
        painter.fillRect(x, 0, 1, kHeight, QColor::fromRgb(paint::ColourScale::turbo(double(x) / (kWidth - 1))));
    painter.setFont(font);
    painter.setPen(Qt::white);
    painter.drawText(QRect(3, 0, kWidth - 6, kHeight), Qt::AlignVCenter | Qt::AlignLeft, low);
    painter.drawText(QRect(3, 0, kWidth - 6, kHeight), Qt::AlignVCenter | Qt::AlignRight, high);
    return pixmap;
}

// The row's choices are a person's way of working, kept across images and starts.
constexpr const char* kViewKey = "editor/predictionLayer";
constexpr const char* kOpacityKey = "editor/predictionOpacity";
constexpr const char* kAcceptFromKey = "editor/acceptFromPercent";

}  // namespace

PredictionBar::PredictionBar(QWidget* parent)
    : QToolBar(tr("Prediction"), parent), m_state(new QLabel(this)), m_view(new QComboBox(this)),
      m_opacity(new QSlider(Qt::Horizontal, this)), m_legend(new QLabel(this)), m_threshold(new QSpinBox(this)),
      m_accept(new QToolButton(this))
{
    setObjectName(QStringLiteral("predictionBar"));
    // "Off" read as if the model were off, while hover and Smart Click used its prediction: the
    // layer is what is off.
    m_view->addItem(tr("Layer hidden"), int(PredictionLayer::View::Off));
    m_view->addItem(tr("Predicted classes"), int(PredictionLayer::View::Classes));
    m_view->addItem(tr("Errors (prediction ≠ label)"), int(PredictionLayer::View::Errors));
    m_view->addItem(tr("Confidence"), int(PredictionLayer::View::Confidence));
    m_view->addItem(tr("Uncertainty (entropy)"), int(PredictionLayer::View::Uncertainty));
    m_view->setToolTip(tr("What of the model's prediction is drawn over the image (T flips labels and prediction)"));
    m_opacity->setRange(0, 100);
    m_opacity->setValue(60);
    m_opacity->setMaximumWidth(100);
    m_opacity->setToolTip(tr("Opacity of the prediction layer"));
    m_threshold->setRange(0, 100);
    m_threshold->setValue(0);
    m_threshold->setSuffix(tr(" %"));
    m_threshold->setPrefix(tr("from "));
    m_threshold->setToolTip(tr("Accept only pixels the model is at least this sure of"));
    m_accept->setText(tr("Accept prediction"));
    m_accept->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_accept);
    menu->addAction(tr("Into unlabelled pixels"), this, [this] { emit acceptRequested(true, minConfidence()); });
    menu->addAction(tr("Everywhere (locked classes kept)"), this, [this] { emit acceptRequested(false, minConfidence()); });
    m_accept->setMenu(menu);
    m_accept->setToolTip(tr("Copy the predicted classes into the labels: one undoable edit"));

    m_state->setObjectName(QStringLiteral("predictionState"));
    m_legend->setObjectName(QStringLiteral("predictionLegend"));
    addWidget(m_state);
    addWidget(m_view);
    addWidget(m_opacity);
    m_legendAction = addWidget(m_legend);
    addSeparator();
    addWidget(m_accept);
    addWidget(m_threshold);

    restoreChoices();
    connect(m_view, &QComboBox::currentIndexChanged, this, [this] {
        updateLegend();
        QSettings().setValue(QLatin1String(kViewKey), int(view()));
        emit viewChanged(view());
    });
    connect(m_opacity, &QSlider::valueChanged, this, [this](int value) {
        QSettings().setValue(QLatin1String(kOpacityKey), value);
        emit opacityChanged(value / 100.0);
    });
    connect(m_threshold, &QSpinBox::valueChanged, this, [](int value) { QSettings().setValue(QLatin1String(kAcceptFromKey), value); });
    updateLegend();
    setPredictionAvailable(false);
}

void PredictionBar::setPredictionAvailable(bool available, const QString& why)
{
    m_accept->setEnabled(available);
    m_threshold->setEnabled(available);
    m_view->setToolTip(available || why.isEmpty() ? tr("What of the model's prediction is drawn over the image (T flips labels and prediction)")
                                                  : why);
    // What is true of the model here, whatever layer is drawn.
    m_state->setText(available ? tr(" Model: ready ") : tr(" Model: no prediction "));
    m_state->setToolTip(available ? tr("The selected run's prediction of this image is loaded: hovering names the predicted "
                                       "class and Smart Click finds regions from it, also while its layer is hidden")
                        : !why.isEmpty() ? why
                                         : tr("No prediction of this image (yet): select a run with a checkpoint in the "
                                              "Training panel; the image on screen is predicted when it opens"));
}

QString PredictionBar::stateText() const { return m_state->text().trimmed(); }

bool PredictionBar::isLegendShown() const { return m_legendAction->isVisible(); }

bool PredictionBar::isPredictionAvailable() const { return m_accept->isEnabled(); }

PredictionLayer::View PredictionBar::view() const { return PredictionLayer::View(m_view->currentData().toInt()); }

void PredictionBar::setView(PredictionLayer::View view) { m_view->setCurrentIndex(m_view->findData(int(view))); }

void PredictionBar::restoreChoices()
{
    const QSettings settings;
    const int viewIndex = m_view->findData(settings.value(QLatin1String(kViewKey), int(PredictionLayer::View::Off)).toInt());
    m_view->setCurrentIndex(std::max(viewIndex, 0));
    m_opacity->setValue(settings.value(QLatin1String(kOpacityKey), m_opacity->value()).toInt());
    m_threshold->setValue(settings.value(QLatin1String(kAcceptFromKey), m_threshold->value()).toInt());
}

void PredictionBar::forgetChoices()
{
    QSettings settings;
    for (const char* key : {kViewKey, kOpacityKey, kAcceptFromKey})
        settings.remove(QLatin1String(key));
}

double PredictionBar::opacity() const { return m_opacity->value() / 100.0; }

int PredictionBar::minConfidence() const { return (m_threshold->value() * 255 + 50) / 100; }

void PredictionBar::updateLegend()
{
    const PredictionLayer::View current = view();
    const bool heat = current == PredictionLayer::View::Confidence || current == PredictionLayer::View::Uncertainty;
    // Through the action: the tool bar's layout shows the widgets of visible actions again, so a
    // legend hidden with setVisible() came back after the layer was switched to Errors.
    m_legendAction->setVisible(heat);
    if (heat)
        m_legend->setPixmap(legendPixmap(current == PredictionLayer::View::Confidence ? tr("unsure") : tr("certain"),
                                         current == PredictionLayer::View::Confidence ? tr("sure") : tr("uniform"), font()));
}

}  // namespace segstudio::ui::editor
