#include "TrainDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSpinBox>

namespace segstudio::ui {

TrainDialog::TrainDialog(const QString& runName, const TrainingLauncher::Settings& settings, const QString& runsFolder,
                         const QList<TrainingLauncher::ModelChoice>& models, QWidget* parent)
    : QDialog(parent), m_runsFolder(runsFolder), m_problem(new QLabel(this)), m_name(new QLineEdit(runName, this)), m_model(new QComboBox(this)), m_epochs(new QSpinBox(this)),
      m_height(new QSpinBox(this)), m_width(new QSpinBox(this)), m_batch(new QSpinBox(this))
{
    setWindowTitle(tr("Train"));
    // A folder name under runs/: no separators.
    m_name->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[A-Za-z0-9_.-]+")), m_name));
    // The engine's models, as segstudio-train lists them (TrainingLauncher::models()).
    for (const auto& model : models) {
        m_model->addItem(QStringLiteral("%1 — %2").arg(model.name, model.description), model.name);
        m_model->setItemData(m_model->count() - 1, model.description, Qt::ToolTipRole);
    }
    // Descriptions are long: the dialog keeps a sensible width, the list and tooltips show them whole.
    m_model->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_model->setMinimumContentsLength(40);
    // The model asked for, else the engine's default.
    int current = settings.model.isEmpty() ? -1 : m_model->findData(settings.model);
    for (int i = 0; current < 0 && i < models.size(); ++i)
        if (models[i].isDefault)
            current = i;
    m_model->setCurrentIndex(std::max(0, current));
    m_epochs->setRange(1, 1000);
    m_epochs->setValue(settings.epochs);
    for (QSpinBox* box : {m_height, m_width}) {
        box->setRange(16, 4096);
        box->setSingleStep(16);
        box->setSuffix(tr(" px"));
    }
    m_height->setValue(settings.height);
    m_width->setValue(settings.width);
    m_batch->setRange(1, 256);
    m_batch->setValue(settings.batch);

    auto* form = new QFormLayout(this);
    form->addRow(tr("Run &name:"), m_name);
    form->addRow(tr("&Model:"), m_model);
    form->addRow(tr("&Epochs:"), m_epochs);
    form->addRow(tr("Image &height:"), m_height);
    form->addRow(tr("Image &width:"), m_width);
    form->addRow(tr("&Batch size:"), m_batch);
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setStyleSheet(QStringLiteral("color: #b00020"));
    m_problem->setWordWrap(true);
    form->addRow(m_problem);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_train = buttons->button(QDialogButtonBox::Ok);
    m_train->setText(tr("Train"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        validate();  // the folder may have changed while the dialog was open
        if (canTrain())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_name, &QLineEdit::textChanged, this, &TrainDialog::validate);
    form->addRow(buttons);
    validate();
}

void TrainDialog::validate()
{
    const QString name = m_name->text();
    QString problem;
    if (name.isEmpty())
        problem = tr("Give the run a name.");
    else if (!m_runsFolder.isEmpty() && QDir(m_runsFolder).exists(name))
        problem = tr("A run named %1 exists already; choose another name.").arg(name);
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_train->setEnabled(problem.isEmpty());
}

QString TrainDialog::problem() const { return m_problem->text(); }
bool TrainDialog::canTrain() const { return m_problem->text().isEmpty(); }

TrainingLauncher::Settings TrainDialog::settings() const
{
    TrainingLauncher::Settings settings;
    settings.model = m_model->currentData().toString();
    settings.epochs = m_epochs->value();
    settings.height = m_height->value();
    settings.width = m_width->value();
    settings.batch = m_batch->value();
    return settings;
}

QString TrainDialog::runName() const { return m_name->text(); }

}  // namespace segstudio::ui
