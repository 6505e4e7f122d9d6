#include "DatasetPacker.h"

#include "data/labels/DataError.h"
#include "DatasetStatistics.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/labels/ParallelBatches.h"
#include "pack/PackError.h"
#include "pack/PackWriter.h"

#include <opencv2/imgproc.hpp>

namespace segstudio::data {
inline namespace project {

namespace fs = std::filesystem;

namespace {

std::vector<std::size_t> packableEntries(const Project& project, Split split, const PackOptions& options)
{
    std::vector<std::size_t> chosen;
    for (std::size_t index : project.indicesOf(split)) {
        if (options.labelledOnly && project.entry(index).status == LabelStatus::Unlabelled)
            continue;
        if (fs::exists(project.labelMapPath(index)))
            chosen.push_back(index);
    }
    return chosen;
}

pack::PackSpec packSpecFor(const Project& project, const PackOptions& options)
{
    pack::PackSpec spec;
    spec.height = std::uint32_t(options.height);
    spec.width = std::uint32_t(options.width);
    spec.channels = 3;
    // Class ids index the table directly, so gaps in the schema become unnamed, empty slots.
    spec.classes.resize(std::size_t(project.schema().maxId() + 1));
    for (const LabelClass& labelClass : project.schema().classes())
        spec.classes[std::size_t(labelClass.id)].name = labelClass.name;
    return spec;
}

cv::Mat resizedTo(const cv::Mat& mat, cv::Size size, int interpolation)
{
    if (mat.size() == size)
        return mat;
    cv::Mat out;
    cv::resize(mat, out, size, 0, 0, interpolation);
    return out;
}

}  // namespace

std::size_t DatasetPacker::pack(const Project& project, Split split, const fs::path& outFile, const PackOptions& options,
                                const std::function<void(std::size_t, std::size_t)>& progress)
{
    if (options.height <= 0 || options.width <= 0)
        throw DataError(outFile.string(), "the pack size must be positive");
    if (project.schema().empty())
        throw DataError(project.file().string(), "the project has no classes");
    const std::vector<std::size_t> chosen = packableEntries(project, split, options);
    if (chosen.empty())
        throw DataError(project.file().string(), "no labelled images in the '" + toString(split) + "' split to pack");

    const cv::Size size(options.width, options.height);
    try {
        pack::PackWriter writer(outFile.string(), packSpecFor(project, options), chosen.size());
        DatasetStatistics statistics;
        std::vector<cv::Mat> images(chosen.size()), labelMaps(chosen.size());
        ParallelBatches::run(
            chosen.size(),
            [&](std::size_t n) {
                const cv::Mat image = readImageRgb(project.imagePath(chosen[n]));
                const cv::Mat labels = readLabelMap(project.labelMapPath(chosen[n]), project.schema(), image.size());
                const int shrink = image.cols > size.width ? cv::INTER_AREA : cv::INTER_LINEAR;
                images[n] = resizedTo(image, size, shrink).clone();  // clone: continuous rows
                labelMaps[n] = resizedTo(labels, size, cv::INTER_NEAREST).clone();
            },
            [&](std::size_t n) {
                statistics.addLabelMap(labelMaps[n]);
                writer.write(n, images[n].ptr<std::uint8_t>(), labelMaps[n].ptr<std::uint8_t>());
                images[n].release();
                labelMaps[n].release();
                if (progress)
                    progress(n + 1, chosen.size());
            });
        std::vector<pack::PackClass> classes = writer.spec().classes;
        for (std::size_t id = 0; id < classes.size(); ++id) {
            classes[id].pixelCount = statistics.classPixels(int(id));
            classes[id].imagePixelCount = statistics.imagePixels(int(id));
        }
        writer.setClasses(std::move(classes));
        writer.finish();
    } catch (const pack::PackError& error) {
        throw DataError(error.path(), error.problem());  // (what() names the path already)
    }
    return chosen.size();
}

}  // namespace project
}  // namespace segstudio::data
