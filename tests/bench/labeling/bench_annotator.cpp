// How many actions a whole image costs with each labeling tool: the simulated annotator of
// docs/LABELING.md over a dataset in SegNet layout, with the project's model for the prediction
// and smart modes. Results and commands in docs/BENCHMARKS.md ("Labeling effort").
//   bench_annotator --dataset ../shared/datasets/camvid --split val --images 20
//       --modes superpixel,prediction,smart,grabcut --checkpoint RUN --json   (one command line)
// Along a sequence (issue 51): --sequence takes N consecutive frames of one sequence, in order, and
// the propagate mode starts each frame from the labels carried from the frame before as the
// annotator left it (paint::LabelPropagator), then finishes it with smart clicks:
//   bench_annotator --split val --images 20 --sequence --modes smart,propagate --checkpoint RUN --json
#include "AnnotatorDataset.h"
#include "PairedBootstrap.h"
#include "Percentile.h"
#include "SimulatedAnnotator.h"

#include "data/labels/ClassSchema.h"
#include "data/project/FrameSequence.h"
#include "data/labels/ImageIO.h"
#include "data/project/PredictionCache.h"
#include "paint/DenseFlow.h"
#include "paint/LabelPropagator.h"
#include "paint/PredictionCorrector.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <numeric>
#include <sstream>

namespace fs = std::filesystem;
using segstudio::bench::AnnotatorDataset;
using segstudio::bench::SimulatedAnnotator;
using segstudio::bench::PairedBootstrap;
using segstudio::bench::percentile;

namespace {

struct Arguments {
    std::string dataset = SEGSTUDIO_CAMVID_DIR;
    std::string project;
    std::string split = "val";
    int images = 20;
    int skip = 0;
    std::string modes = "superpixel,polygon,prediction,smart,grabcut";
    std::string checkpoint;
    std::string predictions;
    std::string adaptNorm;  // the prediction's batch norms adapted to the frames (predict --adapt-norm W or auto)
    std::string adaptShift;  // predict --adapt-shift, with --adapt-norm auto
    double target = 0.98;
    int maxActions = 300;
    int nocImages = 5;      // images whose objects get the NoC protocol (smart vs grabcut)
    int largeActions = 10;  // actions timed at 4000x3000 per mode (on the first image)
    std::string plot;
    bool json = false;
    bool sequence = false;
    std::string sequenceId;
    double thinRadius = 7.0;      // chosen on the tuning frames (docs/LABELING.md, issue 61)
    bool negativeAfterSpill = false;  // whole images: a Shift+click on a click's spill before the polygon
    int polygonAfterStall = 0;    // NoC: outline the object with the polygon after this many actions without progress
    double polygonBelowFirstIoU = SimulatedAnnotator::Options{}.polygonBelowFirstIoU;  // NoC: outline a simple
    int polygonAtMostVertices = SimulatedAnnotator::Options{}.polygonAtMostVertices;   // object its first click missed
    double polygonTolerance = 1.5;
    double thinElongation = 2.0;
    int strokeSlack = 3;
    bool noNegativeStrokes = false;
    int minConfidence = -1;
    int scribblePrior = 0;
    int flowSide = -1;
    double consistencyBeta = -1;  // propagate: LabelPropagator's forward-backward slack (< 0: its default)
    double steadySpread = -1;     // propagate: how much the flow may vary near a pixel (< 0: its default)
    double smallMotion = -2;      // propagate: LabelPropagator's smallMotion (< -1: its default; -1: never small)
    std::string flowPreset;
    int modelOverrules = -1;
    double superpixelVote = -1;
    bool chain = false;           // propagate: only the first frame annotated, the rest carried on unchecked
    int correctFrames = 1;        // propagate: the model corrected by the last N labelled frames (0: off), as the editor
    double regionShare = -1;       // propagate: PredictionCorrector's regionShare (-1: its default)
    double margin = -1;
    double smoothness = -1;
    double refiningSmoothness = -1;
    double reach = -1;
    double colourWeight = -1;
    double holesUpTo = -1;
    int colourFrom = -1;
    int colourRadius = -1;
};

std::vector<std::string> split(const std::string& text)
{
    std::vector<std::string> parts;
    std::stringstream stream(text);
    for (std::string part; std::getline(stream, part, ',');)
        if (!part.empty())
            parts.push_back(part);
    return parts;
}

// mIoU over the classes present in truth or labels, from the images' maps at one budget.
double meanIoU(const std::vector<cv::Mat>& labels, const std::vector<cv::Mat>& truths, int classes)
{
    std::vector<double> intersection(std::size_t(classes), 0), unite(std::size_t(classes), 0);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const cv::Mat counted = truths[i] != SimulatedAnnotator::kVoid;
        for (int c = 0; c < classes; ++c) {
            const cv::Mat inLabels = (labels[i] == c) & counted, inTruth = truths[i] == c;
            intersection[std::size_t(c)] += cv::countNonZero(inLabels & inTruth);
            unite[std::size_t(c)] += cv::countNonZero(inLabels | inTruth);
        }
    }
    double sum = 0;
    int present = 0;
    for (int c = 0; c < classes; ++c)
        if (unite[std::size_t(c)] > 0) {
            sum += intersection[std::size_t(c)] / unite[std::size_t(c)];
            ++present;
        }
    return present ? sum / present : 0;
}

// LabelPropagator's parameters: its defaults, with what the command line set.
segstudio::paint::LabelPropagator::Parameters propagationParameters(const Arguments& args)
{
    segstudio::paint::LabelPropagator::Parameters propagation;
    if (args.minConfidence >= 0)
        propagation.fillAbove = args.minConfidence;
    if (args.modelOverrules >= 0)
        propagation.modelOverrulesAbove = args.modelOverrules;
    if (args.superpixelVote >= 0)
        propagation.superpixelVote = args.superpixelVote;
    if (args.flowSide > 0)
        propagation.flow.maxSide = args.flowSide;
    if (args.consistencyBeta >= 0)
        propagation.consistencyBeta = args.consistencyBeta;
    if (args.steadySpread >= 0)
        propagation.steadySpread = args.steadySpread;
    if (args.smallMotion >= -1)
        propagation.smallMotion = args.smallMotion;
    if (!args.flowPreset.empty())
        propagation.flow.preset = args.flowPreset == "fast" ? segstudio::paint::DenseFlow::Preset::Fast
                                                            : segstudio::paint::DenseFlow::Preset::Medium;
    return propagation;
}

