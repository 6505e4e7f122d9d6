#pragma once

#include "TrainingLauncher.h"

#include <QDialog>
#include <QSize>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QRadioButton;
class QLineEdit;
class QSpinBox;

namespace segstudio::ui::training {

// The settings of a new run. A preset fills them: "SegNet · CamVid", the published reference
// recipe, or the engine's defaults that learn well on a CPU (the one proposed); every field stays
// editable: model, devices (CPU, or one checkbox per GPU: several train data-parallel), how long
// (minutes of training time by default, the engine planning the epochs; or epochs),
// batch, pack size (what the images are resized to), the random training crop (a share of the
// pack's sides, 40 % by default, or a size of its own; never larger than the pack), optimiser and
// learning rate, schedule, augmentation, class weighting and validation frequency. "Default" fields are left to segstudio-train. Settings that cannot work
// (an empty or taken run name, no device) are explained in the dialog and Train stays disabled,
// so nothing typed is lost to a refusal after the dialog closed. No devices given: the engine
// chooses (no device boxes).
class TrainTargetBox;

class TrainDialog : public QDialog {
    Q_OBJECT

public:
    enum Preset { SegNetCamVid, EngineDefaults, Custom };
    // The crop the defaults train on, as a share of each side of the pack: CamVid's best
    // 30-minute CPU run trained on 144x192 crops of 360x480 (docs/BENCHMARKS.md, "Smaller crops").
    static constexpr int kDefaultCropPercent = 40;

    TrainDialog(const QString& runName, const TrainingLauncher::Settings& settings, const QString& runsFolder = {},
                const QList<TrainingLauncher::ModelChoice>& models = TrainingLauncher::builtInModels(),
                QWidget* parent = nullptr, const QList<TrainingLauncher::DeviceChoice>& devices = {},
                QSize defaultPackSize = {});

    TrainingLauncher::Settings settings() const;
    QString runName() const;
    QString problem() const;  // why Train is disabled; empty when it is not
    bool canTrain() const;
    void applyPreset(Preset preset);
    // packSize: what the defaults pack at (the project's images' size, data::defaultPackSize);
    // empty: TrainSettings' own. The published recipe always packs at 360x480.
    static TrainingLauncher::Settings presetSettings(Preset preset, QSize packSize = {});

private:
    void nameFields();
    void fillChoices(const QList<TrainingLauncher::ModelChoice>& models);
    void configureFields();
    QDialogButtonBox* layOut(const QList<TrainingLauncher::DeviceChoice>& devices);
    void connectButtons(QDialogButtonBox* buttonBox);
    void connectFields();
    void showSettings(const TrainingLauncher::Settings& settings);
    // The preset whose values the fields hold, else Custom: a preset's name always describes the
    // fields (Train again on another run's settings is not "Defaults that learn").
    void matchPreset();
    QString defaultModel() const;
    QWidget* buildDevices(const QList<TrainingLauncher::DeviceChoice>& devices);
    void validate();
    void showValidationPeriod();
    void updateCrop();  // the custom size's limits and enabling, the crop in pixels

    QString m_runsFolder;
    QSize m_defaultPackSize;
    QLabel* m_problem;
    QPushButton* m_train = nullptr;
    QComboBox* m_preset;
    QLineEdit* m_name;
    QComboBox* m_model;
    QList<QCheckBox*> m_devices;  // the CPU first, then each GPU
    QWidget* m_devicesRow = nullptr;  // this computer's devices: off when the run trains elsewhere
    QRadioButton* m_byTime;  // train for m_minutes (the default), or
    QSpinBox* m_minutes;
    QRadioButton* m_byEpochs;  // for m_epochs
    QSpinBox* m_epochs;
    QSpinBox* m_height;
    QSpinBox* m_width;
    QSpinBox* m_batch;
    QComboBox* m_crop;  // whole images, a share of the pack's sides, or custom
    QWidget* m_cropCustom;  // the custom size, shown for "custom size"
    QSpinBox* m_cropHeight;
    QSpinBox* m_cropWidth;
    QLabel* m_cropPixels;
    QComboBox* m_optimizer;
    QDoubleSpinBox* m_learningRate;
    QComboBox* m_schedule;
    QCheckBox* m_flip;
    QSpinBox* m_translate;
    QDoubleSpinBox* m_colorJitter;
    QComboBox* m_classWeighting;
    QSpinBox* m_valEpochs;
    TrainTargetBox* m_target;  // where the run trains
    bool m_recipe = false;
    int m_cropShare = kDefaultCropPercent;  // the last share chosen, where a custom size starts
};

}  // namespace segstudio::ui::training
