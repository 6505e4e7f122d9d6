#include "Commands.h"
#include "FiniteNumber.h"
#include "PredictionMaps.h"

#include "data/labels/ClassSchema.h"
#include "data/labels/DataError.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/labels/LabelOverlay.h"
#include "data/project/OutputFolder.h"
#include "data/project/PredictionCache.h"
#include "data/project/Project.h"
#include "engine/runtime/EngineError.h"
#include "engine/inference/Predictor.h"
#include "run/RunLayout.h"
#include "deploy/OpenCvOnnxModel.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <vector>

namespace segstudio::cli {

namespace {

// --adapt-norm auto's threshold on BatchNormAdaptation's shift: chosen on the tuning sets of
// docs/LABELING.md ("Adapt only images of another kind"), never on the reporting sets.
constexpr double kDefaultAdaptShift = 0.55;

// Where --keep-adaptation keeps the adaptation, in the output folder (a prediction cache's file).
const std::string kAdaptationFile = "adaptation.pt";

struct PredictArguments {
    std::string checkpoint;
    std::string out = "predictions";
    std::string project;
    std::vector<std::string> images;
    std::string split;
    std::string device = "auto";
    std::string precision = "auto";
    std::string runtime = "libtorch";
    double opacity = 0.5;
    std::string adaptNorm = "0";  // a weight in 0..1, or auto (adapt when the shift exceeds adaptShift)
    double adaptShift = kDefaultAdaptShift;
    std::string adaptSplit;  // adapt to this split of the project rather than to the images predicted
    int adaptImages = 64;
    bool keepAdaptation = false;  // in OUT/adaptation.pt, for the next process predicting for the same images
    bool confidence = false;
    bool overlay = true;
};

bool adapts(const PredictArguments& args)
{
    return args.adaptNorm == "auto" || std::stod(args.adaptNorm) > 0.0;
}

// What labels an image: the engine (LibTorch) from a checkpoint, or OpenCV's DNN module from an
// exported ONNX file (no LibTorch at run time; label maps only).
class PredictionRuntime {
public:
    explicit PredictionRuntime(const PredictArguments& args)
    {
        if (args.runtime == "libtorch") {
            m_engine = std::make_unique<engine::Predictor>(run::RunLayout::resolveCheckpoint(args.checkpoint).string(), args.device,
                                                           0, args.precision);
            return;
        }
        if (args.runtime == "opencv") {
            if (args.confidence)
                throw data::DataError(args.checkpoint, "--confidence needs the LibTorch runtime (the ONNX file gives labels only)");
            if (adapts(args))
                throw data::DataError(args.checkpoint, "--adapt-norm needs the LibTorch runtime (the ONNX file's batch norms are folded)");
            m_opencv = std::make_unique<deploy::OpenCvOnnxModel>(args.checkpoint);
            return;
        }
        throw data::DataError({}, "unknown runtime '" + args.runtime + "' (use libtorch, or opencv with an exported .onnx)");
    }

    int classes() const { return m_engine ? m_engine->classes() : m_opencv->classes(); }
    std::vector<std::string> classNames() const { return m_engine ? m_engine->classNames() : m_opencv->classNames(); }
    engine::Predictor* engine() { return m_engine.get(); }