// The model's prediction of an image as LabelPropagator takes it, at the image's size: its classes
// and the cache's confidence, as the editor's Propagate passes them. (Before issue 61 this took the
// largest of the cached scores, which are -ln p: the least likely class's, so every pixel looked
// sure and the minimum confidence never counted.)
segstudio::paint::LabelPropagator::Prediction predictionOf(const SimulatedAnnotator::Image& image)
{
    segstudio::paint::LabelPropagator::Prediction prediction;
    if (image.predicted.empty() || image.confidence.empty())
        return prediction;
    const cv::Size size = image.rgb.size();
    cv::resize(image.predicted, prediction.classes, size, 0, 0, cv::INTER_NEAREST);
    cv::resize(image.confidence, prediction.confidence, size, 0, 0, cv::INTER_LINEAR);
    return prediction;
}

// The prediction cache the editor would show, made by the same `segstudio-train predict --confidence`.
void predictMissing(const Arguments& args, const std::vector<AnnotatorDataset::Frame>& frames, const fs::path& out)
{
    std::string command = std::string("\"") + SEGSTUDIO_TRAIN_BINARY + "\" predict --confidence --no-overlay --device cpu -c \"" +
                          args.checkpoint + "\" -o \"" + out.string() + "\"";
    if (!args.adaptNorm.empty())
        command += " --adapt-norm " + args.adaptNorm;
    if (!args.adaptShift.empty())
        command += " --adapt-shift " + args.adaptShift;
    int missing = 0;
    for (const auto& frame : frames)
        if (!fs::exists(segstudio::data::PredictionCache::scoresFileIn(out, frame.key))) {
            command += " \"" + frame.image.string() + "\"";
            ++missing;
        }
    if (missing == 0)
        return;
    std::cerr << "predicting " << missing << " images with " << args.checkpoint << "\n";
    if (std::system((command + " > /dev/null").c_str()) != 0)
        throw std::runtime_error("segstudio-train predict failed: " + command);
}

// Two benches on one checkpoint share its cache, and segstudio-train refuses a second writer of a
// folder: the second bench waits on a lock beside the folder, then finds the first's scores there.
void predict(const Arguments& args, const std::vector<AnnotatorDataset::Frame>& frames, const fs::path& out)
{
    const std::string lockPath = out.string() + ".lock";
    // Inherited by segstudio-train (no O_CLOEXEC): a bench killed mid-predict keeps the lock held
    // until its predict ends too, so the next bench does not start a second writer.
    const int lock = ::open(lockPath.c_str(), O_RDWR | O_CREAT, 0644);
    if (lock < 0 || ::flock(lock, LOCK_EX) != 0)
        throw std::runtime_error(lockPath + ": cannot lock the prediction cache: " + std::strerror(errno));
    try {
        predictMissing(args, frames, out);
    } catch (...) {
        ::close(lock);
        throw;
    }
    ::close(lock);
}

// The live classifier as it is after the user labelled the first N training images whole.
std::shared_ptr<const segstudio::paint::PixelClassifier> priorOf(const Arguments& args, int classes)
{
    AnnotatorDataset::Selection selection{"train", 0, args.scribblePrior, false, {}};
    const auto train = args.project.empty() ? AnnotatorDataset::segnet(args.dataset, selection)
                                            : AnnotatorDataset::project(args.project, selection);
    auto classifier = std::make_shared<segstudio::paint::PixelClassifier>();
    for (const auto& frame : train.frames())
        classifier->setExamples(frame.key, segstudio::paint::PixelFeatures(segstudio::data::readImageRgb(frame.image)),
                                train.truthOf(frame));
    std::cerr << "scribble prior: " << classifier->exampleCount() << " examples of " << train.frames().size()
              << " training images (" << classes << " classes)\n";
    return classifier;
}

struct ModeResult {
    std::vector<double> to90, to95, to98;
    std::vector<std::vector<cv::Mat>> atBudget;  // per budget, per image
    std::vector<double> latency, prepare, largeLatency, largePrepare;
    std::vector<double> noc, noc85;
    std::vector<double> onePixelIoU;      // per object: its IoU with its own outline moved a pixel
    std::vector<double> nocPixelTolerant; // NoC@90 of the objects whose one-pixel IoU is >= 0.9
    std::vector<double> residualOffset;   // objects never at 90 %: their best region's mean boundary offset, px
    std::map<int, std::vector<std::pair<double, double>>> nocByClass;  // class: (clicks to 85 %, to 90 %) per object
    // The outline bound: each NoC object outlined by a polygon from its own true outline (vertices
    // within the polygon tolerance, as a careful person places them): its IoU and vertices, per class.
    std::map<int, std::vector<std::pair<double, int>>> outlineByClass;
    std::map<int, std::vector<std::pair<double, int>>> scissorsByClass;  // the same with intelligent scissors
    std::vector<SimulatedAnnotator::Trace> traces;
    // Propagate: the propagation's time per frame, and how right each carried start was.
    std::vector<double> propagate, carriedAccuracy, largePropagate;
    std::vector<double> modelAccuracy;  // the model's own prediction of the same frames, for comparison
    std::vector<double> correctedAccuracy;  // the prediction corrected by the frames labelled before
};

