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

LiveClassifier::LiveClassifier(QObject* parent) : QObject(parent), m_classifier(std::make_unique<paint::PixelClassifier>())
{
    connect(&m_watcher, &QFutureWatcher<Result>::finished, this, &LiveClassifier::finished);
}

LiveClassifier::~LiveClassifier()
{
    m_watcher.disconnect(this);
    m_watcher.waitForFinished();  // the job holds this object's classifier
}

void LiveClassifier::setProject(const data::Project* project)
{
    if (project == m_project)
        return;
    m_watcher.waitForFinished();
    ++m_generation;
    m_pending.reset();
    m_project = project;
    m_classifier = std::make_unique<paint::PixelClassifier>();
    m_features.reset();
    m_featuresOf.reset();
    m_seeded = false;
}

void LiveClassifier::setEnabled(bool enabled) { m_enabled = enabled; }

void LiveClassifier::setRunInUse(bool inUse) { m_runInUse = inUse; }

bool LiveClassifier::isBusy() const { return m_watcher.isRunning() || m_pending.has_value(); }

void LiveClassifier::request(std::size_t index)
{
    if (isActive())
        schedule({index, cv::Mat(), m_generation});
}

void LiveClassifier::learnFrom(std::size_t index, const cv::Mat& labels)
{
    if (isActive() && !labels.empty())
        schedule({index, labels.clone(), m_generation});
}

// One job at a time; of the ones asked for meanwhile only the newest waits (the labels of the
// last stroke include the earlier ones').
void LiveClassifier::schedule(Job job)
{
    if (m_pending && m_pending->index == job.index && job.labels.empty() && !m_pending->labels.empty())
        job.labels = m_pending->labels;  // a plain request must not drop labels still to learn from
    m_pending = std::move(job);
    if (!m_watcher.isRunning())
        startNext();
}

void LiveClassifier::startNext()
{
    if (!m_pending || !m_project)
        return;
    const Job job = *std::exchange(m_pending, std::nullopt);
    m_watcher.setFuture(common::runInBackground([this, job] { return run(job); }));
}

void LiveClassifier::finished()
{
    const Result result = m_watcher.result();
    if (result.generation == m_generation) {
        if (!result.text.isEmpty())
            emit status(result.text);
        if (result.prediction)
            emit predictionReady(result.index, *result.prediction);
    }
    startNext();
}

// The labelled images of the project beside the open one, up to kSeedImages: what the user
// labelled before (whole maps, or strokes saved), so the first prediction already knows them.
void LiveClassifier::seedFromProject(std::size_t openImage)
{
    m_seeded = true;
    std::size_t seeded = 0;
    for (std::size_t i = 0; i < m_project->size() && seeded < kSeedImages; ++i) {
        std::error_code error;
        if (i == openImage || !std::filesystem::exists(m_project->labelMapPath(i), error))
            continue;
        try {
            const cv::Mat image = data::readImageRgb(m_project->imagePath(i));
            const cv::Mat labels = data::readLabelMap(m_project->labelMapPath(i), m_project->schema(), image.size());
            m_classifier->setExamples(keyOf(*m_project, i), paint::PixelFeatures(image), labels);
            ++seeded;
        } catch (const std::exception&) {
            // an unreadable image teaches nothing; the browser shows it as a problem
        }
    }
}

// On the worker: the open image's features (kept while it stays open), its labels as examples,
// a forest trained on all examples, the open image predicted.
LiveClassifier::Result LiveClassifier::run(const Job& job)
{
    Result result{job.index, job.generation, std::nullopt, QString()};
    QElapsedTimer clock;
    clock.start();
    try {
        if (!m_seeded)
            seedFromProject(job.index);
        if (m_featuresOf != job.index) {
            m_features = std::make_shared<paint::PixelFeatures>(data::readImageRgb(m_project->imagePath(job.index)));
            m_featuresOf = job.index;
        }
        if (!job.labels.empty() && job.labels.size() == m_features->imageSize())
            m_classifier->setExamples(keyOf(*m_project, job.index), *m_features, job.labels);
        if (!job.labels.empty() || !m_classifier->isTrained()) {
            if (!m_classifier->train()) {
                result.text = tr("Learning from your strokes: label two classes and it labels the rest");
                return result;
            }
        }
        const int classes = m_project->schema().maxId() + 1;
        auto prediction = m_classifier->predict(*m_features, classes);
        result.prediction = data::PredictionCache::Entry{prediction.classes, prediction.confidence, prediction.entropy,
                                                         prediction.scores};
        result.text = tr("Learning from your strokes: %1 labelled pixels sampled · %2 s")
                          .arg(QLocale().toString(qulonglong(m_classifier->exampleCount())))
                          .arg(clock.elapsed() / 1000.0, 0, 'f', 1);
    } catch (const std::exception& error) {
        result.text = tr("Learning from your strokes failed: %1").arg(QString::fromUtf8(error.what()));
    }
    return result;
}

}  // namespace segstudio::ui::predictions
