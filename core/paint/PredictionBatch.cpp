#include "PredictionBatch.h"

#include "data/DataError.h"
#include "data/LabelClass.h"
#include "data/LabelMapIO.h"
#include "data/PredictionCache.h"
#include "data/Project.h"
#include "run/AtomicFile.h"

#include <system_error>

namespace segstudio::paint {

namespace fs = std::filesystem;

PredictionBatch::PredictionBatch(fs::path backupFolder) : m_folder(std::move(backupFolder)) {}

std::int64_t PredictionBatch::apply(const data::Project& project, const data::PredictionCache& cache,
                                    const std::vector<std::size_t>& indices, const AcceptOptions& options,
                                    const WriteGuard& guard, const std::function<bool(std::size_t, std::size_t)>& progress)
{
    std::error_code error;
    fs::create_directories(m_folder, error);
    if (error)
        throw data::DataError(m_folder.string(), "cannot create the backup folder: " + error.message());
    std::int64_t pixels = 0;
    for (std::size_t n = 0; n < indices.size(); ++n) {
        if (progress && !progress(n, indices.size()))
            break;
        const std::size_t index = indices[n];
        const std::string key = data::PredictionCache::keyOf(project, index);
        const auto prediction = cache.load(key, project.schema(), {});
        if (!prediction)
            continue;
        Change change{index, project.labelMapPath(index), {}, m_folder / (key + ".after.png")};
        const bool existed = fs::exists(change.labelMap);
        cv::Mat labels = existed ? data::readLabelMap(change.labelMap, project.schema(), prediction->classes.size())
                                 : cv::Mat(prediction->classes.size(), CV_8UC1, cv::Scalar(data::kUnlabelled));
        const std::int64_t count = acceptPrediction(labels, prediction->classes, prediction->confidence, options, guard);
        if (count == 0)
            continue;
        // The old map is kept before the new one replaces it: at any moment the backup can undo.
        if (existed) {
            change.before = m_folder / (key + ".before.png");
            run::writeFileAtomically(change.before, run::readFile(change.labelMap));
        }
        fs::create_directories(change.labelMap.parent_path(), error);
        data::writeLabelMap(change.labelMap, labels, project.schema());
        run::writeFileAtomically(change.after, run::readFile(change.labelMap));
        m_changes.push_back(change);
        m_changedIndices.push_back(index);
        pixels += count;
    }
    if (progress)
        progress(indices.size(), indices.size());
    return pixels;
}

namespace {

// The bytes of a file, empty when it does not exist.
std::string bytesOf(const fs::path& file) { return fs::exists(file) ? run::readFile(file) : std::string(); }

}  // namespace

std::vector<std::size_t> PredictionBatch::undo() const
{
    std::vector<std::size_t> kept;
    for (auto change = m_changes.rbegin(); change != m_changes.rend(); ++change) {
        if (bytesOf(change->labelMap) != run::readFile(change->after)) {
            kept.push_back(change->index);  // labelled since: the user's work stays
            continue;
        }
        if (change->before.empty()) {
            std::error_code error;
            fs::remove(change->labelMap, error);
            if (error)
                throw data::DataError(change->labelMap.string(), "cannot remove: " + error.message());
        } else {
            run::writeFileAtomically(change->labelMap, run::readFile(change->before));
        }
    }
    return kept;
}

std::vector<std::size_t> PredictionBatch::redo() const
{
    std::vector<std::size_t> kept;
    for (const auto& change : m_changes) {
        const std::string expected = change.before.empty() ? std::string() : run::readFile(change.before);
        if (bytesOf(change.labelMap) != expected) {
            kept.push_back(change.index);
            continue;
        }
        run::writeFileAtomically(change.labelMap, run::readFile(change.after));
    }
    return kept;
}

void PredictionBatch::discard() const
{
    std::error_code error;
    fs::remove_all(m_folder, error);  // only backups: nothing to report if they linger
}

}  // namespace segstudio::paint