// Connected true regions of at least minArea pixels, one class each.
std::vector<std::pair<cv::Mat, int>> objectsOf(const cv::Mat& truth, int minArea, int classes)
{
    std::vector<std::pair<cv::Mat, int>> objects;
    for (int c = 0; c < classes; ++c) {
        cv::Mat ids, stats, centroids;
        const int count = cv::connectedComponentsWithStats(truth == c, ids, stats, centroids, 4, CV_32S);
        for (int id = 1; id < count; ++id)
            if (stats.at<int>(id, cv::CC_STAT_AREA) >= minArea)
                objects.emplace_back(ids == id, c);
    }
    return objects;
}

void drawPlot(const std::map<std::string, ModeResult>& results, int maxActions, const std::string& file)
{
    const int width = 900, height = 560, left = 70, bottom = 60, top = 30, right = 170;
    cv::Mat plot(height, width, CV_8UC3, cv::Scalar(255, 255, 255));
    const auto px = [&](double actions) { return left + int(std::log1p(actions) / std::log1p(maxActions) * (width - left - right)); };
    const auto py = [&](double accuracy) { return height - bottom - int((accuracy - 0.5) / 0.5 * (height - top - bottom)); };
    cv::rectangle(plot, {left, top}, {width - right, height - bottom}, cv::Scalar(0, 0, 0), 1);
    for (double a : {0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0}) {
        cv::line(plot, {left, py(a)}, {width - right, py(a)}, cv::Scalar(220, 220, 220), 1);
        cv::putText(plot, cv::format("%.2f", a), {8, py(a) + 5}, cv::FONT_HERSHEY_SIMPLEX, 0.45, cv::Scalar(0, 0, 0), 1, cv::LINE_AA);
    }
    for (int n : {1, 2, 5, 10, 20, 50, 100, 300}) {
        if (n > maxActions)
            continue;
        cv::line(plot, {px(n), top}, {px(n), height - bottom}, cv::Scalar(235, 235, 235), 1);
        cv::putText(plot, std::to_string(n), {px(n) - 8, height - bottom + 20}, cv::FONT_HERSHEY_SIMPLEX, 0.45,
                    cv::Scalar(0, 0, 0), 1, cv::LINE_AA);
    }
    cv::putText(plot, "actions (log scale)", {width / 2 - 110, height - 15}, cv::FONT_HERSHEY_SIMPLEX, 0.55, cv::Scalar(0, 0, 0), 1, cv::LINE_AA);
    cv::putText(plot, "median pixel accuracy over the images", {left, 20}, cv::FONT_HERSHEY_SIMPLEX, 0.55, cv::Scalar(0, 0, 0), 1, cv::LINE_AA);
    const std::vector<cv::Scalar> colours{{200, 80, 0}, {0, 140, 0}, {0, 0, 200}, {160, 0, 160}, {0, 160, 200}};
    int legend = 0;
    for (const auto& [name, result] : results) {
        const cv::Scalar colour = colours[std::size_t(legend) % colours.size()];
        std::vector<cv::Point> curve;
        for (int n = 0; n <= maxActions; ++n) {
            std::vector<double> accuracies;
            for (const auto& trace : result.traces) {
                double accuracy = trace.startActions <= n ? trace.startAccuracy : 0.0;
                for (const auto& step : trace.steps)
                    if (step.actions <= n)
                        accuracy = step.accuracy;
                accuracies.push_back(accuracy);
            }
            const double median = percentile(accuracies, 0.5);
            if (median >= 0.5)
                curve.emplace_back(px(n), py(std::min(1.0, median)));
        }
        cv::polylines(plot, curve, false, colour, 2, cv::LINE_AA);
        cv::line(plot, {width - right + 15, top + 20 + 25 * legend}, {width - right + 45, top + 20 + 25 * legend}, colour, 2);
        cv::putText(plot, name, {width - right + 52, top + 25 + 25 * legend}, cv::FONT_HERSHEY_SIMPLEX, 0.5, cv::Scalar(0, 0, 0), 1, cv::LINE_AA);
        ++legend;
    }
    cv::imwrite(file, plot);
}

// The outline bound of each NoC object (IoU, actions) under `prefix`: the median IoU and actions,
// the share at 90 % within 20 and within 10 actions, and per class.
void summariseOutlines(const std::map<int, std::vector<std::pair<double, int>>>& byClass,
                       const segstudio::data::ClassSchema& schema, const std::string& prefix, nlohmann::json& out)
{
    std::vector<double> ious, actions;
    std::size_t within20 = 0, within10 = 0;
    for (const auto& [classId, objects] : byClass) {
        std::size_t classWithin = 0;
        std::vector<double> classIous;
        for (const auto& [iou, count] : objects) {
            ious.push_back(iou);
            classIous.push_back(iou);
            actions.push_back(count);
            classWithin += iou >= 0.9 && count <= 20;
            within10 += iou >= 0.9 && count <= 10;
        }
        within20 += classWithin;
        out[prefix + "_per_class"][schema.classes()[std::size_t(classId)].name] = {
            {"objects", objects.size()}, {"median_iou", percentile(classIous, 0.5)}, {"at_90_within_20", classWithin}};
    }
    if (ious.empty())
        return;
    out[prefix + "_median_iou"] = percentile(ious, 0.5);
    out[prefix + "_median_vertices"] = percentile(actions, 0.5);
    out[prefix + "_at_90_within_20"] = double(within20) / double(ious.size());
    out[prefix + "_at_90_within_10"] = double(within10) / double(ious.size());
}

// Where the actions to 95 % went: the share spent tracing with the polygon the regions a click or
// stroke did not help with (the policy's fallback, rule 5), and per class of those regions.
void addPolygonFallback(nlohmann::json& out, const std::vector<SimulatedAnnotator::Trace>& traces,
                        const segstudio::data::ClassSchema& schema)
{
    double traced = 0, spent = 0;
    std::map<int, double> tracedByClass;
    for (const auto& trace : traces) {
        for (const auto& step : trace.steps) {
            traced += step.traced;
            if (step.traced > 0)
                tracedByClass[step.targetClass] += step.traced;
            if (step.accuracy >= 0.95)
                break;
        }
        const int to95 = trace.actionsTo(0.95);
        spent += to95 >= 0 ? to95 : (trace.steps.empty() ? trace.startActions : trace.steps.back().actions);
    }
    out["polygon_fallback_share_95"] = spent > 0 ? traced / spent : 0.0;
    for (const auto& [classId, actions] : tracedByClass)
        if (classId >= 0 && classId < int(schema.classes().size()))
            out["polygon_fallback_actions_95"][schema.classes()[std::size_t(classId)].name] = actions;
}

