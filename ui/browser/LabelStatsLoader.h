#pragma once

#include "ImageSource.h"
#include "ImageStats.h"
#include "data/labels/ClassSchema.h"

#include <QObject>
#include <QThreadPool>
#include <atomic>
#include <filesystem>
#include <memory>
#include <vector>

namespace segstudio::ui::browser {

// Computes ImageStats for every image of a project on a worker thread and hands them back in
// batches, so that a project of 10,000 images opens at once and its counts fill in afterwards.
// Requirements: used from the GUI thread only; the sources are a copy, so the project may change
//   while it runs (results for rows that moved are refreshed by the caller).
// Guarantees: statsReady is emitted on the GUI thread, only for the latest start(); the destructor
//   cancels and waits for the worker, so no result arrives after it.
class LabelStatsLoader : public QObject {
    Q_OBJECT

public:
    using Source = ImageSource;
    struct RowStats {
        int row = 0;
        ImageStats stats;
    };

    explicit LabelStatsLoader(QObject* parent = nullptr);
    ~LabelStatsLoader() override;

    void start(std::vector<Source> sources, data::ClassSchema schema);
    void refresh(int row);  // recomputes one row, e.g. after the editor saved its label map
    void cancel();
    bool isRunning() const { return m_running; }

    // The work for one image, without threads: probes the image header and reads the label map
    // (a missing label map means "nothing labelled", not a problem).
    static ImageStats compute(const Source& source, const data::ClassSchema& schema);

signals:
    void statsReady(const std::vector<segstudio::ui::browser::LabelStatsLoader::RowStats>& batch);
    void finished();

private:
    void runBatches(std::vector<int> rows, std::uint64_t generation, bool reportFinished);
    void deliver(std::vector<RowStats> batch, std::uint64_t generation, bool last);

    QThreadPool m_pool;
    std::shared_ptr<std::vector<Source>> m_sources;
    std::shared_ptr<data::ClassSchema> m_schema;
    std::shared_ptr<std::atomic_bool> m_cancelled;
    std::uint64_t m_generation = 0;
    bool m_running = false;
};

}  // namespace segstudio::ui::browser
