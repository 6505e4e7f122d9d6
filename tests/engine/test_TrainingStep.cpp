#include "engine/input/Augmenter.h"
#include "engine/input/BatchLoader.h"
#include "engine/input/CropSchedule.h"
#include "engine/training/LossScaler.h"
#include "engine/training/LrSchedule.h"
#include "engine/models/ModelRegistry.h"
#include "engine/inference/SegmentationLoss.h"
#include "engine/training/TrainConfig.h"
#include "engine/training/TrainingStep.h"

#include <QtTest>

#include <stdexcept>

using namespace segstudio::engine;

namespace {

// Per-pixel logits from a 1x1 convolution: no batch norm, so a batch's gradient is the mean of
// its halves' (batch norm's statistics would differ between micro-batches).
class PixelClassifier : public SegmentationModelImpl {
public:
    explicit PixelClassifier(int classes) : m_conv(register_module("conv", torch::nn::Conv2d(3, classes, 1))) {}
    torch::Tensor forward(torch::Tensor images) override { return m_conv->forward(images); }
    int classes() const override { return int(m_conv->options.out_channels()); }
    double forwardFlops(std::int64_t, std::int64_t) const override { return 0.0; }
    GraphValue writeGraph(GraphWriter&, const GraphValue&) override { throw std::logic_error("not exported"); }

private:
    torch::nn::Conv2d m_conv;
};

// One fixed batch of 4 fully labelled 8x8 images (the same labelled pixels in each half).
HostBatch fixedBatch()
{
    torch::manual_seed(3);
    HostBatch batch;
    batch.images = torch::randint(0, 256, {4, 8, 8, 3}, torch::kUInt8);
    batch.labels = torch::randint(0, 3, {4, 8, 8}, torch::kUInt8);
    batch.records = {0, 1, 2, 3};
    return batch;
}

// Two segnet-tiny models with the same initial weights.
std::pair<std::shared_ptr<SegmentationModelImpl>, std::shared_ptr<SegmentationModelImpl>> twinModels()
{
    torch::manual_seed(11);
    auto first = ModelRegistry::instance().create("segnet-tiny", 3);
    auto second = ModelRegistry::instance().create("segnet-tiny", 3);
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < first->parameters().size(); ++i)
        second->parameters()[i].copy_(first->parameters()[i]);
    return {first, second};
}

std::vector<torch::Tensor> gradientsOf(torch::nn::Module& model)
{
    std::vector<torch::Tensor> grads;
    for (const auto& parameter : model.parameters())
        grads.push_back(parameter.grad().clone());
    return grads;
}

// A step's surroundings as the trainer sets them up, without augmentation, with a constant rate.
struct Bench {
    explicit Bench(std::shared_ptr<SegmentationModelImpl> trained, int accumulate = 1, double lr = 0.1,
                   torch::Device device = torch::kCPU, bool cudaGraphs = false)
        : model(onDevice(std::move(trained), device))
        , optimizer(model->parameters(), torch::optim::SGDOptions(lr).momentum(0.9))
        , augmenter(AugmentOptions{/*flip=*/false, /*translate=*/0})
        , schedule(config(lr), /*iterationsPerEpoch=*/1, /*totalIterations=*/100)
        , crops(0, 0, 1.0)
        , scaler(false)
    {
        TrainingStep::Settings settings;
        settings.accumulate = accumulate;
        settings.device = device;
        settings.cudaGraphs = cudaGraphs;
        TrainingStep::Hooks hooks;
        hooks.say = [this](const std::string& line) { said.push_back(line); };
        hooks.judge = [this](const torch::Tensor& meanLoss) {
            judged.push_back(meanLoss.item<double>());
            if (refuse)
                throw std::runtime_error("diverged");
        };
        step = std::make_unique<TrainingStep>(
            settings, TrainingStep::Parts{*model, optimizer, loss, augmenter, schedule, crops, scaler}, hooks);
    }
    static std::shared_ptr<SegmentationModelImpl> onDevice(std::shared_ptr<SegmentationModelImpl> model,
                                                           torch::Device device)
    {
        model->to(device);
        return model;
    }
    static TrainConfig config(double lr)
    {
        TrainConfig config;
        config.learningRate = lr;
        config.schedule = "none";
        config.warmupIterations = 0;
        return config;
    }

    std::shared_ptr<SegmentationModelImpl> model;
    torch::optim::SGD optimizer;
    SegmentationLoss loss;
    Augmenter augmenter;
    LrSchedule schedule;
    CropSchedule crops;
    LossScaler scaler;
    std::unique_ptr<TrainingStep> step;
    std::vector<double> judged;
    std::vector<std::string> said;
    bool refuse = false;
};

}  // namespace

// One optimiser step of the training loop, apart from the trainer (issue 49.4).
class TestTrainingStep : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { torch::set_num_threads(1); }
    void aStepLowersTheLossOnItsBatch();
    void twoMicroBatchesGiveTheWholeBatchsGradient();
    void aRefusedVerdictLeavesTheWeights();
    void cudaGraphsDeclineWhatTheyCannotCapture();
    void cudaGraphsAreNeverTriedOnTheCpu();
    void graphedStepsFollowTheEagerOnes();
};

void TestTrainingStep::aStepLowersTheLossOnItsBatch()
{
    torch::manual_seed(11);
    Bench bench(ModelRegistry::instance().create("segnet-tiny", 3), 1, 0.05);
    const auto batch = fixedBatch();
    const auto first = bench.step->run(batch, {0, 0, 0}, /*measureAccuracy=*/true);
    const auto second = bench.step->run(batch, {0, 1, 1}, true);
    QVERIFY2(second.loss.item<double>() < first.loss.item<double>(),
             qPrintable(QString("%1 then %2").arg(first.loss.item<double>()).arg(second.loss.item<double>())));
    QCOMPARE(bench.judged, (std::vector<double>{first.loss.item<double>(), second.loss.item<double>()}));
    QCOMPARE(first.valid, 4.0 * 8 * 8);  // every pixel labelled
    QVERIFY(first.hits >= 0 && first.hits <= first.valid);
    QCOMPARE(bench.step->cost(), 1.0);  // no progressive crops
}

