#include "Commands.h"
#include "PredictionMaps.h"

#include "data/labels/DataError.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/OutputFolder.h"
#include "data/project/PredictionCache.h"
#include "data/project/Project.h"
#include "engine/inference/Predictor.h"

#include <opencv2/core.hpp>

#include <filesystem>
#include <iostream>
#include <optional>

namespace segstudio::cli {

void requireSameClasses(int checkpointClasses, const data::ClassSchema& schema, const std::string& checkpoint,
                        const std::string& projectFile)
{
    if (checkpointClasses != schema.maxId() + 1)
        throw data::DataError(checkpoint, "the checkpoint knows " + std::to_string(checkpointClasses) + " classes, the project " +
                                              projectFile + " has " + std::to_string(schema.maxId() + 1) +
                                              ": it was trained on another class list");
}

metrics::EvaluationReport evaluateProjectSplit(const std::string& checkpoint, const std::string& projectFile,
                                               const std::string& splitName, const engine::EvaluateOptions& options,
                                               const std::string& predictionsDir)
{
    namespace fs = std::filesystem;
    const auto split = data::splitFromString(splitName);
    if (!split)
        throw data::DataError({}, "unknown split '" + splitName + "' (use train, val or test)");
    const auto project = data::Project::load(projectFile);
    engine::Predictor predictor(checkpoint, options.device, options.threads, options.precision);
    requireSameClasses(predictor.classes(), project.schema(), checkpoint, projectFile);
    metrics::EvaluationReport report(predictor.classNames());
    std::vector<std::size_t> labelled;
    for (const std::size_t index : project.indicesOf(*split))
        if (fs::exists(project.labelMapPath(index)))
            labelled.push_back(index);
    // Never into the label folder it scores against, nor over a file SegStudio did not write.
    std::optional<data::OutputFolder> predictions;
    if (!predictionsDir.empty()) {
        predictions.emplace(predictionsDir, &project, "predictions");
        std::vector<std::string> names;
        for (const std::size_t index : labelled)
            for (std::string& name : data::PredictionCache::entryFileNames(data::PredictionCache::keyOf(project, index)))
                names.push_back(std::move(name));
        predictions->reserve(names);
    }
    for (std::size_t n = 0; n < labelled.size(); ++n) {
        const std::size_t index = labelled[n];
        const auto imageFile = project.imagePath(index);
        const cv::Mat image = data::readImageRgb(imageFile);
        const cv::Mat rgb = image.isContinuous() ? image : image.clone();
        const cv::Mat truth = data::readLabelMap(project.labelMapPath(index), project.schema(), rgb.size());
        const auto prediction = entryOf(predictor.predictWithConfidence(rgb.ptr<std::uint8_t>(), rgb.rows, rgb.cols), rgb);
        const cv::Mat& classes = prediction.classes;
        if (predictions) {
            const std::string key = data::PredictionCache::keyOf(project, index);
            predictions->requireFree(data::PredictionCache::entryFileNames(key));  // (the user's since the start?)
            data::PredictionCache::writeEntry(predictions->path(), key, prediction, project.schema());
            predictions->written(data::PredictionCache::entryFileNames(key));
        }
        const cv::Mat t = truth.isContinuous() ? truth : truth.clone();
        report.addImage(project.entry(index).image, t.ptr<std::uint8_t>(), classes.ptr<std::uint8_t>(), t.cols, t.rows);
        std::cout << "evaluated " << n + 1 << "/" << labelled.size() << " " << imageFile.string() << std::endl;
    }
    report.context() = {{"checkpoint", checkpoint}, {"project", projectFile}, {"split", splitName},
                        {"model", predictor.modelName()}};
    return report;
}

}  // namespace segstudio::cli
