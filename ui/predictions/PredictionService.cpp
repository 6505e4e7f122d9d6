#include "PredictionService.h"

#include "AdaptationSentence.h"

#include "common/TrainerArguments.h"
#include "document/WorkerPool.h"

#include "data/labels/DataError.h"
#include "data/project/Project.h"

#include <QFutureWatcher>
#include <QtConcurrent>

#include <filesystem>
#include <memory>
#include <utility>

namespace segstudio::ui::predictions {

namespace {

struct Loaded {
    std::optional<data::PredictionCache::Entry> entry;
    QString problem;
    bool noCheckpoint = false;  // a run still before its first checkpoint: nothing to show, nothing wrong
};

}  // namespace

PredictionService::PredictionService(QObject* parent) : QObject(parent), m_process(new common::TrainerProcess(this))
{
    connect(m_process, &common::TrainerProcess::finished, this, &PredictionService::processFinished);
    connect(m_process, &common::TrainerProcess::output, this, [this](const QString& text) {
        if (const QString said = AdaptationSentence::from(text); !said.isEmpty())
            m_said = said;
    });
}

PredictionService::~PredictionService()
{
    m_process->disconnect(this);  // a cache entry, cheap to redo: killed with its object
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
    emit checkpointChanged(m_runDir, m_checkpoint);
    if (m_wanted)
        request(*m_wanted);
}

std::string PredictionService::adaptationStamp(bool adapt)
{
    return adapt ? common::TrainerArguments::adaptation().join(QLatin1Char(' ')).toStdString() : std::string();
}

void PredictionService::setAdaptation(bool adapt)
{
    if (isPredicting()) {
        m_pendingAdaptation = adapt;
        return;
    }
    m_pendingAdaptation.reset();
    if (adapt == m_adapt)
        return;
    m_adapt = adapt;
    reload();
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
    const data::PredictionCache cache(m_runDir.toStdString(), m_checkpoint.toStdString(), adaptationStamp(m_adapt));
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
    if (isPredicting())
        return;  // the image on screen is asked for again when this one is done
    QStringList arguments = common::TrainerArguments::predictImages(
        m_checkpoint, cacheFolder(), QString::fromStdString(m_project->file().string()),
        {QString::fromStdString(m_project->imagePath(index).string())});
    if (m_adapt)
        arguments << common::TrainerArguments::keptAdaptation();
    if (!m_process->start(arguments)) {
        emit problem(common::TrainerProcess::notFoundMessage());
        return;
    }
    m_predicting = index;
    m_said.clear();
}

void PredictionService::processFinished(const common::TrainerProcess::Exit& exit)
{
    const auto predicted = m_predicting;
    m_predicting.reset();
    if (m_pendingAdaptation) {  // asked for while this one ran: its answer is of the other kind
        const bool adapt = *m_pendingAdaptation;
        m_pendingAdaptation.reset();
        if (adapt != m_adapt) {
            m_adapt = adapt;
            reload();
            return;
        }
    }
    if (!m_project || !m_wanted)
        return;
    if (predicted == m_wanted && !exit.ok) {
        emit problem(exit.message);  // segstudio-train's error line names the file and the problem
        return;
    }
    if (predicted == m_wanted && !m_said.isEmpty())
        emit adaptationSaid(std::exchange(m_said, QString()));
    load(*m_wanted, /*predictIfMissing=*/predicted != m_wanted);
}

}  // namespace segstudio::ui::predictions
