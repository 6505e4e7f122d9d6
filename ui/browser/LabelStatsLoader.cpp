#include "LabelStatsLoader.h"

#include "data/labels/DataError.h"
#include "data/labels/LabelMapIO.h"
#include "data/labels/LabelCounts.h"

#include <QImageReader>
#include <QtConcurrent>
#include <array>

namespace segstudio::ui::browser {

namespace {

// Small enough that the first counts appear quickly, large enough that 10,000 rows cost few
// model updates on the GUI thread.
constexpr std::size_t kBatchSize = 64;

QString pathText(const std::filesystem::path& path)
{
    return QString::fromStdString(path.string());
}

}  // namespace

LabelStatsLoader::LabelStatsLoader(QObject* parent) : QObject(parent)
{
    // One thread: the thumbnails need the other core, and the GUI thread must stay free.
    m_pool.setMaxThreadCount(1);
}

LabelStatsLoader::~LabelStatsLoader()
{
    cancel();
    m_pool.waitForDone();
}

void LabelStatsLoader::start(std::vector<Source> sources, data::ClassSchema schema)
{
    cancel();
    m_sources = std::make_shared<std::vector<Source>>(std::move(sources));
    m_schema = std::make_shared<data::ClassSchema>(std::move(schema));
    m_cancelled = std::make_shared<std::atomic_bool>(false);
    ++m_generation;
    std::vector<int> rows(m_sources->size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i] = static_cast<int>(i);
    m_running = true;
    runBatches(std::move(rows), m_generation, true);
}

void LabelStatsLoader::refresh(int row)
{
    if (!m_sources || row < 0 || row >= static_cast<int>(m_sources->size()))
        return;
    runBatches({row}, m_generation, false);
}

void LabelStatsLoader::cancel()
{
    if (m_cancelled)
        m_cancelled->store(true);
    m_running = false;
}

void LabelStatsLoader::runBatches(std::vector<int> rows, std::uint64_t generation, bool reportFinished)
{
    auto sources = m_sources;
    auto schema = m_schema;
    auto cancelled = m_cancelled;
    // The lambda owns copies of everything it reads; `this` is only touched through a queued call
    // that Qt drops if the loader is gone (and the destructor waits for the pool anyway).
    (void)QtConcurrent::run(&m_pool, [this, rows = std::move(rows), sources, schema, cancelled, generation,
                                      reportFinished]() {
        std::vector<RowStats> batch;
        batch.reserve(kBatchSize);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            if (cancelled->load())
                return;
            batch.push_back({rows[i], compute((*sources)[rows[i]], *schema)});
            const bool last = i + 1 == rows.size();
            if (batch.size() == kBatchSize || last) {
                QMetaObject::invokeMethod(
                    this, [this, batch = std::move(batch), generation, last, reportFinished]() mutable {
                        deliver(std::move(batch), generation, last && reportFinished);
                    },
                    Qt::QueuedConnection);
                batch = {};
                batch.reserve(kBatchSize);
            }
        }
        if (rows.empty() && reportFinished)
            QMetaObject::invokeMethod(this, [this, generation]() { deliver({}, generation, true); },
                                      Qt::QueuedConnection);
    });
}

void LabelStatsLoader::deliver(std::vector<RowStats> batch, std::uint64_t generation, bool last)
{
    if (generation != m_generation)
        return;
    if (!batch.empty())
        emit statsReady(batch);
    if (last) {
        m_running = false;
        emit finished();
    }
}

ImageStats LabelStatsLoader::compute(const Source& source, const data::ClassSchema& schema)
{
    ImageStats stats;
    stats.ready = true;
    std::error_code error;
    if (!std::filesystem::exists(source.image, error)) {
        stats.problem = QObject::tr("%1: image file not found").arg(pathText(source.image));
        return stats;
    }
    // Only the header is read here: full decodes are for the visible thumbnails.
    QImageReader reader(pathText(source.image));
    const QSize size = reader.size();
    if (!size.isValid()) {
        stats.problem = QObject::tr("%1: cannot read image (%2)").arg(pathText(source.image), reader.errorString());
        return stats;
    }
    if (source.labelMap.empty() || !std::filesystem::exists(source.labelMap, error))
        return stats;
    try {
        const cv::Mat labels =
            data::readLabelMap(source.labelMap, schema, cv::Size(size.width(), size.height()));
        const data::LabelCounts counts = data::countLabels(labels);
        for (int id = 0; id < data::kUnlabelled; ++id)
            stats.classes[id] = counts[id] > 0;
        stats.labelledFraction = data::labelledFraction(counts);
    } catch (const std::exception& error) {
        stats.problem = QString::fromStdString(error.what());
    }
    return stats;
}

}  // namespace segstudio::ui::browser
