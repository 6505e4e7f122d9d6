#include "PropagationBatch.h"

#include "data/project/FrameSequence.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelClass.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/PredictionCache.h"
#include "data/project/Project.h"
#include "PredictionCorrector.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <exception>
#include <system_error>

namespace segstudio::paint {

namespace fs = std::filesystem;

namespace {

// A frame's labels on disk; empty when it has no map or no labelled pixel in it.
cv::Mat labelsOnDisk(const data::Project& project, std::size_t index)
{
    const fs::path labelMap = project.labelMapPath(index);
    std::error_code error;
    if (!fs::exists(labelMap, error))
        return {};
    cv::Mat labels = data::readLabelMap(labelMap, project.schema());
    return cv::countNonZero(labels != data::kUnlabelled) > 0 ? labels : cv::Mat();
}

bool markedLabelled(data::LabelStatus status)
{
    return status == data::LabelStatus::Labelled || status == data::LabelStatus::Reviewed;
}

// The frame before the one at hand, as far as it has been looked at: a frame nobody asked for is
// read only when the frame after it needs its labels.
struct Previous {
    std::size_t index = 0;
    cv::Mat labels;  // empty: none (once read)
    cv::Mat image;  // empty: not read yet
    bool read = false;
    bool onDisk = false;  // its labels are the user's (on disk), not carried by this batch
    // The model corrected by the frame on disk that starts this chain, shared along it (issue
    // 61.2); null: none (no cache, or the cache has no scores of that frame).
    std::shared_ptr<const PredictionCorrector> corrector;
};

// The cache's prediction of a frame; nullopt when it has none. A prediction that cannot be read is
// only a lost hint, not a reason to stop carrying labels.
std::optional<data::PredictionCache::Entry> cachedPrediction(const data::PredictionCache* cache,
                                                             const data::Project& project, std::size_t index,
                                                             cv::Size size)
{
    if (!cache)
        return std::nullopt;
    try {
        return cache->load(data::PredictionCache::keyOf(project, index), project.schema(), size);
    } catch (const std::exception&) { }
    return std::nullopt;
}

// The model's view of a frame, corrected by the chain's labelled frame where there is a corrector
// and the cache has the frame's scores.
LabelPropagator::Prediction predictionOf(const data::PredictionCache* cache, const data::Project& project,
                                         std::size_t index, const cv::Mat& image, const PredictionCorrector* corrector,
                                         PropagationBatch::Summary& summary)
{
    const auto entry = cachedPrediction(cache, project, index, image.size());
    if (!entry)
        return {};
    if (corrector && !entry->scores.empty()) {
        try {
            const auto corrected = corrector->correct(image, entry->scores);
            ++summary.corrected;
            return {corrected.classes, corrected.confidence};
        } catch (const std::exception&) { }  // (another model's classes): a hint lost, the plain prediction
    }
    return {entry->classes, entry->confidence};
}

// What the model got wrong on a frame the user labelled, learnt for the frames after it.
std::shared_ptr<const PredictionCorrector> correctorOf(const data::PredictionCache* cache, const data::Project& project,
                                                       const Previous& labelled)
{
    const auto entry = cachedPrediction(cache, project, labelled.index, labelled.image.size());
    if (!entry || entry->scores.empty())
        return nullptr;
    try {
        auto corrector = std::make_shared<PredictionCorrector>();
        corrector->learn(project.entry(labelled.index).image, labelled.image, entry->scores, labelled.labels);
        return corrector->isReady() ? corrector : nullptr;
    } catch (const std::exception&) {  // a hint lost, not a reason to stop carrying labels
        return nullptr;
    }
}

// What the frame at `index` gets from the frame before it: nothing (its reason counted in
// `summary`, `previous` updated for the frame after it) or the carried labels and its image.
struct Carried {
    LabelPropagator::Result result;
    cv::Mat image;
    std::shared_ptr<const PredictionCorrector> corrector;  // the chain's
};

std::optional<Carried> carryFromPrevious(const data::Project& project, std::size_t index, std::optional<Previous>& previous,
                                         const data::PredictionCache* cache, const LabelPropagator& propagator,
                                         PropagationBatch::Summary& summary)
{
    cv::Mat own = labelsOnDisk(project, index);
    if (!own.empty() || markedLabelled(project.entry(index).status)) {
        ++summary.labelled;  // never written: a source for the frame after it
        previous = Previous {index, std::move(own), {}, true, true, nullptr};
        return std::nullopt;
    }
    if (previous && !previous->read) {
        previous->labels = labelsOnDisk(project, previous->index);
        previous->read = true;
    }
    if (!previous || previous->labels.empty()) {
        ++summary.noSource;
        previous.reset();  // this one has nothing to pass on either
        return std::nullopt;
    }
    if (previous->image.empty())
        previous->image = data::readImageRgb(project.imagePath(previous->index));
    cv::Mat image = data::readImageRgb(project.imagePath(index));
    if (image.size() != previous->image.size() || previous->labels.size() != previous->image.size()) {
        ++summary.otherSize;
        previous.reset();
        return std::nullopt;
    }
    if (previous->onDisk && !previous->corrector)
        previous->corrector = correctorOf(cache, project, *previous);
    const LabelPropagator::Result result =
        propagator.propagate(previous->image, previous->labels, image, cv::Mat(), WriteGuard(),
                             predictionOf(cache, project, index, image, previous->corrector.get(), summary));
    if (result.carried == 0 && result.filledByModel == 0) {
        ++summary.nothingCarried;
        previous.reset();
        return std::nullopt;
    }
    return Carried {result, std::move(image), previous->corrector};
}

}  // namespace

PropagationBatch::PropagationBatch(fs::path backupFolder) : m_folder(std::move(backupFolder)) { }

std::vector<std::size_t> PropagationBatch::framesFor(const data::Project& project,
                                                     const std::vector<std::size_t>& selection)
{
    std::vector<std::size_t> frames;
    for (std::size_t index : selection)
        if (index < project.size())
            frames.push_back(index);
    if (frames.size() == 1)
        frames = data::FrameSequence(project).sequenceOf(frames.front());
    std::sort(frames.begin(), frames.end());
    frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
    return frames;
}

PropagationBatch::Summary PropagationBatch::apply(const data::Project& project, const std::vector<std::size_t>& frames,
                                                  const data::PredictionCache* cache,
                                                  const LabelPropagator::Parameters& parameters,
                                                  const Progress& progress)
{
    m_maps.emplace(m_folder, project.root(), project.schema());
    m_maps->begin();
    Summary summary;
    std::vector<char> asked(project.size(), 0);
    for (std::size_t index : frames)
        if (index < project.size() && !asked[index]) {
            asked[index] = 1;
            ++summary.asked;
        }
    const std::size_t total = summary.asked;
    const auto goOn = [&](std::size_t done) { return !progress || progress(done, 2 * total); };

    // Phase 1: every carried map computed and kept beside the old one, frame after frame along each
    // sequence; no label map touched, so stopping here changes nothing.
    const LabelPropagator propagator(parameters);
    std::vector<std::size_t> staged;
    std::size_t done = 0;
    const data::FrameSequence projectSequences(project);  // sequences() refers into it
    for (const std::vector<std::size_t>& sequence : projectSequences.sequences()) {
        std::optional<Previous> previous;
        for (const std::size_t index : sequence) {
            if (!asked[index]) {
                previous = Previous {index, {}, {}, false, true, nullptr};
                continue;
            }
            if (!goOn(done++)) {
                summary.stopped = true;
                return summary;
            }
            std::optional<Carried> carried = carryFromPrevious(project, index, previous, cache, propagator, summary);
            if (!carried)
                continue;
            const LabelPropagator::Result& result = carried->result;
            m_maps->stage(index, project.labelMapPath(index), result.labels, project.schema());
            staged.push_back(index);
            summary.pixels += std::int64_t(result.labels.total());
            summary.carried += result.carried;
            summary.filledByModel += result.filledByModel;
            summary.disagree += result.disagree;
            // The next frame's source, with the chain's corrector.
            previous = Previous {index, result.labels, std::move(carried->image), true, false, carried->corrector};
        }
    }
    if (!goOn(total)) {
        summary.stopped = true;
        return summary;
    }
    if (staged.empty())
        return summary;
    // Phase 2: the maps are replaced; a crash from here on is rolled back on the next open, until
    // the caller settles the step.
    m_maps->commit([&](std::size_t replaced, std::size_t count) {
        return !progress || progress(total + replaced * total / std::max<std::size_t>(count, 1), 2 * total);
    });
    m_changedIndices = std::move(staged);
    return summary;
}

data::LabelMapTransaction::Outcome PropagationBatch::undo()
{
    return m_maps ? m_maps->undo() : data::LabelMapTransaction::Outcome();
}

data::LabelMapTransaction::Outcome PropagationBatch::redo()
{
    return m_maps ? m_maps->reapply() : data::LabelMapTransaction::Outcome();
}

void PropagationBatch::settle()
{
    if (m_maps)
        m_maps->settle();
}

bool PropagationBatch::discard() const
{
    if (m_maps)
        return m_maps->discard();
    std::error_code error;
    fs::remove_all(m_folder, error);
    return true;
}

}  // namespace segstudio::paint
