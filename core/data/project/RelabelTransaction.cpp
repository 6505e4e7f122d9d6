#include "RelabelTransaction.h"

#include "data/labels/LabelMapIO.h"
#include "Project.h"

#include <algorithm>
#include <system_error>

namespace segstudio::data {
inline namespace project {

namespace fs = std::filesystem;

RelabelTransaction::RelabelTransaction(fs::path folder) : m_folder(std::move(folder)) {}

RelabelTransaction::Outcome RelabelTransaction::apply(const Project& project, const DatasetRelabeler& relabeler,
                                                      const ClassSchema& before, const ClassSchema& after,
                                                      const Progress& progress)
{
    m_before = before;
    m_after = after;
    m_relabeler = relabeler;
    m_maps.emplace(m_folder, project.root(), before);
    m_maps->begin();

    // Phase 1: relabel in memory and keep both versions; the maps themselves are not touched yet.
    Outcome outcome;
    const std::size_t total = project.size();
    std::error_code error;
    for (std::size_t i = 0; i < total; ++i) {
        if (progress && !progress(i, 2 * total)) {
            outcome.stopped = true;
            return outcome;
        }
        const fs::path path = project.labelMapPath(i);
        if (!fs::exists(path, error))
            continue;
        cv::Mat labels = readLabelMap(path, before);
        const std::int64_t pixels = relabeler.apply(labels);
        if (pixels == 0)
            continue;
        m_maps->stage(i, path, labels, after);
        outcome.pixels += pixels;
    }
    // Phase 2: every backup is durable, so each map can now be replaced.
    const Outcome replaced = m_maps->commit([&](std::size_t done, std::size_t count) {
        return !progress || progress(total + done * total / std::max<std::size_t>(count, 1), 2 * total);
    });
    outcome.changed = replaced.changed;
    return outcome;
}

RelabelTransaction::Outcome RelabelTransaction::undo(const Progress& progress)
{
    return m_maps ? m_maps->undo(progress) : Outcome();
}

RelabelTransaction::Outcome RelabelTransaction::redo(const Project& project, const Progress& progress)
{
    return apply(project, m_relabeler, m_before, m_after, progress);
}

void RelabelTransaction::settle()
{
    if (m_maps)
        m_maps->settle();
}

bool RelabelTransaction::discard() const
{
    if (m_maps)
        return m_maps->discard();
    std::error_code error;
    fs::remove_all(m_folder, error);
    return true;
}

}  // namespace project
}  // namespace segstudio::data