nlohmann::json summary(const ModeResult& r, const std::vector<cv::Mat>& truths, const std::vector<int>& budgets,
                       const segstudio::data::ClassSchema& schema)
{
    const int classes = int(schema.classes().size());
    nlohmann::json out;
    out["median_actions_90"] = percentile(r.to90, 0.5);
    out["p90_actions_90"] = percentile(r.to90, 0.9);
    out["median_actions_95"] = percentile(r.to95, 0.5);
    out["p90_actions_95"] = percentile(r.to95, 0.9);
    out["median_actions_98"] = percentile(r.to98, 0.5);
    out["p90_actions_98"] = percentile(r.to98, 0.9);
    for (std::size_t b = 0; b < budgets.size(); ++b)
        out["miou_after_" + std::to_string(budgets[b])] = meanIoU(r.atBudget[b], truths, classes);
    addPolygonFallback(out, r.traces, schema);
    out["latency_ms_median"] = percentile(r.latency, 0.5);
    out["latency_ms_max"] = r.latency.empty() ? -1 : *std::max_element(r.latency.begin(), r.latency.end());
    out["prepare_ms_median"] = percentile(r.prepare, 0.5);
    if (!r.largeLatency.empty()) {
        out["latency_4000x3000_ms_median"] = percentile(r.largeLatency, 0.5);
        out["latency_4000x3000_ms_max"] = *std::max_element(r.largeLatency.begin(), r.largeLatency.end());
        out["prepare_4000x3000_ms"] = r.largePrepare.front();
    }
    if (!r.propagate.empty()) {
        out["propagate_ms_median"] = percentile(r.propagate, 0.5);
        out["propagate_ms_max"] = *std::max_element(r.propagate.begin(), r.propagate.end());
        out["carried_start_accuracy_median"] = percentile(r.carriedAccuracy, 0.5);
        out["carried_start_accuracy"] = r.carriedAccuracy;  // frame by frame, from the second
        out["model_start_accuracy"] = r.modelAccuracy;
        out["model_start_accuracy_median"] = percentile(r.modelAccuracy, 0.5);
        if (!r.correctedAccuracy.empty())
            out["corrected_model_accuracy_median"] = percentile(r.correctedAccuracy, 0.5);
    }
    if (!r.largePropagate.empty())
        out["propagate_4000x3000_ms"] = r.largePropagate.front();
    if (!r.noc.empty()) {
        out["noc90_objects"] = r.noc.size();
        out["noc90_median"] = percentile(r.noc, 0.5);
        out["noc90_mean"] = std::accumulate(r.noc.begin(), r.noc.end(), 0.0) / double(r.noc.size());
        out["noc85_median"] = percentile(r.noc85, 0.5);
        const auto pixelBound = std::count_if(r.onePixelIoU.begin(), r.onePixelIoU.end(), [](double v) { return v < 0.9; });
        out["noc_one_pixel_below_90_share"] = double(pixelBound) / double(r.onePixelIoU.size());
        out["noc_one_pixel_iou_median"] = percentile(r.onePixelIoU, 0.5);
        if (!r.nocPixelTolerant.empty()) {
            out["noc90_pixel_tolerant_objects"] = r.nocPixelTolerant.size();
            out["noc90_pixel_tolerant_median"] = percentile(r.nocPixelTolerant, 0.5);
        }
        if (!r.residualOffset.empty())
            out["noc_unreached_boundary_offset_px_median"] = percentile(r.residualOffset, 0.5);
        for (const auto& [classId, objects] : r.nocByClass) {
            std::vector<double> to85, to90;
            for (const auto& [a, b] : objects) {
                to85.push_back(a);
                to90.push_back(b);
            }
            const auto notReached = std::count_if(to90.begin(), to90.end(), [](double n) { return n > 20; });
            out["noc_per_class"][schema.classes()[std::size_t(classId)].name] = {
                {"objects", objects.size()}, {"median_85", percentile(to85, 0.5)},
                {"median_90", percentile(to90, 0.5)}, {"not_reached_90", notReached}};
        }
        summariseOutlines(r.outlineByClass, schema, "outline", out);
        summariseOutlines(r.scissorsByClass, schema, "scissors", out);
    }
    out["images"] = r.to90.size();
    return out;
}

// BENCH_ANNOTATOR_OBJECT_PNG=DIR: an object that never reached 90 % as a picture, three times its
// size: the image around it, its label, and the best region the clicks made (magenta where it is
// right, red where it exceeds the object, green where it misses it), to look at why.
void writeUnreachedObject(const std::string& folder, const SimulatedAnnotator::Image& image, const cv::Mat& object,
                          const cv::Mat& region, const std::string& name)
{
    const cv::Rect box = (cv::boundingRect(object) + cv::Size(24, 24) - cv::Point(12, 12)) & cv::Rect({}, object.size());
    cv::Mat bgr;
    cv::cvtColor(image.rgb(box), bgr, cv::COLOR_RGB2BGR);
    const auto marked = [&](const cv::Mat& mask) {
        cv::Mat view = bgr.clone();
        view.setTo(cv::Scalar(0, 0, 255), mask(box) & ~object(box));
        view.setTo(cv::Scalar(255, 0, 255), mask(box) & object(box));
        view.setTo(cv::Scalar(0, 255, 0), object(box) & ~mask(box));
        return view;
    };
    cv::Mat row;
    cv::hconcat(std::vector<cv::Mat>{bgr, marked(object), marked(region)}, row);
    cv::resize(row, row, {}, 3, 3, cv::INTER_NEAREST);
    cv::imwrite((fs::path(folder) / (name + ".png")).string(), row);
}

