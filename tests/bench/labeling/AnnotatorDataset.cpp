#include "AnnotatorDataset.h"

#include "data/labels/LabelMapIO.h"
#include "data/project/FrameSequence.h"
#include "data/project/Project.h"

#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <stdexcept>

namespace fs = std::filesystem;

namespace segstudio::bench {

namespace {

constexpr std::uint8_t kVoid = 255;

std::string sequenceOf(const fs::path& image)
{
    return data::FrameSequence::keyOf(image.filename().string()).sequence;
}

// CamVid's frames are named <sequence>_<number>: 0006R0_f00930.png is of sequence 0006R0.
bool ofSequence(const fs::path& image, const std::string& id)
{
    return image.filename().string().rfind(id, 0) == 0;
}

}  // namespace

AnnotatorDataset AnnotatorDataset::segnet(const fs::path& folder, const Selection& selection)
{
    const fs::path images = folder / selection.split, truths = folder / (selection.split + "annot");
    if (!fs::is_directory(images) || !fs::is_directory(truths))
        throw std::runtime_error(folder.string() + " has no " + selection.split + "/ and " + selection.split + "annot/");
    std::vector<Frame> all;
    for (const auto& entry : fs::directory_iterator(images))
        if (entry.path().extension() == ".png")
            all.push_back({entry.path().stem().string(), entry.path(), truths / entry.path().filename()});
    AnnotatorDataset dataset;
    dataset.m_schema = data::ClassSchema::camVid();
    dataset.select(std::move(all), selection);
    return dataset;
}

AnnotatorDataset AnnotatorDataset::project(const fs::path& file, const Selection& selection)
{
    const data::Project project = data::Project::load(file);
    const auto split = data::splitFromString(selection.split);
    if (!split)
        throw std::runtime_error("no split named " + selection.split + " (train, val, test, unassigned)");
    std::vector<Frame> all;
    for (const std::size_t index : project.indicesOf(*split))
        if (fs::exists(project.labelMapPath(index)))
            all.push_back({project.imagePath(index).stem().string(), project.imagePath(index), project.labelMapPath(index)});
    if (all.empty())
        throw std::runtime_error(file.string() + ": no labelled image in its " + selection.split + " split");
    AnnotatorDataset dataset;
    dataset.m_schema = project.schema();
    dataset.m_fromProject = true;
    dataset.select(std::move(all), selection);
    return dataset;
}

void AnnotatorDataset::select(std::vector<Frame> all, const Selection& selection)
{
    if (!selection.sequenceId.empty())
        all.erase(std::remove_if(all.begin(), all.end(),
                                 [&](const Frame& f) { return !ofSequence(f.image, selection.sequenceId); }),
                  all.end());
    std::sort(all.begin(), all.end(), [](const Frame& a, const Frame& b) { return a.image.filename() < b.image.filename(); });
    std::vector<Frame> chosen = all;
    if (selection.sequence) {
        // The first sequence (by id) with skip + count frames, else the longest.
        std::vector<std::string> names;
        for (const Frame& f : all)
            names.push_back(f.image.filename().string());
        const data::FrameSequence sequences(names);
        const std::vector<std::size_t>* best = nullptr;
        for (const auto& sequence : sequences.sequences()) {
            if (selection.count > 0 && int(sequence.size()) >= selection.skip + selection.count) {
                best = &sequence;
                break;
            }
            if (!best || sequence.size() > best->size())
                best = &sequence;
        }
        chosen.clear();
        if (best) {
            m_sequenceId = selection.sequenceId.empty() ? sequenceOf(all[best->front()].image) : selection.sequenceId;
            for (const std::size_t i : *best)
                chosen.push_back(all[i]);
        }
    }
    chosen.erase(chosen.begin(), chosen.begin() + std::min<std::ptrdiff_t>(selection.skip, std::ptrdiff_t(chosen.size())));
    if (selection.count > 0 && int(chosen.size()) > selection.count)
        chosen.resize(std::size_t(selection.count));
    m_frames = std::move(chosen);
}

cv::Mat AnnotatorDataset::truthOf(const Frame& frame) const
{
    // A project's maps are indexed PNGs (their palette is the schema's colours): read as indices.
    cv::Mat truth = m_fromProject ? data::readLabelMap(frame.truth, m_schema)
                                  : cv::imread(frame.truth.string(), cv::IMREAD_UNCHANGED);
    if (truth.empty() || truth.type() != CV_8UC1)
        throw std::runtime_error(frame.truth.string() + ": not an 8-bit class map");
    truth.setTo(kVoid, truth >= classes());
    return truth;
}

}  // namespace segstudio::bench