void TestTrainingStep::twoMicroBatchesGiveTheWholeBatchsGradient()
{
    torch::manual_seed(5);
    auto whole = std::make_shared<PixelClassifier>(3);
    auto halves = std::make_shared<PixelClassifier>(3);
    {
        torch::NoGradGuard noGrad;
        for (std::size_t i = 0; i < whole->parameters().size(); ++i)
            halves->parameters()[i].copy_(whole->parameters()[i]);
    }
    Bench one(whole, /*accumulate=*/1);
    Bench two(halves, /*accumulate=*/2);
    const auto batch = fixedBatch();
    const auto oneLoss = one.step->run(batch, {0, 0, 0}, false).loss.item<double>();
    const auto twoLoss = two.step->run(batch, {0, 0, 0}, false).loss.item<double>();
    QVERIFY(std::abs(oneLoss - twoLoss) < 1e-6);
    const auto a = gradientsOf(*whole);
    const auto b = gradientsOf(*halves);
    for (std::size_t i = 0; i < a.size(); ++i)
        QVERIFY2((a[i] - b[i]).abs().max().item<double>() < 1e-6, qPrintable(QString::number(i)));
}

void TestTrainingStep::aRefusedVerdictLeavesTheWeights()
{
    torch::manual_seed(5);
    Bench bench(std::make_shared<PixelClassifier>(3));
    std::vector<torch::Tensor> before;
    for (const auto& parameter : bench.model->parameters())
        before.push_back(parameter.detach().clone());
    bench.refuse = true;
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, bench.step->run(fixedBatch(), {0, 0, 0}, false));
    for (std::size_t i = 0; i < before.size(); ++i)
        QVERIFY(torch::equal(bench.model->parameters()[i], before[i]));
}

void TestTrainingStep::cudaGraphsDeclineWhatTheyCannotCapture()
{
    const torch::Device cuda(torch::kCUDA);
    QVERIFY(QString::fromStdString(CudaGraphStep::declines(torch::kCPU, 1, false, false)).contains("training on cpu"));
    QVERIFY(QString::fromStdString(CudaGraphStep::declines(cuda, 2, false, false)).contains("--accumulate"));
    QVERIFY(QString::fromStdString(CudaGraphStep::declines(cuda, 1, true, false)).contains("data-parallel"));
    QVERIFY(QString::fromStdString(CudaGraphStep::declines(cuda, 1, false, true)).contains("fp16"));
    // A step that allows them: captured in a CUDA build, else the build is named.
    const auto plain = QString::fromStdString(CudaGraphStep::declines(cuda, 1, false, false));
    QVERIFY2(plain.isEmpty() || plain.contains("without LibTorch's CUDA headers"), qPrintable(plain));
}

void TestTrainingStep::cudaGraphsAreNeverTriedOnTheCpu()
{
    const auto [plain, asked] = twinModels();
    Bench eager(plain, 1, 0.05);
    Bench graphs(asked, 1, 0.05, torch::kCPU, /*cudaGraphs=*/true);
    const auto batch = fixedBatch();
    for (std::int64_t i = 0; i < 2; ++i)
        QCOMPARE(graphs.step->run(batch, {0, i, i}, false).loss.item<double>(),
                 eager.step->run(batch, {0, i, i}, false).loss.item<double>());
    QVERIFY(graphs.said.empty());  // nothing to say where graphs never apply
}

// On a GPU: four steps replayed from a CUDA graph take the eager steps' path (batch norm, momentum).
void TestTrainingStep::graphedStepsFollowTheEagerOnes()
{
    if (!torch::cuda::is_available())
        QSKIP("no CUDA device here: CUDA graphs are captured on a GPU only");
    if (!CudaGraphStep::declines(torch::kCUDA, 1, false, false).empty())
        QSKIP("this engine was built without LibTorch's CUDA headers");
    const auto [plain, graphed] = twinModels();
    Bench eager(plain, 1, 0.05, torch::kCUDA, false);
    Bench graphs(graphed, 1, 0.05, torch::kCUDA, true);
    const auto batch = fixedBatch();
    for (std::int64_t i = 0; i < 4; ++i) {
        const double a = eager.step->run(batch, {0, i, i}, true).loss.item<double>();
        const double b = graphs.step->run(batch, {0, i, i}, true).loss.item<double>();
        QVERIFY2(std::abs(a - b) <= 1e-4 * std::max(1.0, std::abs(a)), qPrintable(QString("step %1: %2 against %3").arg(i).arg(b).arg(a)));
    }
    for (std::size_t i = 0; i < plain->parameters().size(); ++i)
        QVERIFY((plain->parameters()[i] - graphed->parameters()[i]).abs().max().item<double>() < 1e-4);
    for (std::size_t i = 0; i < plain->buffers().size(); ++i)  // the warm-up passes left no trace
        QVERIFY((plain->buffers()[i].to(torch::kDouble) - graphed->buffers()[i].to(torch::kDouble)).abs().max().item<double>() < 1e-4);
    QCOMPARE(graphs.said.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(graphs.said.front()).contains("captured for batches of 4 x 8 x 8"));
}

QTEST_GUILESS_MAIN(TestTrainingStep)
#include "test_TrainingStep.moc"
