#include "PredictionService.h"
#include "document/WorkerPool.h"

#include "data/DataError.h"
#include "data/Project.h"

#include <QFutureWatcher>
#include <QtConcurrent>

#include <filesystem>
#include <memory>

namespace segstudio::ui {

namespace {

struct Loaded {
    std::optional<data::PredictionCache::Entry> entry;
    QString problem;
    bool noCheckpoint = false;  // a run still before its first checkpoint: nothing to show, nothing wrong
};

}  // namespace

PredictionService::PredictionService(QObject* parent) : QObject(parent), m_process(new QProcess(this))
{
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    connect(m_process, &QProcess::readyRead, this, [this] { m_output = (m_output + QString::fromLocal8Bit(m_process->readAll())).right(4096); });
    connect(m_process, &QProcess::finished, this, &PredictionService::processFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            m_predicting.reset();
            emit problem(tr("Cannot start %1: %2").arg(m_program, m_process->errorString()));
        }
    });
}

PredictionService::~PredictionService()
{
    m_process->disconnect(this);
    if (m_process->state() != QProcess::NotRunning) {
        m_process->kill();  // a cache entry, cheap to redo
        m_process->waitForFinished(2000);
    }
}

void PredictionService::setProject(const data::Project* project)
{
    m_project = project;
    m_wanted.reset();
    ++m_generation;
}

void PredictionService::setCheckpoint(const QString& runDir, const QString& checkpoint)
{
    if (runDir == m_runDir && checkpoint == m_checkpoint)
        return;
    m_runDir = runDir;
    m_checkpoint = checkpoint;
    ++m_generation;
    if (m_wanted)
        request(*m_wanted);
}

void PredictionService::reload()
{
    ++m_generation;
    if (m_wanted)
        request(*m_wanted);
}

QString PredictionService::cacheFolder() const
{
    if (m_checkpoint.isEmpty())
        return {};
    return QString::fromStdString(data::PredictionCache(m_runDir.toStdString(), m_checkpoint.toStdString()).folder().string());
}

void PredictionService::request(std::size_t index)
{
    m_wanted = index;
    ++m_generation;
    if (m_project && !m_checkpoint.isEmpty() && index < m_project->size())
        load(index, /*predictIfMissing=*/true);
}

void PredictionService::load(std::size_t index, bool predictIfMissing)
{
    const data::PredictionCache cache(m_runDir.toStdString(), m_checkpoint.toStdString());
    const std::string stem = data::PredictionCache::keyOf(*m_project, index);
    const data::ClassSchema schema = m_project->schema();
    const quint64 generation = m_generation;
    auto* watcher = new QFutureWatcher<Loaded>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, index, generation, predictIfMissing] {
        watcher->deleteLater();
        const Loaded loaded = watcher->result();
        if (generation != m_generation)
            return;  // another image, checkpoint or project since
        if (loaded.noCheckpoint)
            return;
        if (loaded.entry)
            emit predictionReady(index, *loaded.entry);
        else if (!loaded.problem.isEmpty())
            emit problem(loaded.problem);
        else if (predictIfMissing)
            predict(index);
    });
    watcher->setFuture(QtConcurrent::run(document::workerPool(), [cache, stem, schema]() -> Loaded {
        if (!std::filesystem::exists(cache.checkpoint()))
            return {std::nullopt, {}, true};
        try {
            cache.prepare();  // a checkpoint rewritten since: the old model's maps go
            return {cache.load(stem, schema, {}), {}};
        } catch (const data::DataError& error) {  // also run::FileError: one type
            return {std::nullopt, QString::fromStdString(error.what())};
        }
    }));
}

void PredictionService::predict(std::size_t index)
{
    if (m_program.isEmpty()) {
        emit problem(tr("segstudio-train was not found: predictions cannot be computed"));
        return;
    }
    if (isPredicting())
        return;  // the image on screen is asked for again when this one is done
    m_predicting = index;
    m_output.clear();
    m_process->start(m_program, {QStringLiteral("predict"), QStringLiteral("-c"), m_checkpoint, QStringLiteral("-o"), cacheFolder(),
                                 QStringLiteral("-P"), QString::fromStdString(m_project->file().string()),
                                 QStringLiteral("--confidence"), QStringLiteral("--no-overlay"),
                                 QString::fromStdString(m_project->imagePath(index).string())});
}

void PredictionService::processFinished(int exitCode, QProcess::ExitStatus status)
{
    const auto predicted = m_predicting;
    m_predicting.reset();
    if (!m_project || !m_wanted)
        return;
    if (predicted == m_wanted && (status != QProcess::NormalExit || exitCode != 0)) {
        // segstudio-train's last line names the file and the problem.
        const QStringList lines = m_output.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        emit problem(lines.isEmpty() ? tr("segstudio-train predict failed (exit code %1)").arg(exitCode) : lines.last().trimmed());
        return;
    }
    load(*m_wanted, /*predictIfMissing=*/predicted != m_wanted);
}

}  // namespace segstudio::ui
