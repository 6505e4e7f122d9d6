#include "TrainDialog.h"

#include "TrainTargetBox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QVBoxLayout>

namespace segstudio::ui::training {

namespace {

// A choice whose empty value leaves the setting to segstudio-train.
QComboBox* choices(QWidget* parent, const QString& defaultText, const QStringList& values)
{
    auto* box = new QComboBox(parent);
    box->addItem(defaultText, QString());
    for (const QString& value : values)
        box->addItem(value, value);
    return box;
}

void select(QComboBox* box, const QString& value)
{
    box->setCurrentIndex(std::max(0, box->findData(value)));
}

}  // namespace

TrainDialog::TrainDialog(const QString& runName, const TrainingLauncher::Settings& settings, const QString& runsFolder,
                         const QList<TrainingLauncher::ModelChoice>& models, QWidget* parent,
                         const QList<TrainingLauncher::DeviceChoice>& devices, QSize defaultPackSize)
    : QDialog(parent), m_runsFolder(runsFolder), m_defaultPackSize(defaultPackSize), m_problem(new QLabel(this)), m_preset(new QComboBox(this)),
      m_name(new QLineEdit(runName, this)), m_model(new QComboBox(this)),
      m_byTime(new QRadioButton(tr("&minutes"), this)), m_minutes(new QSpinBox(this)),
      m_byEpochs(new QRadioButton(tr("e&pochs"), this)), m_epochs(new QSpinBox(this)),
      m_height(new QSpinBox(this)), m_width(new QSpinBox(this)), m_batch(new QSpinBox(this)),
      m_crop(new QComboBox(this)), m_cropCustom(new QWidget(this)), m_cropHeight(new QSpinBox(m_cropCustom)),
      m_cropWidth(new QSpinBox(m_cropCustom)), m_cropPixels(new QLabel(this)),
      m_optimizer(choices(this, tr("default (AdamW)"), {QStringLiteral("sgd"), QStringLiteral("adam"), QStringLiteral("adamw")})),
      m_learningRate(new QDoubleSpinBox(this)),
      m_schedule(choices(this, tr("default (cosine, warm-up)"), {QStringLiteral("none"), QStringLiteral("step"), QStringLiteral("cosine")})),
      m_flip(new QCheckBox(tr("random left/right &reflection"), this)), m_translate(new QSpinBox(this)),
      m_colorJitter(new QDoubleSpinBox(this)),
      m_classWeighting(choices(this, tr("default (√ median frequency)"),
                               {QStringLiteral("sqrt-median"), QStringLiteral("median"), QStringLiteral("inverse"), QStringLiteral("none")})),
      m_valEpochs(new QSpinBox(this)), m_target(new TrainTargetBox(this))
{
    setWindowTitle(tr("Train"));
    nameFields();
    fillChoices(models);
    configureFields();
    connectButtons(layOut(devices));
    showSettings(settings);
    connectFields();
    matchPreset();
    validate();
}

// objectNames: what tests (and styles) find the fields by.
void TrainDialog::nameFields()
{
    m_preset->setObjectName(QStringLiteral("preset"));
    m_model->setObjectName(QStringLiteral("model"));
    m_name->setObjectName(QStringLiteral("runName"));
    m_epochs->setObjectName(QStringLiteral("epochs"));
    m_minutes->setObjectName(QStringLiteral("minutes"));
    m_byTime->setObjectName(QStringLiteral("byTime"));
    m_byEpochs->setObjectName(QStringLiteral("byEpochs"));
    m_height->setObjectName(QStringLiteral("height"));
    m_width->setObjectName(QStringLiteral("width"));
    m_crop->setObjectName(QStringLiteral("crop"));
    m_colorJitter->setObjectName(QStringLiteral("colorJitter"));
    m_cropHeight->setObjectName(QStringLiteral("cropHeight"));
    m_cropWidth->setObjectName(QStringLiteral("cropWidth"));
    m_cropPixels->setObjectName(QStringLiteral("cropPixels"));
}

// The presets and the engine's models.
void TrainDialog::fillChoices(const QList<TrainingLauncher::ModelChoice>& models)
{
    m_preset->addItem(tr("SegNet · CamVid (published recipe)"), int(SegNetCamVid));
    m_preset->addItem(tr("Defaults that learn (recommended)"), int(EngineDefaults));
    m_preset->addItem(tr("Custom (the settings below)"), int(Custom));
    m_preset->setToolTip(tr("SegNet · CamVid: SGD momentum 0.9, lr 1e-3, L2 5e-4, 4 images per device, 100 epochs, "
                            "x-reflection and ±10 px translation, median-frequency weights, 360×480.\n"
                            "Defaults that learn: the engine's defaults (DeepLabV3+, AdamW, cosine, its batch), the "
                            "images packed at their own size (at most 480 px long) and random crops of 40 % of each "
                            "side, chosen by measurement on CamVid and the demo."));
    // A folder name under runs/: no separators.
    m_name->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[A-Za-z0-9_.-]+")), m_name));
    // The engine's models, as segstudio-train lists them (TrainingLauncher::models()).
    for (const auto& model : models) {
        m_model->addItem(QStringLiteral("%1 — %2").arg(model.name, model.description), model.name);
        m_model->setItemData(m_model->count() - 1, model.description, Qt::ToolTipRole);
        if (model.isDefault)
            m_model->setItemData(m_model->count() - 1, true, Qt::UserRole + 1);
    }
    // Descriptions are long: the dialog keeps a sensible width, the list and tooltips show them whole.
    m_model->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_model->setMinimumContentsLength(40);
}

// Ranges, units and tooltips.
void TrainDialog::configureFields()
{
    m_epochs->setRange(1, 100000);
    m_minutes->setRange(1, 7 * 24 * 60);
    m_minutes->setValue(presetSettings(EngineDefaults, m_defaultPackSize).minutes);
    m_minutes->setSingleStep(5);
    m_minutes->setToolTip(tr("Training time, validation included: the engine measures its pace and plans the epochs "
                             "and the learning-rate schedule so that the run ends then (pausing does not count)"));
    for (QSpinBox* box : {m_height, m_width}) {
        box->setRange(16, 4096);
        box->setSingleStep(16);
        box->setSuffix(tr(" px"));
    }
    const QString packTip = tr("The project's images and labels are resized to this size when they are packed for the "
                               "run: the model trains (on random crops of it, below) and validates at this size");
    m_height->setToolTip(packTip);
    m_width->setToolTip(packTip);
    m_crop->addItem(tr("whole images"), 0);
    for (const int percent : {40, 50, 60})
        m_crop->addItem(tr("%1 % of each side").arg(percent), percent);
    m_crop->addItem(tr("custom size"), -1);
    m_crop->setToolTip(tr("Each training step sees a random window of this size cut from the resized image; "
                          "validation always sees whole images. Smaller windows train more steps in the same time: "
                          "on CamVid packed at 360×480, 40 % (144×192) learned best in 30 minutes on two CPU cores "
                          "(val mIoU 0.69 against 0.63 for whole images), and the engine crops so by default"));
    for (QSpinBox* box : {m_cropHeight, m_cropWidth}) {
        box->setMinimum(16);
        box->setSingleStep(16);
        box->setSuffix(tr(" px"));
        box->setToolTip(tr("At most the resized image's size"));
    }
    m_batch->setRange(0, 256);
    m_batch->setSpecialValueText(tr("default"));
    m_batch->setToolTip(tr("Images per device and step; \"default\" leaves it to segstudio-train, whose default "
                           "was measured best on CamVid (docs/ENGINE.md)"));
    m_learningRate->setDecimals(6);
    m_learningRate->setRange(0.0, 10.0);
    m_learningRate->setSingleStep(1e-4);
    m_learningRate->setSpecialValueText(tr("default"));
    m_translate->setRange(0, 256);
    m_translate->setSuffix(tr(" px"));
    m_translate->setPrefix(tr("± "));
    m_colorJitter->setDecimals(2);
    m_colorJitter->setRange(0.0, 1.0);
    m_colorJitter->setSingleStep(0.1);
    m_colorJitter->setPrefix(tr("± "));
    m_colorJitter->setSpecialValueText(tr("off"));
    m_colorJitter->setToolTip(tr("Each training image's brightness, contrast and saturation scaled by a random factor "
                                 "within this share of 1. For images unlike the training data (dusk, night, another "
                                 "camera): 0.4 made a model trained by day right on twice the pixels at dusk "
                                 "(docs/LABELING.md)"));
    m_valEpochs->setRange(1, 1000);
    m_valEpochs->setSuffix(tr(" epoch(s)"));
    m_valEpochs->setToolTip(tr("Validation on the validation split after every N-th epoch and the last. With a time "
                               "budget the engine validates less often when a pass would take too large a share of "
                               "the time, so the budget trains rather than validates"));
}

// The form, the problem line and the buttons (returned for connectButtons).
QDialogButtonBox* TrainDialog::layOut(const QList<TrainingLauncher::DeviceChoice>& devices)
{
    auto* form = new QFormLayout;
    form->addRow(tr("&Preset:"), m_preset);
    form->addRow(tr("Run &name:"), m_name);
    form->addRow(tr("&Model:"), m_model);
    m_devicesRow = buildDevices(devices);
    form->addRow(tr("Devices:"), m_devicesRow);
    form->addRow(tr("Train &on:"), m_target);
    auto* length = new QHBoxLayout;
    length->addWidget(m_minutes);
    length->addWidget(m_byTime);
    length->addSpacing(16);
    length->addWidget(m_epochs);
    length->addWidget(m_byEpochs);
    length->addStretch(1);
    auto* lengthLabel = new QLabel(tr("Train &for:"), this);
    lengthLabel->setBuddy(m_minutes);
    form->addRow(lengthLabel, length);
    form->addRow(tr("&Batch size:"), m_batch);
    auto* size = new QHBoxLayout;
    size->addWidget(m_height);
    size->addWidget(new QLabel(QStringLiteral("×"), this));
    size->addWidget(m_width);
    // A row of a layout gets no buddy from QFormLayout, so its "&" would show: give it one.
    auto* sizeLabel = new QLabel(tr("Resize images &to (h × w):"), this);
    sizeLabel->setBuddy(m_height);
    sizeLabel->setToolTip(m_height->toolTip());
    form->addRow(sizeLabel, size);
    auto* customCrop = new QHBoxLayout(m_cropCustom);
    customCrop->setContentsMargins(0, 0, 0, 0);
    customCrop->addWidget(m_cropHeight);
    customCrop->addWidget(new QLabel(QStringLiteral("×"), m_cropCustom));
    customCrop->addWidget(m_cropWidth);
    auto* crop = new QHBoxLayout;
    crop->addWidget(m_crop);
    crop->addWidget(m_cropCustom);
    crop->addWidget(m_cropPixels);
    crop->addStretch(1);
    auto* cropLabel = new QLabel(tr("Random &crop:"), this);
    cropLabel->setBuddy(m_crop);
    cropLabel->setToolTip(m_crop->toolTip());
    form->addRow(cropLabel, crop);
    form->addRow(tr("&Optimiser:"), m_optimizer);
    form->addRow(tr("&Learning rate:"), m_learningRate);
    form->addRow(tr("&Schedule:"), m_schedule);
    auto* augment = new QHBoxLayout;
    augment->addWidget(m_flip);
    augment->addWidget(new QLabel(tr("translation"), this));
    augment->addWidget(m_translate);
    auto* jitterLabel = new QLabel(tr("colo&ur jitter"), this);
    jitterLabel->setBuddy(m_colorJitter);
    jitterLabel->setToolTip(m_colorJitter->toolTip());
    augment->addWidget(jitterLabel);
    augment->addWidget(m_colorJitter);
    form->addRow(tr("Augmentation:"), augment);
    form->addRow(tr("Class &weights:"), m_classWeighting);
    form->addRow(tr("&Validate:"), m_valEpochs);
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setStyleSheet(QStringLiteral("color: #b00020"));
    m_problem->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_train = buttons->button(QDialogButtonBox::Ok);
    m_train->setText(tr("Train"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    return buttons;
}

void TrainDialog::connectButtons(QDialogButtonBox* buttonBox)
{
    connect(buttonBox, &QDialogButtonBox::accepted, this, [this] {
        validate();  // the folder may have changed while the dialog was open
        if (canTrain())
            accept();
    });
    connect(buttonBox, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_name, &QLineEdit::textChanged, this, &TrainDialog::validate);
    connect(m_preset, qOverload<int>(&QComboBox::activated), this, [this] {
        if (const auto preset = Preset(m_preset->currentData().toInt()); preset != Custom)
            applyPreset(preset);
    });
}

// After showSettings: filling the fields must not re-match the preset field by field.
void TrainDialog::connectFields()
{
    connect(m_target, &TrainTargetBox::changed, this, &TrainDialog::validate);
    connect(m_byTime, &QRadioButton::toggled, this, [this](bool byTime) {
        m_minutes->setEnabled(byTime);
        m_epochs->setEnabled(!byTime);
        showValidationPeriod();
        matchPreset();
    });
    // The crop follows the pack's size (its share, the custom size's limits) before the preset is matched.
    for (QSpinBox* box : {m_height, m_width})
        connect(box, &QSpinBox::valueChanged, this, &TrainDialog::updateCrop);
    connect(m_crop, &QComboBox::currentIndexChanged, this, [this] {
        // A custom size starts from the share chosen before (the defaults' after whole images).
        if (m_crop->currentData().toInt() < 0 && m_cropCustom->isHidden()) {
            TrainingLauncher::Settings share;
            share.height = m_height->value();
            share.width = m_width->value();
            share.cropPercent = m_cropShare > 0 ? m_cropShare : kDefaultCropPercent;
            const QSize pixels = share.crop();
            m_cropHeight->setValue(pixels.isEmpty() ? share.height : pixels.height());
            m_cropWidth->setValue(pixels.isEmpty() ? share.width : pixels.width());
        }
        updateCrop();
    });
    for (QSpinBox* box : {m_minutes, m_epochs, m_height, m_width, m_batch, m_cropHeight, m_cropWidth, m_translate, m_valEpochs})
        connect(box, &QSpinBox::valueChanged, this, &TrainDialog::matchPreset);
    for (QSpinBox* box : {m_cropHeight, m_cropWidth})
        connect(box, &QSpinBox::valueChanged, this, &TrainDialog::updateCrop);
    for (QComboBox* box : {m_model, m_crop, m_optimizer, m_schedule, m_classWeighting})
        connect(box, &QComboBox::currentIndexChanged, this, &TrainDialog::matchPreset);
    for (QDoubleSpinBox* box : {m_learningRate, m_colorJitter})
        connect(box, &QDoubleSpinBox::valueChanged, this, &TrainDialog::matchPreset);
    connect(m_flip, &QCheckBox::toggled, this, &TrainDialog::matchPreset);
}

QWidget* TrainDialog::buildDevices(const QList<TrainingLauncher::DeviceChoice>& devices)
{
    auto* box = new QWidget(this);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    for (const auto& device : devices) {
        QString text = device.name == QLatin1String("cpu") ? tr("CPU") : device.name;
        if (device.memoryBytes > 0 && device.name != QLatin1String("cpu"))
            text += QStringLiteral(" (%1, %2 GiB)").arg(device.description).arg(double(device.memoryBytes) / (1ull << 30), 0, 'f', 0);
        auto* check = new QCheckBox(text, box);
        check->setProperty("device", device.name);
        check->setToolTip(device.name == QLatin1String("cpu") ? tr("Train on the CPU (%1)").arg(device.description)
                                                              : tr("Several GPUs train data-parallel, one process each (NCCL)"));
        row->addWidget(check);
        m_devices.append(check);
        // The CPU or GPUs, not both.
        connect(check, &QCheckBox::toggled, this, [this, check](bool on) {
            const bool cpu = check->property("device").toString() == QLatin1String("cpu");
            if (on)
                for (QCheckBox* other : std::as_const(m_devices))
                    if (other != check && (cpu || other->property("device").toString() == QLatin1String("cpu")))
                        other->setChecked(false);
            validate();
        });
    }
    row->addStretch(1);
    return box;
}

TrainingLauncher::Settings TrainDialog::presetSettings(Preset preset, QSize packSize)
{
    TrainingLauncher::Settings settings;
    settings.minutes = 30;  // the defaults that learn: 0.69-0.70 val mIoU on CamVid in 30 CPU-minutes
    settings.cropPercent = kDefaultCropPercent;
    if (!packSize.isEmpty()) {
        settings.height = packSize.height();
        settings.width = packSize.width();
    }
    if (preset == SegNetCamVid) {
        // SegNet's published CamVid recipe (docs/ENGINE.md): --recipe sets the rest exactly.
        settings.recipe = true;
        settings.model = QStringLiteral("segnet");
        settings.minutes = 0;  // the published recipe is 100 epochs
        settings.epochs = 100;
        settings.batch = 4;
        settings.height = 360;
        settings.width = 480;
        settings.optimizer = QStringLiteral("sgd");
        settings.learningRate = 1e-3;
        settings.schedule = QStringLiteral("none");
        settings.classWeighting = QStringLiteral("median");
        settings.cropPercent = 0;  // the published recipe trains on whole images
    }
    return settings;
}

void TrainDialog::applyPreset(Preset preset)
{
    if (preset == Custom)
        return;  // the fields are the settings
    TrainingLauncher::Settings settings = presetSettings(preset, m_defaultPackSize);
    settings.devices = this->settings().devices;  // the machine does not change with the recipe
    settings.where = this->settings().where;
    showSettings(settings);
    matchPreset();
}

QString TrainDialog::defaultModel() const
{
    for (int i = 0; i < m_model->count(); ++i)
        if (m_model->itemData(i, Qt::UserRole + 1).toBool())
            return m_model->itemData(i).toString();
    return m_model->count() > 0 ? m_model->itemData(0).toString() : QString();
}

void TrainDialog::matchPreset()
{
    const auto same = [](const TrainingLauncher::Settings& a, const TrainingLauncher::Settings& b) {
        const bool sameLength = a.minutes == b.minutes && (a.minutes > 0 || a.epochs == b.epochs);
        return a.model == b.model && sameLength && a.height == b.height && a.width == b.width &&
               a.crop() == b.crop() && a.batch == b.batch && a.optimizer == b.optimizer && qFuzzyCompare(1.0 + a.learningRate, 1.0 + b.learningRate) &&
               a.schedule == b.schedule && a.classWeighting == b.classWeighting && a.flip == b.flip &&
               a.translate == b.translate && qFuzzyCompare(1.0 + a.colorJitter, 1.0 + b.colorJitter) &&
               a.valEpochs == b.valEpochs;
    };
    const TrainingLauncher::Settings shown = settings();
    Preset matched = Custom;
    for (const Preset preset : {EngineDefaults, SegNetCamVid}) {
        TrainingLauncher::Settings candidate = presetSettings(preset, m_defaultPackSize);
        if (candidate.model.isEmpty())
            candidate.model = defaultModel();
        if (same(shown, candidate)) {
            matched = preset;
            break;
        }
    }
    // The recipe's hidden values (momentum, weight decay) come with its preset, go with the
    // defaults', and stay under custom fields that started from it (Train again on a recipe run).
    if (matched != Custom)
        m_recipe = matched == SegNetCamVid;
    m_preset->setCurrentIndex(m_preset->findData(int(matched)));
}

void TrainDialog::showSettings(const TrainingLauncher::Settings& settings)
{
    m_recipe = settings.recipe;
    // The model asked for, else the engine's default.
    const int asked = settings.model.isEmpty() ? -1 : m_model->findData(settings.model);
    m_model->setCurrentIndex(std::max(0, asked >= 0 ? asked : m_model->findData(defaultModel())));
    (settings.minutes > 0 ? m_byTime : m_byEpochs)->setChecked(true);
    m_minutes->setEnabled(settings.minutes > 0);
    m_epochs->setEnabled(settings.minutes <= 0);
    showValidationPeriod();
    if (settings.minutes > 0)
        m_minutes->setValue(settings.minutes);
    m_epochs->setValue(settings.epochs);
    m_height->setValue(settings.height);
    m_width->setValue(settings.width);
    m_batch->setValue(settings.batch);
    {
        // A size of its own, else a share: one the list lacks (a remembered 30 %) joins it.
        const bool custom = settings.cropHeight > 0 && settings.cropWidth > 0;
        const int percent = custom ? -1 : settings.cropPercent > 0 && settings.cropPercent < 100 ? settings.cropPercent : 0;
        const QSignalBlocker blocker(m_crop);
        if (m_crop->findData(percent) < 0)
            m_crop->insertItem(m_crop->count() - 1, tr("%1 % of each side").arg(percent), percent);
        m_crop->setCurrentIndex(m_crop->findData(percent));
        m_cropHeight->setMaximum(settings.height);
        m_cropWidth->setMaximum(settings.width);
        if (custom) {
            m_cropHeight->setValue(settings.cropHeight);
            m_cropWidth->setValue(settings.cropWidth);
        }
        updateCrop();
    }
    select(m_optimizer, settings.optimizer);
    m_learningRate->setValue(settings.learningRate);
    select(m_schedule, settings.schedule);
    m_flip->setChecked(settings.flip);
    m_translate->setValue(settings.translate);
    m_colorJitter->setValue(settings.colorJitter);
    select(m_classWeighting, settings.classWeighting);
    m_valEpochs->setValue(settings.valEpochs);
    // No device asked for, or none of those asked for is here (settings remembered from another
    // machine): the first GPU if there is one, else the CPU (what "auto" picks).
    QStringList wanted;
    for (QCheckBox* check : std::as_const(m_devices))
        if (settings.devices.contains(check->property("device").toString()))
            wanted << check->property("device").toString();
    if (wanted.isEmpty() && !m_devices.isEmpty())
        wanted << (m_devices.size() > 1 ? m_devices[1] : m_devices[0])->property("device").toString();
    for (QCheckBox* check : std::as_const(m_devices)) {
        const QSignalBlocker blocker(check);
        check->setChecked(wanted.contains(check->property("device").toString()));
    }
    m_target->setTarget(settings.where);
    validate();
}

void TrainDialog::validate()
{
    if (!m_train)
        return;  // still building
    const QString name = m_name->text();
    QString problem;
    if (name.isEmpty())
        problem = tr("Give the run a name.");
    else if (!m_runsFolder.isEmpty() && QDir(m_runsFolder).exists(name))
        problem = tr("A run named %1 exists already; choose another name.").arg(name);
    else if (!m_target->problem().isEmpty())
        problem = m_target->problem();
    else if (!m_devices.isEmpty() && settings().devices.isEmpty() && !m_target->target())
        problem = tr("Choose a device: the CPU or at least one GPU.");
    m_devicesRow->setEnabled(!m_target->target());
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_train->setEnabled(problem.isEmpty());
}

void TrainDialog::updateCrop()
{
    const int crop = m_crop->currentData().toInt();
    if (crop >= 0)
        m_cropShare = crop;
    // Never larger than the pack: the engine refuses a crop larger than its images.
    m_cropHeight->setMaximum(m_height->value());
    m_cropWidth->setMaximum(m_width->value());
    m_cropCustom->setVisible(crop < 0);
    const QSize pixels = settings().crop();
    if (crop > 0 && pixels.isEmpty())  // a share that would crop most of a small pack: none
        m_cropPixels->setText(tr("= whole images at this size (a crop is at least %1 × %2 px)")
                                  .arg(run::TrainingCrop::kSmallestShortSide)
                                  .arg(run::TrainingCrop::kSmallestLongSide));
    else
        m_cropPixels->setText(crop > 0 ? tr("= %1 × %2 px").arg(pixels.height()).arg(pixels.width()) : QString());
}

void TrainDialog::showValidationPeriod()
{
    // A time budget may thin validations out (TimeBudgetPlanner): the field is then a lower bound.
    m_valEpochs->setPrefix(m_byTime->isChecked() ? tr("at most every ") : tr("every "));
}

QString TrainDialog::problem() const { return m_problem->text(); }
bool TrainDialog::canTrain() const { return m_problem->text().isEmpty(); }

TrainingLauncher::Settings TrainDialog::settings() const
{
    TrainingLauncher::Settings settings;
    settings.recipe = m_recipe;
    settings.model = m_model->currentData().toString();
    settings.minutes = m_byTime->isChecked() ? m_minutes->value() : 0;
    settings.epochs = m_epochs->value();
    settings.height = m_height->value();
    settings.width = m_width->value();
    settings.batch = m_batch->value();
    const int crop = m_crop->currentData().toInt();
    settings.cropPercent = std::max(0, crop);
    settings.cropHeight = crop < 0 ? m_cropHeight->value() : 0;
    settings.cropWidth = crop < 0 ? m_cropWidth->value() : 0;
    settings.optimizer = m_optimizer->currentData().toString();
    settings.learningRate = m_learningRate->value();
    settings.schedule = m_schedule->currentData().toString();
    settings.flip = m_flip->isChecked();
    settings.translate = m_translate->value();
    settings.colorJitter = m_colorJitter->value();
    settings.classWeighting = m_classWeighting->currentData().toString();
    settings.valEpochs = m_valEpochs->value();
    for (QCheckBox* check : m_devices)
        if (check->isChecked())
            settings.devices << check->property("device").toString();
    settings.where = m_target->target();
    return settings;
}

QString TrainDialog::runName() const { return m_name->text(); }

}  // namespace segstudio::ui::training
