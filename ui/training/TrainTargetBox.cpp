#include "TrainTargetBox.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

namespace segstudio::ui::training {

namespace {

enum Kind { Here, Ssh, Slurm };

QLineEdit* field(QWidget* parent, const QString& name, const QString& placeholder, const QString& toolTip)
{
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(name);
    edit->setPlaceholderText(placeholder);
    edit->setToolTip(toolTip);
    return edit;
}

}  // namespace

TrainTargetBox::TrainTargetBox(QWidget* parent)
    : QWidget(parent), m_kind(new QComboBox(this)), m_remote(new QWidget(this)),
      m_host(field(m_remote, QStringLiteral("targetHost"), tr("gpu-server.example.org"),
                   tr("The machine (or the cluster's login node) as ssh reaches it: a name from ~/.ssh/config works"))),
      m_user(field(m_remote, QStringLiteral("targetUser"), tr("as in ~/.ssh/config"), tr("Empty: ssh's own choice"))),
      m_port(new QSpinBox(m_remote)),
      m_folder(field(m_remote, QStringLiteral("targetFolder"), QString(),
                     tr("Where the runs go there (relative to your home there, or absolute); made when missing"))),
      m_trainer(field(m_remote, QStringLiteral("targetTrainer"), QString(),
                      tr("segstudio-train there: on its PATH, or a path (an engine-only build against that machine's "
                         "LibTorch: docs/ENGINE.md)"))),
      m_slurm(new QWidget(m_remote)),
      m_partition(field(m_slurm, QStringLiteral("targetPartition"), tr("the cluster's default"), tr("sbatch --partition"))),
      m_gpus(new QSpinBox(m_slurm)), m_hours(new QSpinBox(m_slurm))
{
    m_kind->setObjectName(QStringLiteral("trainOn"));
    m_kind->addItem(tr("This computer"), Here);
    m_kind->addItem(tr("A machine over SSH"), Ssh);
    m_kind->addItem(tr("A SLURM cluster over SSH"), Slurm);
    m_kind->setToolTip(tr("Where the run trains. Elsewhere: the packs are sent there, the trainer started there, and "
                          "its run folder mirrored back here while it trains"));
    m_port->setObjectName(QStringLiteral("targetPort"));
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(tr("ssh's (22)"));
    m_folder->setText(QString::fromStdString(remote::RemoteTarget().folder));
    m_trainer->setText(QString::fromStdString(remote::RemoteTarget().trainer));
    m_gpus->setObjectName(QStringLiteral("targetGpus"));
    m_gpus->setRange(0, 64);
    m_gpus->setSpecialValueText(tr("none (one rank on CPUs)"));
    m_gpus->setToolTip(tr("GPUs on one node, one rank each (sbatch --gpus-per-node)"));
    m_hours->setObjectName(QStringLiteral("targetHours"));
    m_hours->setRange(0, 24 * 14);
    m_hours->setSuffix(tr(" h"));
    m_hours->setSpecialValueText(tr("the partition's limit"));
    m_hours->setToolTip(tr("sbatch --time: the job is cancelled (its checkpoint written) when it is reached"));

    auto* slurm = new QFormLayout(m_slurm);
    slurm->setContentsMargins(0, 0, 0, 0);
    slurm->addRow(tr("Partition:"), m_partition);
    slurm->addRow(tr("GPUs:"), m_gpus);
    slurm->addRow(tr("Time limit:"), m_hours);
    auto* remote = new QFormLayout(m_remote);
    remote->setContentsMargins(0, 0, 0, 0);
    remote->addRow(tr("Host:"), m_host);
    remote->addRow(tr("User:"), m_user);
    remote->addRow(tr("Port:"), m_port);
    remote->addRow(tr("Folder there:"), m_folder);
    remote->addRow(tr("Trainer there:"), m_trainer);
    remote->addRow(m_slurm);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_kind);
    layout->addWidget(m_remote);

    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        showKind();
        emit changed();
    });
    for (QLineEdit* edit : {m_host, m_user, m_folder, m_trainer, m_partition})
        connect(edit, &QLineEdit::textChanged, this, &TrainTargetBox::changed);
    for (QSpinBox* spin : {m_port, m_gpus, m_hours})
        connect(spin, &QSpinBox::valueChanged, this, &TrainTargetBox::changed);
    showKind();
}

void TrainTargetBox::showKind()
{
    const int kind = m_kind->currentData().toInt();
    m_remote->setVisible(kind != Here);
    m_slurm->setVisible(kind == Slurm);
}

std::optional<remote::RemoteTarget> TrainTargetBox::target() const
{
    const int kind = m_kind->currentData().toInt();
    if (kind == Here)
        return std::nullopt;
    remote::RemoteTarget target;
    target.kind = kind == Slurm ? remote::RemoteTarget::Kind::Slurm : remote::RemoteTarget::Kind::Ssh;
    target.host = m_host->text().trimmed().toStdString();
    target.user = m_user->text().trimmed().toStdString();
    target.port = m_port->value();
    target.folder = m_folder->text().trimmed().toStdString();
    target.trainer = m_trainer->text().trimmed().toStdString();
    target.sshOptions = m_sshOptions;
    if (kind == Slurm) {
        target.partition = m_partition->text().trimmed().toStdString();
        target.gpus = m_gpus->value();
        target.timeLimitMinutes = m_hours->value() * 60;
    }
    return target;
}

void TrainTargetBox::setTarget(const std::optional<remote::RemoteTarget>& target)
{
    const QSignalBlocker blocker(m_kind);
    m_kind->setCurrentIndex(m_kind->findData(!target ? Here : target->kind == remote::RemoteTarget::Kind::Slurm ? Slurm : Ssh));
    if (target) {
        m_sshOptions = target->sshOptions;
        m_host->setText(QString::fromStdString(target->host));
        m_user->setText(QString::fromStdString(target->user));
        m_port->setValue(target->port);
        m_folder->setText(QString::fromStdString(target->folder));
        m_trainer->setText(QString::fromStdString(target->trainer));
        m_partition->setText(QString::fromStdString(target->partition));
        m_gpus->setValue(target->gpus);
        m_hours->setValue(target->timeLimitMinutes / 60);
    }
    showKind();
}

QString TrainTargetBox::problem() const
{
    const auto chosen = target();
    if (!chosen)
        return {};
    if (chosen->host.empty())
        return tr("Name the machine to train on.");
    const std::string wrong = chosen->problem();
    return wrong.empty() ? QString() : tr("Train on: %1.").arg(QString::fromStdString(wrong));
}

}  // namespace segstudio::ui::training
