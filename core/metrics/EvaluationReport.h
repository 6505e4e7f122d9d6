#pragma once

#include "ConfusionCounts.h"
#include "ImageScore.h"
#include "SegmentationMetrics.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace segstudio::metrics {

// MATLAB's evaluateSemanticSegmentation for one split and one checkpoint: the data set's
// metrics (global accuracy, mean class accuracy, mean IoU, frequency-weighted IoU, mean BF
// score), a per-class table (accuracy, IoU, mean BF score), the confusion matrix, and each
// image's scores. Accuracies and IoUs come from the summed confusion matrix; BF scores are per
// image, then averaged: a class's mean BF over the images where it has one, the data set's over
// the images' own means (both leave NaN out).
// Written by `segstudio-train evaluate --report` as JSON and CSV, read back by the GUI.
class EvaluationReport {
public:
    struct Image {
        std::string name;
        std::int64_t labelledPixels = 0;
        std::int64_t wrongPixels = 0;
        double globalAccuracy = 0.0;
        double meanIoU = 0.0;
        double meanBoundaryF1 = 0.0;
    };

    explicit EvaluationReport(std::vector<std::string> classNames);

    // Scores one image (width*height class ids each) and adds it.
    void addImage(const std::string& name, const std::uint8_t* truth, const std::uint8_t* predicted, int width, int height);
    void addImage(const std::string& name, const ImageScore& score);

    const std::vector<std::string>& classNames() const { return m_classNames; }
    int classes() const { return int(m_classNames.size()); }
    const ConfusionCounts& confusion() const { return m_confusion; }
    SegmentationMetrics metrics() const { return m_confusion.metrics(); }
    double meanBoundaryF1() const;
    std::vector<double> classMeanBoundaryF1() const;
    const std::vector<Image>& images() const { return m_images; }

    // Free-form facts of the evaluation (checkpoint, model, split…), kept in the JSON.
    nlohmann::json& context() { return m_context; }
    const nlohmann::json& context() const { return m_context; }

    nlohmann::json toJson() const;
    // Throws std::invalid_argument naming the missing or malformed member.
    static EvaluationReport fromJson(const nlohmann::json& json);
    std::string classesCsv() const;    // class, accuracy, IoU, mean BF score
    std::string imagesCsv() const;     // image, labelled pixels, wrong pixels, accuracy, mean IoU, mean BF
    std::string confusionCsv() const;  // counts; first row and column the class names

private:
    std::vector<std::string> m_classNames;
    ConfusionCounts m_confusion;
    std::vector<double> m_classBoundarySum;
    std::vector<int> m_classBoundaryImages;
    std::vector<Image> m_images;
    nlohmann::json m_context = nlohmann::json::object();
};

}  // namespace segstudio::metrics
