#include "PredictionBatch.h"

#include "data/labels/DataError.h"
#include "data/labels/LabelClass.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/PredictionCache.h"
#include "data/project/Project.h"

#include <system_error>

namespace segstudio::paint {

namespace fs = std::filesystem;

PredictionBatch::PredictionBatch(fs::path backupFolder) : m_folder(std::move(backupFolder)) {}

std::int64_t PredictionBatch::apply(const data::Project& project, const data::PredictionCache& cache,
                                    const std::vector<std::size_t>& indices, const AcceptOptions& options,
                                    const WriteGuard& guard, const std::function<bool(std::size_t, std::size_t)>& progress)
{
    m_maps.emplace(m_folder, project.root(), project.schema());
    m_maps->begin();
    // Phase 1: every accepted map computed and kept beside the old one; no label map touched.
    std::int64_t pixels = 0;
    std::vector<std::size_t> staged;
    const std::size_t total = indices.size();
    for (std::size_t n = 0; n < total; ++n) {
        if (progress && !progress(n, 2 * total))
            return 0;
        const std::size_t index = indices[n];
        const auto prediction = cache.load(data::PredictionCache::keyOf(project, index), project.schema(), {});
        if (!prediction)
            continue;
        const fs::path labelMap = project.labelMapPath(index);
        std::error_code error;
        cv::Mat labels = fs::exists(labelMap, error)
                             ? data::readLabelMap(labelMap, project.schema(), prediction->classes.size())
                             : cv::Mat(prediction->classes.size(), CV_8UC1, cv::Scalar(data::kUnlabelled));
        const std::int64_t count = acceptPrediction(labels, prediction->classes, prediction->confidence, options, guard);
        if (count == 0)
            continue;
        m_maps->stage(index, labelMap, labels, project.schema());
        staged.push_back(index);
        pixels += count;
    }
    // Phase 2: the maps are replaced; a crash from here on is rolled back on the next open.
    m_maps->commit([&](std::size_t done, std::size_t count) {
        return !progress || progress(total + done * total / std::max<std::size_t>(count, 1), 2 * total);
    });
    m_maps->settle();  // the project file names no class the maps lack: nothing else to agree on
    m_changedIndices = staged;
    return pixels;
}

std::vector<std::size_t> PredictionBatch::finish(const data::LabelMapTransaction::Outcome& outcome)
{
    if (!outcome.failed.empty())
        throw data::DataError(outcome.failed.front().message,
                              std::to_string(outcome.failed.size()) + " label map(s) could not be written back; the rest were; "
                                                                    "their backups are kept in " + m_folder.string());
    m_maps->settle();
    return outcome.kept;
}

std::vector<std::size_t> PredictionBatch::undo() { return m_maps ? finish(m_maps->undo()) : std::vector<std::size_t>(); }

std::vector<std::size_t> PredictionBatch::redo() { return m_maps ? finish(m_maps->reapply()) : std::vector<std::size_t>(); }

bool PredictionBatch::discard() const
{
    if (m_maps)
        return m_maps->discard();
    std::error_code error;
    fs::remove_all(m_folder, error);
    return true;
}

}  // namespace segstudio::paint
