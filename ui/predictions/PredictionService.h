#pragma once

#include "common/TrainerProcess.h"
#include "data/project/PredictionCache.h"

#include <QObject>
#include <QString>

#include <cstddef>
#include <optional>
#include <string>

namespace segstudio::data {
inline namespace project { class Project; }
}

namespace segstudio::ui::predictions {

// The model's prediction of the image on screen, for the editor's prediction layers. It is read
// from the checkpoint's cache (data::PredictionCache, on a worker thread) or, when the image was
// never predicted by this checkpoint, computed by `segstudio-train predict --confidence` in the
// background and then read. Only the newest request counts: asking for another image while one
// is computed makes the old answer stale, and it is dropped.
// Requirements: GUI thread; the project outlives the service or is reset first (setProject(nullptr)).
class PredictionService : public QObject {
    Q_OBJECT

public:
    explicit PredictionService(QObject* parent = nullptr);
    ~PredictionService() override;

    void setTrainer(const QString& program) { m_process->setProgram(program); }
    void setProject(const data::Project* project);
    // The checkpoint file whose predictions are shown (a run's best.pt or last.pt); empty = none.
    void setCheckpoint(const QString& runDir, const QString& checkpoint);
    QString checkpoint() const { return m_checkpoint; }
    QString cacheFolder() const;

    void request(std::size_t index);
    // The checkpoint file was replaced (same path, new weights): the image on screen is read or
    // predicted again, and an answer under way is dropped.
    void reload();
    bool isPredicting() const { return m_process->isRunning(); }
    // Predictions with the model's batch norms adapted to the project's images
    // (common::TrainerArguments::adaptation()); the cache then holds those alone, its stamp says so
    // (adaptationStamp), and the image on screen is predicted again. Asked while a prediction is
    // under way, it applies when that one is done, so its answer never lands among the others.
    void setAdaptation(bool adapt);
    bool adapts() const { return m_pendingAdaptation.value_or(m_adapt); }
    static std::string adaptationStamp(bool adapt);

signals:
    void predictionReady(std::size_t index, const data::PredictionCache::Entry& prediction);
    void problem(const QString& message);  // the image could not be predicted, and why
    // The gate's decision for the image on screen, as a sentence (AdaptationSentence), when its
    // prediction process ends well having said one (with the adaptation on it always does); never
    // for a prediction read from the cache.
    void adaptationSaid(const QString& sentence);
    // Another checkpoint chosen (empty: none); its predictions are kept in cacheFolder().
    void checkpointChanged(const QString& runDir, const QString& checkpoint);

private:
    void load(std::size_t index, bool predictIfMissing);
    void predict(std::size_t index);
    void processFinished(const common::TrainerProcess::Exit& exit);

    const data::Project* m_project = nullptr;
    QString m_runDir;
    QString m_checkpoint;
    common::TrainerProcess* m_process;
    std::optional<std::size_t> m_wanted;     // the image on screen
    std::optional<std::size_t> m_predicting;  // the image the process predicts
    quint64 m_generation = 0;                 // bumped by every request and setting: late answers drop
    bool m_adapt = false;
    std::optional<bool> m_pendingAdaptation;  // asked for while a prediction was under way
    QString m_said;                           // what the running process's gate decided
};

}  // namespace segstudio::ui::predictions
