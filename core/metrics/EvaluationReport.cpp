#include "EvaluationReport.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace segstudio::metrics {

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// JSON has no NaN: undefined scores are null.
nlohmann::json number(double value) { return std::isnan(value) ? nlohmann::json() : nlohmann::json(value); }

double numberOf(const nlohmann::json& value) { return value.is_null() ? kNaN : value.get<double>(); }

std::string csvNumber(double value)
{
    if (std::isnan(value))
        return {};
    std::ostringstream text;
    text.precision(6);
    text << value;
    return text.str();
}

std::string csvText(const std::string& text)
{
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (const char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

const nlohmann::json& member(const nlohmann::json& json, const char* name)
{
    if (!json.is_object() || !json.contains(name))
        throw std::invalid_argument(std::string("evaluation report: no \"") + name + "\"");
    return json.at(name);
}

}  // namespace

EvaluationReport::EvaluationReport(std::vector<std::string> classNames)
    : m_classNames(std::move(classNames)), m_confusion(int(m_classNames.size())),
      m_classBoundarySum(m_classNames.size(), 0.0), m_classBoundaryImages(m_classNames.size(), 0)
{
}

void EvaluationReport::addImage(const std::string& name, const std::uint8_t* truth, const std::uint8_t* predicted, int width,
                                int height)
{
    addImage(name, scoreImage(truth, predicted, width, height, classes()));
}

void EvaluationReport::addImage(const std::string& name, const ImageScore& score)
{
    m_confusion.add(score.confusion);
    for (std::size_t c = 0; c < m_classBoundarySum.size() && c < score.classBoundaryF1.size(); ++c)
        if (!std::isnan(score.classBoundaryF1[c])) {
            m_classBoundarySum[c] += score.classBoundaryF1[c];
            ++m_classBoundaryImages[c];
        }
    m_images.push_back({name, score.labelledPixels(), score.wrongPixels(), score.globalAccuracy, score.meanIoU,
                        score.meanBoundaryF1});
}

double EvaluationReport::meanBoundaryF1() const
{
    std::vector<double> means;
    means.reserve(m_images.size());
    for (const auto& image : m_images)
        means.push_back(image.meanBoundaryF1);
    return meanOfDefined(means);
}

std::vector<double> EvaluationReport::classMeanBoundaryF1() const
{
    std::vector<double> means(m_classBoundarySum.size(), kNaN);
    for (std::size_t c = 0; c < means.size(); ++c)
        if (m_classBoundaryImages[c] > 0)
            means[c] = m_classBoundarySum[c] / m_classBoundaryImages[c];
    return means;
}

nlohmann::json EvaluationReport::toJson() const
{
    const auto dataset = metrics();
    const auto boundary = classMeanBoundaryF1();
    nlohmann::json classTable = nlohmann::json::array();
    for (std::size_t c = 0; c < m_classNames.size(); ++c)
        classTable.push_back({{"name", m_classNames[c]},
                              {"accuracy", number(dataset.classAccuracy[c])},
                              {"iou", number(dataset.classIoU[c])},
                              {"mean_bf_score", number(boundary[c])},
                              {"bf_images", m_classBoundaryImages[c]}});
    nlohmann::json confusion = nlohmann::json::array();
    for (int t = 0; t < classes(); ++t) {
        nlohmann::json row = nlohmann::json::array();
        for (int p = 0; p < classes(); ++p)
            row.push_back(m_confusion.at(t, p));
        confusion.push_back(row);
    }
    nlohmann::json images = nlohmann::json::array();
    for (const auto& image : m_images)
        images.push_back({{"name", image.name},
                          {"labelled_pixels", image.labelledPixels},
                          {"wrong_pixels", image.wrongPixels},
                          {"global_accuracy", number(image.globalAccuracy)},
                          {"mean_iou", number(image.meanIoU)},
                          {"mean_bf_score", number(image.meanBoundaryF1)}});
    return {{"context", m_context},
            {"global_accuracy", number(dataset.globalAccuracy)},
            {"mean_accuracy", number(dataset.meanClassAccuracy)},
            {"mean_iou", number(dataset.meanIoU)},
            {"weighted_iou", number(dataset.weightedIoU)},
            {"mean_bf_score", number(meanBoundaryF1())},
            {"bf_tolerance", "0.75% of the image diagonal"},
            {"classes", classTable},
            {"confusion", confusion},
            {"images", images}};
}

EvaluationReport EvaluationReport::fromJson(const nlohmann::json& json)
{
    try {
        std::vector<std::string> names;
        for (const auto& entry : member(json, "classes"))
            names.push_back(member(entry, "name").get<std::string>());
        EvaluationReport report(names);
        const auto& confusion = member(json, "confusion");
        if (confusion.size() != names.size())
            throw std::invalid_argument("evaluation report: the confusion matrix has " + std::to_string(confusion.size()) +
                                        " rows for " + std::to_string(names.size()) + " classes");
        for (std::size_t t = 0; t < names.size(); ++t) {
            if (confusion[t].size() != names.size())
                throw std::invalid_argument("evaluation report: confusion row " + std::to_string(t) + " has " +
                                            std::to_string(confusion[t].size()) + " entries");
            for (std::size_t p = 0; p < names.size(); ++p)
                report.m_confusion.addCount(int(t), int(p), confusion[t][p].get<std::int64_t>());
        }
        const auto& classTable = member(json, "classes");
        for (std::size_t c = 0; c < names.size(); ++c) {
            report.m_classBoundaryImages[c] = member(classTable[c], "bf_images").get<int>();
            const double mean = numberOf(member(classTable[c], "mean_bf_score"));
            report.m_classBoundarySum[c] = std::isnan(mean) ? 0.0 : mean * report.m_classBoundaryImages[c];
        }
        for (const auto& image : member(json, "images"))
            report.m_images.push_back({member(image, "name").get<std::string>(),
                                       member(image, "labelled_pixels").get<std::int64_t>(),
                                       member(image, "wrong_pixels").get<std::int64_t>(),
                                       numberOf(member(image, "global_accuracy")), numberOf(member(image, "mean_iou")),
                                       numberOf(member(image, "mean_bf_score"))});
        if (json.contains("context"))
            report.m_context = json.at("context");
        return report;
    } catch (const nlohmann::json::exception& error) {
        throw std::invalid_argument(std::string("evaluation report: ") + error.what());
    }
}

std::string EvaluationReport::classesCsv() const
{
    const auto dataset = metrics();
    const auto boundary = classMeanBoundaryF1();
    std::string csv = "class,accuracy,iou,mean_bf_score\n";
    for (std::size_t c = 0; c < m_classNames.size(); ++c)
        csv += csvText(m_classNames[c]) + "," + csvNumber(dataset.classAccuracy[c]) + "," + csvNumber(dataset.classIoU[c]) + "," +
               csvNumber(boundary[c]) + "\n";
    return csv;
}

std::string EvaluationReport::imagesCsv() const
{
    std::string csv = "image,labelled_pixels,wrong_pixels,global_accuracy,mean_iou,mean_bf_score\n";
    for (const auto& image : m_images)
        csv += csvText(image.name) + "," + std::to_string(image.labelledPixels) + "," + std::to_string(image.wrongPixels) + "," +
               csvNumber(image.globalAccuracy) + "," + csvNumber(image.meanIoU) + "," + csvNumber(image.meanBoundaryF1) + "\n";
    return csv;
}

std::string EvaluationReport::confusionCsv() const
{
    std::string csv = "truth\\predicted";
    for (const auto& name : m_classNames)
        csv += "," + csvText(name);
    csv += "\n";
    for (int t = 0; t < classes(); ++t) {
        csv += csvText(m_classNames[std::size_t(t)]);
        for (int p = 0; p < classes(); ++p)
            csv += "," + std::to_string(m_confusion.at(t, p));
        csv += "\n";
    }
    return csv;
}

}  // namespace segstudio::metrics
