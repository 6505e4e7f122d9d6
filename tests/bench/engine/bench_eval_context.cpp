// How a checkpoint's val mIoU depends on the context it meets: trained on crops, it predicts whole
// images. Scores it as saved (whole images, as `evaluate`), predicted in crop-sized tiles (logits
// averaged where tiles overlap), and with its batch-norm statistics recomputed as exact averages
// over shuffled training images or crops (forward passes in train mode without gradients).
#include "engine/inference/LoadedModel.h"
#include "engine/runtime/Runtime.h"
#include "engine/inference/SegmentationLoss.h"
#include "engine/inference/Validation.h"
#include "metrics/EvaluationReport.h"
#include "pack/PackReader.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <vector>

using namespace segstudio::engine;

namespace {

struct Options {
    std::string checkpoint, trainPack, valPack;
    int threads = 2;
    int batch = 8;
    int cropHeight = 0;  // 0: whole images
    int cropWidth = 0;
    int images = 0;      // 0: every training image
    int tileHeight = 0;  // > 0: also score predicted in tiles of this size
    int tileWidth = 0;
};

// Tile origins along one axis: evenly spaced, the first at 0 and the last flush with the end.
std::vector<std::int64_t> tileStarts(std::int64_t length, std::int64_t tile)
{
    if (tile >= length)
        return {0};
    const std::int64_t count = (length - tile + tile * 3 / 4 - 1) / (tile * 3 / 4) + 1;  // >= 1/4 overlap
    std::vector<std::int64_t> starts;
    for (std::int64_t i = 0; i < count; ++i)
        starts.push_back(i * (length - tile) / (count - 1));
    return starts;
}

double tiledMeanIou(LoadedModel& loaded, const segstudio::pack::PackReader& val, int tileHeight, int tileWidth)
{
    torch::NoGradGuard noGrad;
    loaded.model->eval();
    segstudio::metrics::EvaluationReport report(loaded.classNames);
    const auto height = std::int64_t(val.spec().height), width = std::int64_t(val.spec().width);
    for (std::size_t index = 0; index < val.size(); ++index) {
        const auto image = torch::from_blob(const_cast<std::uint8_t*>(val.image(index)), {1, height, width, 3},
                                            torch::kUInt8);
        const auto input = normaliseImages(imagesToDevice(image, torch::kCPU), false);
        auto sum = torch::zeros({1, std::int64_t(loaded.classNames.size()), height, width});
        auto count = torch::zeros({1, 1, height, width});
        for (const auto top : tileStarts(height, tileHeight))
            for (const auto left : tileStarts(width, tileWidth)) {
                const auto tile = input.narrow(2, top, tileHeight).narrow(3, left, tileWidth).contiguous();
                sum.narrow(2, top, tileHeight).narrow(3, left, tileWidth).add_(loaded.model->forward(tile));
                count.narrow(2, top, tileHeight).narrow(3, left, tileWidth).add_(1);
            }
        const auto predicted = loaded.correction.apply(sum / count).argmax(1).to(torch::kUInt8).contiguous();
        report.addImage(std::to_string(index), val.label(index), predicted.data_ptr<std::uint8_t>(), int(width),
                        int(height));
    }
    return report.metrics().meanIoU;
}

double valMeanIou(LoadedModel& loaded, const segstudio::pack::PackReader& val)
{
    ValidationSettings settings;
    settings.batchSize = 1;
    settings.correction = loaded.correction;
    const SegmentationLoss loss(loaded.classWeights, torch::kCPU);
    return validate(*loaded.model, val, loss, settings).meanIoU;
}

// The forward passes run as training's do (bf16 autocast, channels-last); scoring runs as
// `evaluate` does (fp32). Crops: one random window per batch.
void recalibrate(LoadedModel& loaded, const segstudio::pack::PackReader& train, const Options& o)
{
    int norms = 0;
    for (auto& module : loaded.model->modules(/*include_self=*/false))
        if (auto* norm = module->as<torch::nn::BatchNorm2d>()) {
            norm->reset_running_stats();
            norm->options.momentum(c10::nullopt);  // a cumulative average over every batch
            ++norms;
        }
    loaded.model->train();
    torch::NoGradGuard noGrad;
    const auto height = std::int64_t(train.spec().height), width = std::int64_t(train.spec().width);
    const std::size_t count = o.images > 0 ? std::min<std::size_t>(o.images, train.size()) : train.size();
    torch::manual_seed(7);
    // Batches of shuffled images, as training draws them: CamVid's are frames of a few videos, and
    // consecutive ones would hide the variance between scenes.
    const auto order = torch::randperm(std::int64_t(count), torch::kLong);
    for (std::size_t first = 0; first + o.batch <= count; first += o.batch) {
        std::vector<torch::Tensor> picked;
        for (int i = 0; i < o.batch; ++i)
            picked.push_back(torch::from_blob(const_cast<std::uint8_t*>(train.image(order[first + i].item<std::int64_t>())),
                                              {height, width, 3}, torch::kUInt8));
        auto images = torch::stack(picked);
        auto input = normaliseImages(imagesToDevice(images, torch::kCPU), /*channelsLast=*/false);
        if (o.cropHeight > 0) {
            const auto top = torch::randint(height - o.cropHeight + 1, {1}).item<std::int64_t>();
            const auto left = torch::randint(width - o.cropWidth + 1, {1}).item<std::int64_t>();
            input = input.narrow(2, top, o.cropHeight).narrow(3, left, o.cropWidth);
        }
        input = input.contiguous(at::MemoryFormat::ChannelsLast);
        AutocastScope autocast("bf16", torch::kCPU);
        loaded.model->forward(input);
    }
    loaded.model->eval();
    std::printf("%d batch norms recomputed over %zu images\n", norms, count - count % o.batch);
}

bool fits(int height, int width, const segstudio::pack::PackReader& pack, const char* what)
{
    if (height <= 0 && width <= 0)
        return true;
    if (height > 0 && width > 0 && height <= int(pack.spec().height) && width <= int(pack.spec().width))
        return true;
    std::fprintf(stderr, "bench_eval_context: a %dx%d %s does not fit %s's %dx%d images\n", height, width, what,
                 pack.path().c_str(), int(pack.spec().height), int(pack.spec().width));
    return false;
}

}  // namespace

