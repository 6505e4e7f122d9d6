#pragma once

#include "data/labels/ClassSchema.h"
#include "data/project/PredictionCache.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <opencv2/core.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::data {
inline namespace project { class Project; }
}
namespace segstudio::paint {
class PixelClassifier;
class PixelFeatures;
}

namespace segstudio::ui::predictions {

// The editor's help on a new kind of image before any network is trained (issue 62): while no
// run's model is in use, a pixel classifier (paint::PixelClassifier, ilastik's features and a
// random forest) learns from the labelled pixels of the open image and of up to 16 other labelled
// images of the project, and its prediction of the open image is the editor's prediction layer
// and the model under Smart Click and Accept Prediction. It learns again on a worker after each
// stroke (the newest labels win; a stroke made while it learns is taken next), and says how it
// went in one line ("learning from 1,240 labelled pixels · 0.4 s").
// Requirements: GUI thread; the project outlives it or is reset first (setProject(nullptr)).
// Guarantees: never blocks the GUI thread; a prediction comes for the image it was asked for, or
//   none (a newer request or another project drops it); off, or with a run in use, it does nothing.
class LiveClassifier : public QObject {
    Q_OBJECT

public:
    explicit LiveClassifier(QObject* parent = nullptr);
    ~LiveClassifier() override;

    void setProject(const data::Project* project);
    // The classes or images changed (a class deleted or merged, images removed): what it learned
    // names ids that may mean something else now, so it starts again.
    void forget();
    void setEnabled(bool enabled);
    bool isEnabled() const { return m_enabled; }
    // Only while no run's model is in use: a trained network is the better helper.
    void setRunInUse(bool inUse);
    bool isActive() const { return m_enabled && !m_runInUse && m_project; }
    bool isBusy() const;

public slots:
    void request(std::size_t index);  // the image opened: predict it (from what is learned so far)
    void learnFrom(std::size_t index, const cv::Mat& labels);  // its labels changed: learn, predict

signals:
    void predictionReady(std::size_t index, const data::PredictionCache::Entry& prediction);
    void status(const QString& text);

private:
    // What the worker needs of the project, copied on the GUI thread (the document may change
    // the project, add or remove images, while a job runs).
    struct ImageFiles {
        std::string key;
        std::filesystem::path image;
        std::filesystem::path labelMap;
    };
    struct Job {
        std::size_t index = 0;
        cv::Mat labels;  // empty: predict only
        quint64 generation = 0;
        ImageFiles files;
        std::vector<ImageFiles> seeds;  // labelled images to learn from first (the first job only)
        data::ClassSchema schema;
    };
    struct Result {
        std::size_t index = 0;
        std::string key;  // of the image predicted: an index may name another image by now
        quint64 generation = 0;
        std::optional<data::PredictionCache::Entry> prediction;
        QString text;
    };

    // What the worker learns with: owned by the jobs that use it as much as by this object, so
    // that forgetting (another project, classes changed) or closing never waits for a forest that
    // is still training (with the project's 16 seed images on a loaded machine, many seconds).
    struct Learner;
    void schedule(Job job);
    void startNext();
    void finished();
    static Result run(Learner& learner, const Job& job);
    static void seedFrom(Learner& learner, const Job& job);
    Job jobFor(std::size_t index, const cv::Mat& labels);

    const data::Project* m_project = nullptr;
    bool m_enabled = true;
    bool m_runInUse = false;
    quint64 m_generation = 0;  // a new project drops what is under way
    std::optional<Job> m_pending;
    QFutureWatcher<Result> m_watcher;
    std::shared_ptr<Learner> m_learner;  // touched by the one job running at a time
    bool m_seeded = false;  // (GUI thread) the seeds went with a job already
};

}  // namespace segstudio::ui::predictions