// NoC: every object of one image segmented alone (clicks to 85 and 90 % IoU), with the labels'
// own bounds beside it (one-pixel IoU, the outline and the scissors).
void measureObjects(SimulatedAnnotator::Mode mode, const SimulatedAnnotator::Image& image, const std::string& key,
                    int classes, const SimulatedAnnotator::Options& options, ModeResult& r)
{
    segstudio::paint::SmartClickSegmenter smart;
    if (mode == SimulatedAnnotator::Mode::Smart)
        smart = segstudio::paint::SmartClickSegmenter(image.scores, image.rgb, options.smart);
    for (const auto& [object, objectClass] : objectsOf(image.truth, 400, classes)) {
        const auto result = SimulatedAnnotator::clicksToIoUs(mode, image, object, objectClass, {0.85, 0.90}, 20, &smart, options);
        const auto& clicks = result.reached;
        r.noc85.push_back(clicks[0]);
        r.noc.push_back(clicks[1]);
        r.nocByClass[objectClass].emplace_back(clicks[0], clicks[1]);
        r.onePixelIoU.push_back(SimulatedAnnotator::onePixelIoU(object));
        if (r.onePixelIoU.back() >= 0.9)
            r.nocPixelTolerant.push_back(clicks[1]);
        if (clicks[1] > 20)
            r.residualOffset.push_back(SimulatedAnnotator::meanBoundaryOffset(result.bestRegion, object));
        const auto outline = SimulatedAnnotator::outlineOf(object, options);
        r.outlineByClass[objectClass].push_back(outline);
        r.scissorsByClass[objectClass].push_back(SimulatedAnnotator::scissorsOutlineOf(image.rgb, object, options));
        if (const char* folder = std::getenv("BENCH_ANNOTATOR_OBJECT_PNG"); folder && clicks[1] > 20)
            writeUnreachedObject(folder, image, object, result.bestRegion,
                                 key + "-" + std::to_string(r.noc.size()) + "-class" + std::to_string(objectClass));
        if (std::getenv("BENCH_ANNOTATOR_OBJECTS")) {  // which objects take how many clicks, or vertices
            std::cerr << "  object " << key << " class " << objectClass << " area " << cv::countNonZero(object)
                      << " clicks " << clicks[1] << " clicks85 " << clicks[0] << " one-pixel " << r.onePixelIoU.back()
                      << " outline " << outline.first << " vertices " << outline.second << " ious";
            for (const double iou : result.iouAfter)
                std::cerr << " " << iou;
            std::cerr << "\n";
        }
    }
}

}  // namespace

