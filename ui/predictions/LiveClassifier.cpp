#include "LiveClassifier.h"

#include "common/BackgroundPool.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/Project.h"
#include "paint/PixelClassifier.h"

#include <QElapsedTimer>
#include <QLocale>

#include <filesystem>

namespace segstudio::ui::predictions {

namespace {

constexpr std::size_t kSeedImages = 16;  // other labelled images learned from at the start

std::string keyOf(const data::Project& project, std::size_t index) { return project.entry(index).image; }

}  // namespace

struct LiveClassifier::Learner {
    paint::PixelClassifier classifier;
    std::shared_ptr<paint::PixelFeatures> features;  // of the image last worked on
    std::optional<std::string> featuresOf;           // the image's key
};

LiveClassifier::LiveClassifier(QObject* parent) : QObject(parent), m_learner(std::make_shared<Learner>())
{
    connect(&m_watcher, &QFutureWatcher<Result>::finished, this, &LiveClassifier::finished);
}

LiveClassifier::~LiveClassifier()
{
    m_watcher.disconnect(this);  // a job still running keeps its learner; its result goes nowhere
}

void LiveClassifier::setProject(const data::Project* project)
{
    if (project == m_project)
        return;
    m_project = project;
    forget();
}

void LiveClassifier::forget()
{
    ++m_generation;  // a job under way finishes with the learner it has, and its result is dropped
    m_pending.reset();
    m_learner = std::make_shared<Learner>();
    m_seeded = false;
}

// Off, or a run in use: what is under way is dropped when it ends (the network's layer stays).
void LiveClassifier::setEnabled(bool enabled)
{
    m_enabled = enabled;
    ++m_generation;
    m_pending.reset();
}

void LiveClassifier::setRunInUse(bool inUse)
{
    m_runInUse = inUse;
    ++m_generation;
    m_pending.reset();
}

bool LiveClassifier::isBusy() const { return m_watcher.isRunning() || m_pending.has_value(); }

void LiveClassifier::request(std::size_t index)
{
    if (isActive() && index < m_project->size())
        schedule(jobFor(index, cv::Mat()));
}

void LiveClassifier::learnFrom(std::size_t index, const cv::Mat& labels)
{
    if (isActive() && !labels.empty() && index < m_project->size())
        schedule(jobFor(index, labels.clone()));
}

// The job's files, read from the project here, on the GUI thread; the first job also takes the
// project's labelled images (up to kSeedImages) to learn from.
LiveClassifier::Job LiveClassifier::jobFor(std::size_t index, const cv::Mat& labels)
{
    const auto filesOf = [this](std::size_t i) {
        return ImageFiles{keyOf(*m_project, i), m_project->imagePath(i), m_project->labelMapPath(i)};
    };
    Job job{index, labels, m_generation, filesOf(index), {}, m_project->schema()};
    if (!std::exchange(m_seeded, true))
        for (std::size_t i = 0; i < m_project->size() && job.seeds.size() < kSeedImages; ++i) {
            std::error_code error;
            if (i != index && std::filesystem::exists(m_project->labelMapPath(i), error))
                job.seeds.push_back(filesOf(i));
        }
    return job;
}

// One job at a time; of the ones asked for meanwhile only the newest waits (the labels of the
// last stroke include the earlier ones').
void LiveClassifier::schedule(Job job)
{
    if (m_pending && m_pending->index == job.index && job.labels.empty() && !m_pending->labels.empty())
        job.labels = m_pending->labels;  // a plain request must not drop labels still to learn from
    if (m_pending && job.seeds.empty())
        job.seeds = std::move(m_pending->seeds);  // nor the seeds the dropped job carried
    m_pending = std::move(job);
    if (!m_watcher.isRunning())
        startNext();
}

void LiveClassifier::startNext()
{
    if (!m_pending || !m_project)
        return;
    const Job job = *std::exchange(m_pending, std::nullopt);
    m_watcher.setFuture(common::runInBackground([learner = m_learner, job] { return run(*learner, job); }));
}

void LiveClassifier::finished()
{
    const Result result = m_watcher.result();
    const bool sameImage = m_project && result.index < m_project->size() && keyOf(*m_project, result.index) == result.key;
    if (result.generation == m_generation && isActive() && sameImage) {
        if (!result.text.isEmpty())
            emit status(result.text);
        if (result.prediction)
            emit predictionReady(result.index, *result.prediction);
    }
    startNext();
}

// The labelled images of the project beside the open one, up to kSeedImages: what the user
// labelled before (whole maps, or strokes saved), so the first prediction already knows them.
void LiveClassifier::seedFrom(Learner& learner, const Job& job)
{
    for (const ImageFiles& seed : job.seeds) {
        try {
            const cv::Mat image = data::readImageRgb(seed.image);
            const cv::Mat labels = data::readLabelMap(seed.labelMap, job.schema, image.size());
            learner.classifier.setExamples(seed.key, paint::PixelFeatures(image), labels);
        } catch (const std::exception&) {
            // an unreadable image teaches nothing; the browser shows it as a problem
        }
    }
}

// On the worker: the open image's features (kept while it stays open), its labels as examples,
// a forest trained on all examples, the open image predicted.
LiveClassifier::Result LiveClassifier::run(Learner& learner, const Job& job)
{
    Result result{job.index, job.files.key, job.generation, std::nullopt, QString()};
    QElapsedTimer clock;
    clock.start();
    try {
        seedFrom(learner, job);
        if (learner.featuresOf != job.files.key) {
            learner.features = std::make_shared<paint::PixelFeatures>(data::readImageRgb(job.files.image));
            learner.featuresOf = job.files.key;
        }
        if (!job.labels.empty() && job.labels.size() == learner.features->imageSize())
            learner.classifier.setExamples(job.files.key, *learner.features, job.labels);
        if (!job.labels.empty() || !learner.classifier.isTrained()) {
            if (!learner.classifier.train()) {
                result.text = tr("Learning from your strokes: label two classes and it labels the rest");
                return result;
            }
        }
        const int classes = job.schema.maxId() + 1;
        auto prediction = learner.classifier.predict(*learner.features, classes);
        result.prediction = data::PredictionCache::Entry{prediction.classes, prediction.confidence, prediction.entropy,
                                                         prediction.scores};
        result.text = tr("Learning from your strokes: %1 labelled pixels sampled · %2 s")
                          .arg(QLocale().toString(qulonglong(learner.classifier.exampleCount())))
                          .arg(clock.elapsed() / 1000.0, 0, 'f', 1);
    } catch (const std::exception& error) {
        result.text = tr("Learning from your strokes failed: %1").arg(QString::fromUtf8(error.what()));
    }
    return result;
}

}  // namespace segstudio::ui::predictions
