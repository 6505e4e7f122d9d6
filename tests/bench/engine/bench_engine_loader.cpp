// Loader throughput: augmented 360x480 batches/s from a memory-mapped pack (BatchLoader with its
// prefetch thread + device augmentation) against decoding the CamVid PNGs every iteration with the
// same augmentation. Uses the CamVid copy when present, else synthetic PNGs written to a temp dir.
#include "engine/input/Augmenter.h"
#include "engine/input/BatchLoader.h"
#include "engine/runtime/Runtime.h"
#include "pack/PackWriter.h"

#include <CLI/CLI.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

using namespace segstudio;
namespace fs = std::filesystem;

namespace {

struct Sample {
    std::string image;
    std::string label;
};

std::vector<Sample> camvidSamples(const fs::path& root, int limit)
{
    std::vector<Sample> samples;
    std::ifstream list(root / "train.txt");
    std::string line;
    while (std::getline(list, line) && int(samples.size()) < limit) {
        // SegNet lists "/SegNet/CamVid/train/x.png /SegNet/CamVid/trainannot/x.png".
        const auto space = line.find(' ');
        if (space == std::string::npos)
            continue;
        const auto image = fs::path(line.substr(0, space)).filename();
        samples.push_back({(root / "train" / image).string(), (root / "trainannot" / image).string()});
    }
    return samples;
}

std::vector<Sample> syntheticSamples(const fs::path& dir, int count)
{
    std::vector<Sample> samples;
    std::mt19937 random(1);
    for (int i = 0; i < count; ++i) {
        cv::Mat image(360, 480, CV_8UC3), label(360, 480, CV_8UC1);
        cv::randu(image, 0, 255);
        cv::GaussianBlur(image, image, cv::Size(9, 9), 3);  // photo-like, not incompressible noise
        for (int y = 0; y < 360; ++y)
            label.row(y).setTo(int(random() % 11));
        samples.push_back({(dir / ("img" + std::to_string(i) + ".png")).string(),
                           (dir / ("lab" + std::to_string(i) + ".png")).string()});
        cv::imwrite(samples.back().image, image);
        cv::imwrite(samples.back().label, label);
    }
    return samples;
}

std::pair<cv::Mat, cv::Mat> decode(const Sample& sample)
{
    cv::Mat bgr = cv::imread(sample.image, cv::IMREAD_COLOR), rgb;
    cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
    cv::Mat label = cv::imread(sample.label, cv::IMREAD_GRAYSCALE);
    label.setTo(255, label == 11);  // CamVid void
    return {rgb, label};
}

void writePack(const std::vector<Sample>& samples, const std::string& path)
{
    pack::PackSpec spec;
    spec.height = 360;
    spec.width = 480;
    for (int c = 0; c < 11; ++c)
        spec.classes.push_back({"class" + std::to_string(c), 1, 1});
    pack::PackWriter writer(path, spec, samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i) {
        auto [rgb, label] = decode(samples[i]);
        writer.write(i, rgb.ptr<std::uint8_t>(), label.ptr<std::uint8_t>());
    }
    writer.finish();
}

// The work both paths share once a host batch exists: to the device, augment, normalise.
torch::Tensor augmentBatch(const engine::Augmenter& augmenter, const torch::Tensor& images, const torch::Tensor& labels,
                           std::uint64_t seed)
{
    auto device = torch::Device(torch::kCPU);
    auto x = engine::imagesToDevice(images, device);
    auto y = labels.to(torch::kLong);
    std::tie(x, y) = augmenter.apply(x, y, augmenter.draw(x.size(0), seed));
    return engine::normaliseImages(x, false).sum() + y.sum();  // consume both
}

}  // namespace

int main(int argc, char** argv)
{
    std::string camvid = SEGSTUDIO_CAMVID_DIR;
    int images = 64;
    int batches = 40;
    int batch = 4;
    int threads = 0;
    CLI::App app{"Loader throughput: pack + prefetch vs decoding PNGs each iteration (augmented 360x480 batches)"};
    app.add_option("--camvid", camvid)->capture_default_str();
    app.add_option("--images", images, "images in the pack / PNG set")->capture_default_str();
    app.add_option("--batches", batches, "batches timed per path")->capture_default_str();
    app.add_option("--batch", batch)->capture_default_str();
    app.add_option("--threads", threads, "LibTorch threads (0 = all cores)")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    engine::configureRuntime(threads, false, false);
    // OpenCV's worker threads and LibTorch's spinning OpenMP threads fight over the cores when
    // their calls interleave; PNG decoding is single-threaded anyway.
    cv::setNumThreads(0);

    const fs::path temp = fs::temp_directory_path() / ("segstudio-bench-loader-" + std::to_string(::getpid()));
    fs::create_directories(temp);
    const bool haveCamvid = fs::exists(fs::path(camvid) / "train.txt");
    const auto samples = haveCamvid ? camvidSamples(camvid, images) : syntheticSamples(temp, images);
    std::printf("%s: %zu images 360x480, batch %d, %d batches per path, %d LibTorch threads\n",
                haveCamvid ? "CamVid" : "synthetic PNGs", samples.size(), batch, batches, torch::get_num_threads());
    const std::string packPath = (temp / "bench.pack").string();
    writePack(samples, packPath);

    const engine::Augmenter augmenter(engine::AugmentOptions{true, 10, false, 1.0, 1.0});
    double checksum = 0;

    pack::PackReader reader(packPath);
    engine::BatchLoader::Options options;
    options.batchSize = batch;
    engine::BatchLoader loader(reader, options);
    auto packRate = [&](bool augment) {
        const auto start = std::chrono::steady_clock::now();
        int done = 0;
        for (int epoch = 0; done < batches; ++epoch) {
            loader.start(epoch);
            while (done < batches) {
                auto next = loader.next();
                if (!next)
                    break;
                if (augment)
                    checksum += augmentBatch(augmenter, next->images, next->labels, std::uint64_t(done)).item<double>();
                ++done;
            }
            loader.stop();
        }
        return done / std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    std::mt19937 random(2);
    auto pngRate = [&](bool augment) {
        const auto start = std::chrono::steady_clock::now();
        for (int b = 0; b < batches; ++b) {
            auto images = torch::empty({batch, 360, 480, 3}, torch::kUInt8);
            auto labels = torch::empty({batch, 360, 480}, torch::kUInt8);
            for (int i = 0; i < batch; ++i) {
                auto [rgb, label] = decode(samples[random() % samples.size()]);
                std::memcpy(images[i].data_ptr(), rgb.data, 360 * 480 * 3);
                std::memcpy(labels[i].data_ptr(), label.data, 360 * 480);
            }
            if (augment)
                checksum += augmentBatch(augmenter, images, labels, std::uint64_t(b)).item<double>();
        }
        return batches / std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    for (const bool augment : {false, true}) {
        const double fromPack = packRate(augment);
        const double fromPng = pngRate(augment);
        std::printf("  %s\n    pack + prefetch thread: %8.2f batches/s (%7.1f images/s)\n"
                    "    decode PNGs each time:  %8.2f batches/s (%7.1f images/s)\n    speed-up: %.1fx\n",
                    augment ? "with augmentation (flip + translate 10 px) and normalisation, on the CPU device"
                            : "batches only (what the loader hands the training step)",
                    fromPack, fromPack * batch, fromPng, fromPng * batch, fromPack / fromPng);
    }
    std::printf("  (checksum %.3g)\n", checksum);
    fs::remove_all(temp);
    return 0;
}