int main(int argc, char** argv)
{
    Arguments args;
    CLI::App app("Simulated annotator: actions per image with each labeling tool (docs/LABELING.md)");
    app.add_option("--dataset", args.dataset, "dataset in SegNet layout")->capture_default_str();
    app.add_option("--project", args.project,
                   "a project instead (any imported format, any classes): its --split's labelled images");
    app.add_option("--split", args.split, "split folder (val, train, test)")->capture_default_str();
    app.add_option("--images", args.images, "the first N images of the split (sorted by name)")->capture_default_str();
    app.add_option("--skip", args.skip, "start after the first K images (or frames of the sequence): a held-out set")
        ->capture_default_str();
    app.add_flag("--sequence", args.sequence,
                 "--images N takes N consecutive frames of one sequence of the split, in order");
    app.add_option("--sequence-id", args.sequenceId,
                   "only the frames of this sequence (e.g. 0006R0): a sequence held out of training and tuning");
    app.add_option("--thin-radius", args.thinRadius,
                   "smart and propagate: stroke along a target region at most this half-width (px; 0: clicks only)")
        ->capture_default_str();
    app.add_option("--thin-elongation", args.thinElongation,
                   "the stroke rule: area at least this x the region's width squared")->capture_default_str();
    app.add_flag("--no-negative-strokes", args.noNegativeStrokes, "NoC: thin excess is clicked away, never stroked");
    app.add_flag("--negative-after-spill", args.negativeAfterSpill,
                 "whole images: a click that spilled onto right pixels gets a Shift+click on its spill before the polygon");
    app.add_option("--polygon-after-stall", args.polygonAfterStall,
                   "NoC: after this many actions without a point of IoU, outline the object with the polygon (0: never)")
        ->capture_default_str();
    app.add_option("--polygon-below-first-iou", args.polygonBelowFirstIoU,
                   "NoC: undo a first click below this IoU and outline the object, if simple (0: never)")
        ->capture_default_str();
    app.add_option("--polygon-at-most-vertices", args.polygonAtMostVertices,
                   "NoC: an object is simple when its outline takes at most this many vertices")
        ->capture_default_str();
    app.add_option("--polygon-tolerance", args.polygonTolerance, "a person's polygon vertices: within this of the outline (px)")
        ->capture_default_str();
    app.add_option("--stroke-slack", args.strokeSlack, "a stroke's corridor: the region's width plus this (px)")
        ->capture_default_str();
    app.add_option("--min-confidence", args.minConfidence,
                   "propagate: the prediction fills where the flow failed when at least this sure (0..255; LabelPropagator's fillAbove)");
    app.add_option("--superpixel-vote", args.superpixelVote,
                   "propagate: failed pixels take their superpixel's carried majority when this share was carried (0: never)");
    app.add_option("--model-overrules", args.modelOverrules,
                   "propagate: the prediction replaces a carried label it contradicts when at least this sure (0..256)");
    app.add_option("--correct-frames", args.correctFrames,
                   "propagate: the model's prediction corrected by the last N labelled frames (paint::PredictionCorrector; 0: off)");
    app.add_flag("--chain", args.chain,
                 "propagate: as Propagate Along the Sequence, the first frame annotated and the others carried on unchecked");
    app.add_option("--region-share", args.regionShare,
                   "propagate: the corrector recolours a model region when this share votes another class (0: pixels)");
    app.add_option("--flow-side", args.flowSide, "propagate: the flow's working size, long side (px)");
    app.add_option("--consistency-beta", args.consistencyBeta,
                   "propagate: the forward-backward check's slack, squared working pixels (LabelPropagator)");
    app.add_option("--steady-spread", args.steadySpread, "propagate: how much the flow may vary within DIS's reach");
    app.add_option("--small-motion", args.smallMotion,
                   "propagate: frames that moved at most this (px) carry through motion boundaries (-1: never)");
    app.add_option("--flow-preset", args.flowPreset, "propagate: DIS preset, fast | medium");
    app.add_option("--scribble-prior", args.scribblePrior,
                   "scribble: the classifier first learns the whole maps of the first N images of the train split");
    app.add_option("--modes", args.modes, "comma-separated: superpixel, polygon, prediction, smart, grabcut, propagate, scribble (no model)")
        ->capture_default_str();
    app.add_option("--checkpoint", args.checkpoint, "run directory or checkpoint for the prediction and smart modes");
    app.add_option("--adapt-norm", args.adaptNorm,
                   "the model's batch norms adapted to the frames predicted (segstudio-train predict --adapt-norm W or "
                   "auto; give a --predictions folder of its own)");
    app.add_option("--adapt-shift", args.adaptShift, "with --adapt-norm auto: segstudio-train predict --adapt-shift");
    app.add_option("--predictions", args.predictions, "prediction cache folder (default: <run>/annotator-predictions)");
    app.add_option("--target", args.target, "stop at this pixel accuracy")->capture_default_str();
    app.add_option("--max-actions", args.maxActions, "give up after this many actions")->capture_default_str();
    app.add_option("--noc-images", args.nocImages, "images whose objects (>= 400 px) get the NoC protocol")->capture_default_str();
    app.add_option("--large-actions", args.largeActions, "actions timed on the first image at 4000x3000 (0: none)")->capture_default_str();
    app.add_option("--plot", args.plot, "write the actions-vs-accuracy plot (PNG) here");
    app.add_option("--margin", args.margin, "smart click: nats a clicked pixel is moved past the threshold");
    app.add_option("--smoothness", args.smoothness, "smart click: Potts weight in nats (the first click)");
    app.add_option("--refining-smoothness", args.refiningSmoothness,
                   "smart click: Potts weight around negative clicks (corrections)");
    app.add_option("--reach", args.reach, "smart click: how far a click's shift carries (pixels at the model's size, 0: all the way)");
    app.add_option("--colour-weight", args.colourWeight, "smart click: weight of the clicks' colour model (0: off)");
    app.add_option("--holes-up-to", args.holesUpTo, "smart click: join the region's holes of at most this share of its area (0: none)");
    app.add_option("--colour-from", args.colourFrom, "smart click: the click from which the colour model joins");
    app.add_option("--colour-radius", args.colourRadius, "smart click: disc sampled under each click (model pixels)");
    app.add_flag("--json", args.json, "print the results as JSON");
    CLI11_PARSE(app, argc, argv);

    std::vector<SimulatedAnnotator::Mode> modes;
    for (const auto& name : split(args.modes)) {
        const auto mode = SimulatedAnnotator::modeNamed(name);
        if (!mode) {
            std::cerr << "bench_annotator: unknown mode " << name << "\n";
            return 2;
        }
        modes.push_back(*mode);
    }
    const bool needsModel = std::any_of(modes.begin(), modes.end(), [](auto m) {
        return m == SimulatedAnnotator::Mode::Prediction || m == SimulatedAnnotator::Mode::Smart
            || m == SimulatedAnnotator::Mode::Propagate;
    });
    if (needsModel && args.checkpoint.empty()) {
        std::cerr << "bench_annotator: the prediction, smart and propagate modes need --checkpoint\n";
        return 2;
    }
    const bool propagates = std::count(modes.begin(), modes.end(), SimulatedAnnotator::Mode::Propagate) > 0;
    if (propagates && !args.sequence) {
        std::cerr << "bench_annotator: the propagate mode needs --sequence\n";
        return 2;
    }
    AnnotatorDataset dataset;
    try {
        const AnnotatorDataset::Selection selection{args.split, args.skip, args.images, args.sequence, args.sequenceId};
        dataset = args.project.empty() ? AnnotatorDataset::segnet(args.dataset, selection)
                                       : AnnotatorDataset::project(args.project, selection);
    } catch (const std::exception& e) {
        std::cerr << "bench_annotator: " << e.what() << "\n";
        return 2;
    }
    const auto& frames = dataset.frames();
    const std::string sequenceId = dataset.sequenceId();
    if (args.sequence)
        std::cerr << "sequence " << sequenceId << ": " << frames.size() << " frames\n";
    const fs::path cache = args.predictions.empty() ? fs::path(args.checkpoint) / "annotator-predictions" : fs::path(args.predictions);
    if (needsModel)
        predict(args, frames, cache);

    SimulatedAnnotator::Options options;
    options.target = args.target;
    options.maxActions = args.maxActions;
    options.thinRadius = args.thinRadius;
    options.thinElongation = args.thinElongation;
    options.strokeSlack = args.strokeSlack;
    options.negativeStrokes = !args.noNegativeStrokes;
    options.polygonAfterStall = args.polygonAfterStall;
    options.polygonBelowFirstIoU = args.polygonBelowFirstIoU;
    options.polygonAtMostVertices = args.polygonAtMostVertices;
    options.negativeAfterSpill = args.negativeAfterSpill;
    options.polygonTolerance = args.polygonTolerance;
    options.classes = dataset.classes();
    if (args.scribblePrior > 0)
        options.scribblePrior = priorOf(args, dataset.classes());
    if (args.margin >= 0)
        options.smart.margin = args.margin;
    if (args.smoothness >= 0)
        options.smart.smoothness = args.smoothness;
    if (args.refiningSmoothness >= 0)
        options.smart.refiningSmoothness = args.refiningSmoothness;
    if (args.reach >= 0)
        options.smart.reach = args.reach;
    if (args.colourWeight >= 0)
        options.smart.colourWeight = args.colourWeight;
    if (args.holesUpTo >= 0)
        options.smart.holesUpTo = args.holesUpTo;
    if (args.colourFrom >= 0)
        options.smart.colourFromClick = args.colourFrom;
    if (args.colourRadius >= 0)
        options.smart.colourRadius = args.colourRadius;
    const auto& schema = dataset.schema();

    std::vector<SimulatedAnnotator::Image> images;
    std::vector<cv::Mat> truths;
    for (const auto& frame : frames) {
        SimulatedAnnotator::Image image;
        image.rgb = segstudio::data::readImageRgb(frame.image);
        image.truth = dataset.truthOf(frame);
        if (needsModel) {
            auto entry = segstudio::data::PredictionCache::readEntry(cache, frame.key, schema, image.rgb.size());
            image.predicted = entry.classes;
            image.scores = entry.scores;
            image.confidence = entry.confidence;
        }
        truths.push_back(image.truth);
        images.push_back(std::move(image));
    }

    std::map<std::string, ModeResult> results;
    for (const auto mode : modes) {
        const auto name = SimulatedAnnotator::nameOf(mode);
        const SimulatedAnnotator annotator(mode, options);
        ModeResult& r = results[name];
        r.atBudget.resize(options.budgets.size());
        const auto censored = [&](int n) { return double(n < 0 ? args.maxActions + 1 : n); };
        const auto propagation = propagationParameters(args);
        const segstudio::paint::LabelPropagator propagator(propagation);
        cv::Mat previous;  // the frame before, as the annotator left it
        segstudio::paint::PredictionCorrector::Options correction;
        correction.frames = std::max(1, args.correctFrames);
        if (args.regionShare >= 0)
            correction.regionShare = args.regionShare;
        segstudio::paint::PredictionCorrector corrector(correction);
        for (std::size_t i = 0; i < images.size(); ++i) {
            cv::Mat start;
            SimulatedAnnotator::Image image = images[i];
            if (mode == SimulatedAnnotator::Mode::Propagate && i > 0) {
                const auto began = std::chrono::steady_clock::now();
                if (corrector.isReady()) {
                    const auto corrected = corrector.correct(image.rgb, image.scores);
                    image.predicted = corrected.classes;
                    image.confidence = corrected.confidence;
                }
                // Pixels the flow cannot vouch for take the model's prediction, as the editor's
                // Propagate does when a prediction is on screen.
                const auto carried = propagator.propagate(images[i - 1].rgb, previous, image.rgb, cv::Mat(),
                                                          segstudio::paint::WriteGuard(), predictionOf(image));
                start = carried.labels;
                r.propagate.push_back(
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count());
                // How scattered the wrong pixels are (each piece is a click at least): a start more
                // right in fewer pixels but in more pieces can cost more (issue 61.2, LABELING.md).
                const auto errorPieces = [&](const cv::Mat& labels) {
                    cv::Mat wrong = (labels != images[i].truth) & (images[i].truth != SimulatedAnnotator::kVoid), ids;
                    return cv::connectedComponents(wrong, ids, 8) - 1;
                };
                std::cerr << "  error pieces: model " << errorPieces(images[i].predicted) << ", start "
                          << errorPieces(start) << "\n";
                if (std::getenv("BENCH_ANNOTATOR_FLOW")) {  // how far the frame moved (median, image pixels)
                    const segstudio::paint::DenseFlow flow(image.rgb, images[i - 1].rgb, propagation.flow);
                    std::cerr << "  flow median " << segstudio::paint::LabelPropagator::medianMotion(flow) << " px\n";
                }
                std::cerr << "  carried " << double(carried.carried) / double(start.total()) << " filled "
                          << double(carried.filledByModel) / double(start.total()) << " overruled "
                          << double(carried.overruled) / double(start.total()) << "\n";
                if (const char* dump = std::getenv("BENCH_ANNOTATOR_DUMP")) {  // what was carried, to look at
                    const std::string stem = std::string(dump) + "/" + std::to_string(i);
                    cv::Mat bgr;
                    cv::cvtColor(image.rgb, bgr, cv::COLOR_RGB2BGR);
                    cv::imwrite(stem + "-image.png", bgr);
                    cv::imwrite(stem + "-source.png", previous);
                    cv::imwrite(stem + "-start.png", start);
                    cv::imwrite(stem + "-truth.png", images[i].truth);
                    cv::imwrite(stem + "-model.png", image.predicted);
                }
                r.carriedAccuracy.push_back(SimulatedAnnotator::pixelAccuracy(start, images[i].truth));
                r.modelAccuracy.push_back(SimulatedAnnotator::pixelAccuracy(images[i].predicted, images[i].truth));
                if (corrector.isReady())
                    r.correctedAccuracy.push_back(SimulatedAnnotator::pixelAccuracy(image.predicted, image.truth));
            }
            if (args.chain && mode == SimulatedAnnotator::Mode::Propagate && i > 0) {
                previous = start;  // Propagate Along the Sequence: carried on unchecked
                continue;
            }
            auto trace = annotator.label(image, start);
            previous = trace.finalLabels;
            if (mode == SimulatedAnnotator::Mode::Propagate && args.correctFrames > 0)
                corrector.learn(frames[i].key, images[i].rgb, images[i].scores, previous);
            r.to90.push_back(censored(trace.actionsTo(0.90)));
            r.to95.push_back(censored(trace.actionsTo(0.95)));
            r.to98.push_back(censored(trace.actionsTo(0.98)));
            for (std::size_t b = 0; b < options.budgets.size(); ++b)
                r.atBudget[b].push_back(trace.labelsAtBudgets[b].second);
            for (const auto& step : trace.steps)
                r.latency.push_back(step.milliseconds);
            r.prepare.push_back(trace.prepareMilliseconds);
            if (std::getenv("BENCH_ANNOTATOR_STEPS"))
                for (const auto& step : trace.steps)
                    std::cerr << "  " << step.actions << " " << step.accuracy << "\n";
            std::cerr << name << " " << frames[i].key << ": start " << trace.startAccuracy << ", 95 % after "
                      << trace.actionsTo(0.95) << " actions, " << trace.steps.size() << " steps\n";
            r.traces.push_back(std::move(trace));
        }
        const bool interactive = mode == SimulatedAnnotator::Mode::Smart || mode == SimulatedAnnotator::Mode::GrabCut;
        for (int i = 0; interactive && i < std::min<int>(args.nocImages, int(images.size())); ++i)
            measureObjects(mode, images[std::size_t(i)], frames[std::size_t(i)].key, dataset.classes(), options, r);
        if (args.largeActions > 0 && !images.empty()) {
            // The first image at 4000x3000 (scores stay at the model's size, as the cache keeps them).
            SimulatedAnnotator::Image large = images.front();
            cv::resize(large.rgb, large.rgb, {4000, 3000}, 0, 0, cv::INTER_LINEAR);
            cv::resize(large.truth, large.truth, {4000, 3000}, 0, 0, cv::INTER_NEAREST);
            if (!large.predicted.empty())
                cv::resize(large.predicted, large.predicted, {4000, 3000}, 0, 0, cv::INTER_NEAREST);
            auto largeOptions = options;
            largeOptions.maxActions = args.largeActions + (needsModel ? 1 : 0);
            largeOptions.target = 1.01;
            const auto trace = SimulatedAnnotator(mode, largeOptions).label(large);
            for (const auto& step : trace.steps)
                r.largeLatency.push_back(step.milliseconds);
            r.largePrepare.push_back(trace.prepareMilliseconds);
            if (mode == SimulatedAnnotator::Mode::Propagate && images.size() > 1) {
                // The labels of the first frame carried to the second, both at 4000x3000.
                cv::Mat next, labels;
                cv::resize(images[1].rgb, next, {4000, 3000}, 0, 0, cv::INTER_LINEAR);
                cv::resize(images[0].truth, labels, {4000, 3000}, 0, 0, cv::INTER_NEAREST);
                // As the editor's Propagate does it: the model corrected by the first frame, then the flow.
                const auto began = std::chrono::steady_clock::now();
                segstudio::paint::LabelPropagator::Prediction prediction;
                if (args.correctFrames > 0 && !images[0].scores.empty()) {
                    segstudio::paint::PredictionCorrector largeCorrector(correction);
                    largeCorrector.learn("first", large.rgb, images[0].scores, labels);
                    if (largeCorrector.isReady()) {
                        const auto corrected = largeCorrector.correct(next, images[1].scores);
                        prediction = {corrected.classes, corrected.confidence};
                    }
                }
                propagator.propagate(large.rgb, labels, next, cv::Mat(), segstudio::paint::WriteGuard(), prediction);
                r.largePropagate.push_back(
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count());
            }
        }
    }

    nlohmann::json out;
    out["dataset"] = args.project.empty() ? args.dataset : args.project;
    out["split"] = args.split;
    out["images"] = images.size();
    out["checkpoint"] = args.checkpoint;
    if (args.sequence)
        out["sequence"] = sequenceId;
    out["smart_parameters"] = {{"margin", options.smart.margin}, {"smoothness", options.smart.smoothness},
                                {"refining_smoothness", options.smart.refiningSmoothness}, {"reach", options.smart.reach},
                                {"colour_weight", options.smart.colourWeight}, {"holes_up_to", options.smart.holesUpTo}, {"colour_from", options.smart.colourFromClick},
                                {"colour_radius", options.smart.colourRadius}};
    out["stroke_rule"] = {{"thin_radius", options.thinRadius}, {"thin_elongation", options.thinElongation},
                          {"stroke_slack", options.strokeSlack}, {"polygon_after_stall", options.polygonAfterStall},
                          {"polygon_below_first_iou", options.polygonBelowFirstIoU},
                          {"polygon_at_most_vertices", options.polygonAtMostVertices},
                          {"negative_after_spill", options.negativeAfterSpill},
                          {"polygon_tolerance", options.polygonTolerance}};
    const auto propagation = propagationParameters(args);
    out["propagation"] = {{"fill_above", propagation.fillAbove},
                          {"model_overrules_above", propagation.modelOverrulesAbove},
                          {"superpixel_vote", propagation.superpixelVote},
                          {"flow_side", propagation.flow.maxSide},
                          {"consistency_beta", propagation.consistencyBeta},
                          {"steady_spread", propagation.steadySpread},
                          {"small_motion", propagation.smallMotion},
                          {"steady_spread_at_small_motion", propagation.steadySpreadAtSmallMotion},
                          {"correct_frames", args.correctFrames},
                          {"region_share", args.regionShare >= 0 ? args.regionShare
                                                                 : segstudio::paint::PredictionCorrector::Options().regionShare}};
    for (const auto& [name, r] : results)
        out["modes"][name] = summary(r, truths, options.budgets, schema);
    // The issue-61 figure, propagate / smart actions to 95 %, with how far 8 frames can pin it.
    if (results.count("propagate") && results.count("smart") && !results.at("smart").to95.empty()) {
        const auto ratio = PairedBootstrap::medianRatio(results.at("propagate").to95, results.at("smart").to95);
        out["propagate_vs_smart_95"] = {{"ratio", ratio.estimate}, {"ci90", {ratio.low, ratio.high}},
                                        {"frames", results.at("smart").to95.size()}};
    }
    if (!args.plot.empty())
        drawPlot(results, args.maxActions, args.plot);
    if (args.json) {
        std::cout << out.dump(2) << "\n";
    } else {
        for (const auto& [name, r] : out["modes"].items())
            std::cout << name << ": " << r.dump() << "\n";
    }
    return 0;
}