int main(int argc, char** argv)
{
    Options o;
    CLI::App app{"val mIoU of a checkpoint as saved, predicted in tiles, and with its batch-norm statistics recomputed"};
    app.add_option("checkpoint", o.checkpoint)->required();
    app.add_option("train_pack", o.trainPack)->required();
    app.add_option("val_pack", o.valPack)->required();
    app.add_option("--threads", o.threads)->capture_default_str();
    app.add_option("--batch", o.batch)->capture_default_str();
    app.add_option("--crop-height", o.cropHeight)->capture_default_str();
    app.add_option("--crop-width", o.cropWidth)->capture_default_str();
    app.add_option("--images", o.images)->capture_default_str();
    app.add_option("--tile-height", o.tileHeight)->capture_default_str();
    app.add_option("--tile-width", o.tileWidth)->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    try {
        configureRuntime(o.threads, false, false);
        const segstudio::pack::PackReader train(o.trainPack), val(o.valPack);
        if (!fits(o.cropHeight, o.cropWidth, train, "crop") || !fits(o.tileHeight, o.tileWidth, val, "tile"))
            return 2;
        auto loaded = LoadedModel::fromCheckpoint(o.checkpoint, torch::kCPU);
        std::printf("as saved: val mIoU %.4f\n", valMeanIou(loaded, val));
        if (o.tileHeight > 0)
            std::printf("in %dx%d tiles: val mIoU %.4f\n", o.tileHeight, o.tileWidth,
                        tiledMeanIou(loaded, val, o.tileHeight, o.tileWidth));
        recalibrate(loaded, train, o);
        std::printf("recomputed: val mIoU %.4f\n", valMeanIou(loaded, val));
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "bench_eval_context: %s\n", error.what());
        return 1;
    }
}