    cv::Mat labels(const cv::Mat& rgb)
    {
        if (m_engine)
            return mapOf(m_engine->predict(rgb.ptr<std::uint8_t>(), rgb.rows, rgb.cols), rgb);
        return m_opencv->labels(rgb);
    }

private:
    std::unique_ptr<engine::Predictor> m_engine;
    std::unique_ptr<deploy::OpenCvOnnxModel> m_opencv;
};

// Colours for the label maps: the project's schema, CamVid's for an 11-class model, else a
// generated palette named after the model's classes.
data::ClassSchema schemaFor(const PredictArguments& args, const std::optional<data::Project>& project,
                            const PredictionRuntime& runtime)
{
    if (project) {
        requireSameClasses(runtime.classes(), project->schema(), args.checkpoint, args.project);
        return project->schema();
    }
    if (runtime.classes() == 11)
        return data::ClassSchema::camVid();
    const auto names = runtime.classNames();
    std::vector<data::LabelClass> classes;
    for (int c = 0; c < runtime.classes(); ++c) {
        const auto hue = std::uint8_t((c * 97) % 256);
        classes.push_back({c, names[std::size_t(c)], {hue, std::uint8_t(255 - hue), std::uint8_t((c * 53 + 90) % 256)}, {}});
    }
    return data::ClassSchema(classes);
}

struct Job {
    std::string file;
    std::string name;  // of the outputs: the image's cache key in a project, else its stem
};

// The project's images of a split named on the command line (train, val, test, or all).
std::vector<std::size_t> imagesOfSplit(const data::Project& project, const std::string& name, const std::string& option)
{
    const auto split = data::splitFromString(name);
    if (!split && name != "all")
        throw data::DataError({}, "unknown " + option + " '" + name + "' (use train, val, test or all)");
    std::vector<std::size_t> indices;
    for (std::size_t index = 0; index < project.size(); ++index)
        if (!split || project.entry(index).split == *split)
            indices.push_back(index);
    return indices;
}

std::vector<Job> jobsOf(const PredictArguments& args, const std::optional<data::Project>& project)
{
    std::vector<Job> jobs;
    for (const auto& file : args.images) {
        const auto index = project ? project->indexOfPath(file) : std::nullopt;
        jobs.push_back({file, index ? data::PredictionCache::keyOf(*project, *index) : std::filesystem::path(file).stem().string()});
    }
    if (args.split.empty())
        return jobs;
    for (const std::size_t index : imagesOfSplit(*project, args.split, "split"))
        jobs.push_back({project->imagePath(index).string(), data::PredictionCache::keyOf(*project, index)});
    return jobs;
}

// The files predictOne() writes for a job, relative to the output folder.
std::vector<std::string> outputsOf(const PredictArguments& args, const Job& job)
{
    std::vector<std::string> names =
        args.confidence ? data::PredictionCache::entryFileNames(job.name) : std::vector<std::string>{job.name + ".png"};
    if (args.overlay)
        names.push_back(job.name + "_overlay.png");
    return names;
}

std::vector<std::string> outputsOf(const PredictArguments& args, const std::vector<Job>& jobs)
{
    std::vector<std::string> names;
    for (const Job& job : jobs)
        for (std::string& name : outputsOf(args, job))
            names.push_back(std::move(name));
    return names;
}

// One image, its maps and overlay, each recorded in the folder's ledger once in place. Any
// failure, running out of memory on a huge image included, is one line naming the image.
void predictOne(const PredictArguments& args, PredictionRuntime& runtime, const data::ClassSchema& schema, const Job& job,
                data::OutputFolder& out)
{
    out.requireFree(outputsOf(args, job));  // a file put there since the command began is the user's
    try {
        const cv::Mat image = data::readImageRgb(job.file);
        const cv::Mat rgb = image.isContinuous() ? image : image.clone();
        const std::filesystem::path stem = out.path() / job.name;
        cv::Mat labels;
        if (args.confidence) {
            const auto prediction = entryOf(runtime.engine()->predictWithConfidence(rgb.ptr<std::uint8_t>(), rgb.rows, rgb.cols), rgb);
            data::PredictionCache::writeEntry(out.path(), job.name, prediction, schema);
            labels = prediction.classes;
        } else {
            labels = runtime.labels(rgb);
            data::writeLabelMap(stem.string() + ".png", labels, schema, run::Durability::Deferred);
        }
        if (args.overlay) {
            data::writeImageRgb(stem.string() + "_overlay.png", data::blendLabels(rgb, labels, schema, args.opacity),
                                run::Durability::Deferred);
        }
        out.written(outputsOf(args, job));
    } catch (const std::bad_alloc&) {
        out.written(outputsOf(args, job));  // what it wrote of this image is the folder's own, for the retry
        throw engine::EngineError(job.file + ": not enough memory to predict this image");
    } catch (const std::exception& error) {
        out.written(outputsOf(args, job));
        const std::string what = error.what();
        if (what.rfind(job.file, 0) == 0)
            throw;  // already names it
        throw engine::EngineError(job.file + ": " + what.substr(0, what.find('\n')));
    }
}

// The images the batch norms adapt to: those of --adapt-split in the project, else those predicted.
std::vector<std::string> adaptationImages(const PredictArguments& args, const std::optional<data::Project>& project,
                                          const std::vector<Job>& jobs)
{
    std::vector<std::string> files;
    if (args.adaptSplit.empty()) {
        for (const Job& job : jobs)
            files.push_back(job.file);
        return files;
    }
    for (const std::size_t index : imagesOfSplit(*project, args.adaptSplit, "--adapt-split"))
        files.push_back(project->imagePath(index).string());
    if (files.empty())
        throw data::DataError(args.project, "--adapt-split " + args.adaptSplit + ": the project has no such images");
    return files;
}

// Each observed image kept at most at the model's input size (area-averaged), so 64 large photos
// take what 64 of its inputs take.
engine::Predictor::Adaptation observeImages(const PredictArguments& args, PredictionRuntime& runtime,
                                            const std::vector<std::string>& observed)
{
    const auto [inputHeight, inputWidth] = runtime.engine()->inputSize();
    std::vector<cv::Mat> images;
    std::vector<engine::Predictor::ImageView> views;
    for (const std::string& file : observed) {
        cv::Mat image = data::readImageRgb(file);
        if (inputHeight > 0 && inputWidth > 0 && std::int64_t(image.rows) * image.cols > std::int64_t(inputHeight) * inputWidth)
            cv::resize(image, image, cv::Size(inputWidth, inputHeight), 0, 0, cv::INTER_AREA);
        images.push_back(image.isContinuous() ? image : image.clone());
        views.push_back({images.back().ptr<std::uint8_t>(), images.back().rows, images.back().cols});
    }
    const double threshold = args.adaptShift;
    return args.adaptNorm == "auto"
               ? runtime.engine()->adaptNormalisation(views, [threshold](double shift) { return shift > threshold ? 1.0 : 0.0; })
               : runtime.engine()->adaptNormalisation(views, std::stod(args.adaptNorm));
}

// The images the batch norms observe: at most --adapt-images of the adaptation images, spread
// evenly over their list.
std::vector<std::string> observedImages(const PredictArguments& args, const std::vector<std::string>& files)
{
    const std::size_t count = std::min(files.size(), std::size_t(args.adaptImages));
    std::vector<std::string> observed;
    for (std::size_t i = 0; i < count; ++i)
        observed.push_back(files[i * files.size() / count]);
    return observed;
}

std::string fileStamp(const std::filesystem::path& file)
{
    std::error_code sizeError, timeError;  // one each: the second call would clear the first's
    const auto size = std::filesystem::file_size(file, sizeError);
    const auto time = std::filesystem::last_write_time(file, timeError).time_since_epoch().count();
    return file.string() + " " + std::to_string(sizeError ? 0 : size) + " " + std::to_string(timeError ? 0 : time);
}

// What an adaptation is made from, for --keep-adaptation: the checkpoint and each observed image by
// path, size and modification time, and every option that changes the statistics or the weight.
std::string adaptationKey(const PredictArguments& args, const std::vector<std::string>& observed)
{
    std::ostringstream key;
    key << "segstudio adaptation 1\ncheckpoint " << fileStamp(run::RunLayout::resolveCheckpoint(args.checkpoint))
        << "\nadapt-norm " << args.adaptNorm << " adapt-shift " << args.adaptShift << " device " << args.device
        << " precision " << args.precision << "\n";
    for (const std::string& file : observed)
        key << "image " << fileStamp(file) << "\n";
    return key.str();
}

// The adaptation OUT/adaptation.pt keeps for this key (--keep-adaptation), put in force; nullopt
// when there is none. `keep` turns false when the file is not SegStudio's (the ledger's word).
std::optional<engine::Predictor::Adaptation> keptAdaptation(PredictionRuntime& runtime, data::OutputFolder& out,
                                                            const std::string& key, bool& keep)
{
    if (!keep)
        return std::nullopt;
    try {
        out.reserve({kAdaptationFile});  // given back at the end when it is not written again
    } catch (const data::DataError& error) {
        keep = false;
        std::cout << "warning: " << error.what() << "; the adaptation is not kept" << std::endl;
        return std::nullopt;
    }
    try {
        return runtime.engine()->restoreAdaptation((out.path() / kAdaptationFile).string(), key);
    } catch (const std::exception& failure) {
        std::cout << "warning: " << failure.what() << "; observing the images again" << std::endl;
        return std::nullopt;
    }
}

void keepAdaptation(PredictionRuntime& runtime, data::OutputFolder& out, const engine::Predictor::Adaptation& adaptation,
                    const std::string& key)
{
    try {
        out.requireFree({kAdaptationFile});
        runtime.engine()->saveAdaptation((out.path() / kAdaptationFile).string(), adaptation, key);
        out.written(kAdaptationFile);
    } catch (const std::exception& failure) {
        std::cout << "warning: " << failure.what() << "; the adaptation was not kept" << std::endl;
    }
}

// The batch norms adapted (Predictor::adaptNormalisation) to the observed images; with
// --adapt-norm auto fully where their shift exceeds --adapt-shift, else not at all. With
// --keep-adaptation, what an earlier process made of the same images is put back instead.
void adaptToImages(const PredictArguments& args, PredictionRuntime& runtime, const std::vector<std::string>& files,
                   data::OutputFolder& out)
{
    if (!adapts(args))
        return;
    const std::vector<std::string> observed = observedImages(args, files);
    const std::string key = args.keepAdaptation ? adaptationKey(args, observed) : std::string();
    bool keep = args.keepAdaptation;
    auto adaptation = keptAdaptation(runtime, out, key, keep);
    const bool kept = adaptation.has_value();
    if (!kept) {
        adaptation = observeImages(args, runtime, observed);
        if (keep)
            keepAdaptation(runtime, out, *adaptation, key);
    }
    const std::string from = kept ? ", as kept in " + (out.path() / kAdaptationFile).string() : std::string();
    if (adaptation->weight > 0.0)
        std::cout << "adapted the batch norms to " << observed.size() << " of the images (weight " << adaptation->weight
                  << ", shift " << adaptation->shift << ")" << from << std::endl;
    else
        std::cout << "the batch norms as trained: the shift of " << observed.size() << " of the images, " << adaptation->shift
                  << ", is at most --adapt-shift " << args.adaptShift << from << std::endl;
}

}  // namespace

void addPredictCommand(CLI::App& app, int& exitCode)
{
    auto args = std::make_shared<PredictArguments>();
    auto* command = app.add_subcommand("predict", "label maps and colour overlays for images, from a checkpoint");
    command->add_option("--checkpoint,-c", args->checkpoint,
                        "checkpoint file, or a run directory (uses its best.pt); with --runtime opencv the exported .onnx")
        ->required();
    command->add_option("--runtime", args->runtime, "libtorch | opencv (an export-model file, run by OpenCV DNN)")->capture_default_str();
    command->add_option("--out,-o", args->out, "output folder")->capture_default_str();
    command->add_option("--project,-P", args->project, "take class colours from this project")->check(CLI::ExistingFile);
    command->add_option("--device", args->device, "auto | cpu | cuda")->capture_default_str();
    command->add_option("--precision", args->precision,
                        "auto | fp32 | bf16: bf16 where the device computes it natively (CUDA, a CPU with AVX512-BF16/AMX)")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "fp32", "bf16"}));
    command->add_option("--opacity", args->opacity, "overlay opacity of the labels")
        ->capture_default_str()
        ->check(FiniteNumber(0.0, 1.0));
    command->add_option("--split,-s", args->split, "predict this split of the project (train, val, test, or all) besides any images given")
        ->needs("--project");
    command->add_option("--adapt-norm", args->adaptNorm,
                        "adapt the model's batch norms to the images first (test-time adaptation, AdaBN): 0 = as trained, "
                        "1 = their statistics alone, between = a blend; auto = 1 where the images' statistics lie further "
                        "than --adapt-shift from the trained ones (images of another kind), else 0")
        ->capture_default_str()
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                std::string number = text;
                return text == "auto" || FiniteNumber(0.0, 1.0)(number).empty() ? std::string()
                                                                                 : text + " is neither auto nor a number in [0, 1]";
            },
            "auto or 0..1"));
    command->add_option("--adapt-shift", args->adaptShift,
                        "with --adapt-norm auto: the shift above which the batch norms adapt (the mean over the first batch "
                        "norm's channels of |log(the images' variance / the trained variance)|)")
        ->capture_default_str()
        ->check(FiniteNumber(0.0, 1e9));
    command->add_option("--adapt-split", args->adaptSplit,
                        "with --adapt-norm: adapt to this split of the project (train, val, test, all) rather than to the "
                        "images predicted")
        ->needs("--project");
    command->add_option("--adapt-images", args->adaptImages, "with --adapt-norm: adapt to at most this many images")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    command->add_flag("--keep-adaptation", args->keepAdaptation,
                      "with --adapt-norm: keep the adaptation in OUT/adaptation.pt and put it back, without observing the "
                      "images again, while the checkpoint, the observed images and these options are the same")
        ->needs("--adapt-norm");
    command->add_flag("--confidence", args->confidence,
                      "also write <name>_confidence.png (top softmax probability x 255) and <name>_entropy.png (normalised entropy x 255)");
    command->add_flag("!--no-overlay", args->overlay, "do not write <name>_overlay.png");
    command->add_option("images", args->images, "images to label (PNG, JPEG, ...)")->check(CLI::ExistingFile);
    command->footer("Writes OUT/<name>.png (palette label map, class ids) and OUT/<name>_overlay.png, and prints\n"
                    "(<name>: the image's label-map name when it is in --project, so names never collide; else its file name)\n"
                    "\"predicted i/n <image>\" after each image.\n"
                    "Examples:\n  segstudio-train predict -c runs/first -o predictions photos/*.jpg\n"
                    "  segstudio-train predict -c runs/first/checkpoints/best.pt -P camvid.segstudio -s val --confidence -o out\n"
                    "  segstudio-train predict --runtime opencv -c first.onnx -o predictions photos/*.jpg");
    command->callback([args, &exitCode] {
        std::optional<data::Project> project;
        if (!args->project.empty())
            project = data::Project::load(args->project);
        const std::vector<Job> images = jobsOf(*args, project);
        if (images.empty())
            throw data::DataError({}, "nothing to predict: give images, or --project with --split");
        const std::vector<std::string> adaptation = adaptationImages(*args, project, images);
        PredictionRuntime runtime(*args);
        const auto schema = schemaFor(*args, project, runtime);
        // Before the model's work: a folder of the user's files is refused with nothing written.
        data::OutputFolder out(args->out, project ? &*project : nullptr, "predictions");
        out.reserve(outputsOf(*args, images));
        adaptToImages(*args, runtime, adaptation, out);
        for (std::size_t i = 0; i < images.size(); ++i) {
            predictOne(*args, runtime, schema, images[i], out);
            std::cout << "predicted " << i + 1 << "/" << images.size() << " " << images[i].file << std::endl;
        }
        exitCode = kExitOk;
    });
}

}  // namespace segstudio::cli

