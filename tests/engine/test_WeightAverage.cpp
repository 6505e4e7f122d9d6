#include "TestPacks.h"
#include "engine/models/Checkpoint.h"
#include "engine/models/ModelRegistry.h"
#include "engine/runtime/StopFlag.h"
#include "engine/training/TrainConfig.h"
#include "engine/training/Trainer.h"
#include "engine/training/WeightAverage.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace segstudio::engine;
namespace fs = std::filesystem;

// The exponential moving average of the weights: its arithmetic, the exchange that validation
// uses, its place in checkpoints, and a run whose best.pt holds the averaged weights.
class TestWeightAverage : public QObject {
    Q_OBJECT

private slots:
    void youngAveragesFollowTheWeightsFaster();
    void updateMovesTowardsTheLiveWeights();
    void exchangeTwiceRestoresBoth();
    void checkpointKeepsTheAverage();
    void bestCheckpointHoldsTheAveragedWeights();
    void refusesAnAverageOfAnotherModel();
    void aResumedRunKeepsItsAverage();

private:
    QTemporaryDir m_dir;
};

namespace {

struct Tiny : torch::nn::Module {
    Tiny()
    {
        linear = register_module("linear", torch::nn::Linear(2, 1));
        norm = register_module("norm", torch::nn::BatchNorm1d(1));
    }
    torch::nn::Linear linear{nullptr};
    torch::nn::BatchNorm1d norm{nullptr};
};

bool same(const torch::Tensor& a, const torch::Tensor& b) { return a.sizes() == b.sizes() && a.equal(b); }

}  // namespace

void TestWeightAverage::youngAveragesFollowTheWeightsFaster()
{
    Tiny model;
    WeightAverage average(model, 0.999);
    QCOMPARE(average.decayAt(0), 0.1);
    QCOMPARE(average.decayAt(90), 0.91);
    QCOMPARE(average.decayAt(1000000), 0.999);
}

void TestWeightAverage::updateMovesTowardsTheLiveWeights()
{
    Tiny model;
    torch::NoGradGuard noGrad;
    model.linear->weight.fill_(1.0);
    model.norm->running_mean.fill_(2.0);
    WeightAverage average(model, 0.5);  // decayAt(100) = 0.5
    model.linear->weight.fill_(3.0);
    model.norm->running_mean.fill_(4.0);
    model.norm->num_batches_tracked.fill_(7);
    average.update(100);
    // Order: parameters (weight, bias, norm weight, norm bias), then buffers (mean, var, count).
    QVERIFY(same(average.tensors()[0], torch::full({1, 2}, 2.0)));
    QVERIFY(same(average.tensors()[4], torch::full({1}, 3.0)));
    QCOMPARE(average.tensors()[6].item<std::int64_t>(), std::int64_t(7));  // counters are copied
    average.update(100);
    QVERIFY(same(average.tensors()[0], torch::full({1, 2}, 2.5)));
}

void TestWeightAverage::exchangeTwiceRestoresBoth()
{
    Tiny model;
    torch::NoGradGuard noGrad;
    model.linear->weight.fill_(1.0);
    WeightAverage average(model, 0.5);
    model.linear->weight.fill_(5.0);
    average.update(100);  // average 3
    {
        WeightAverage::Scope averaged(&average);
        QVERIFY(same(model.linear->weight, torch::full({1, 2}, 3.0)));
        QVERIFY(same(average.tensors()[0], torch::full({1, 2}, 5.0)));
    }
    QVERIFY(same(model.linear->weight, torch::full({1, 2}, 5.0)));
    QVERIFY(same(average.tensors()[0], torch::full({1, 2}, 3.0)));
    QVERIFY(model.linear->weight.requires_grad());
    WeightAverage::Scope none(nullptr);  // no average: nothing happens
    QVERIFY(same(model.linear->weight, torch::full({1, 2}, 5.0)));
}

void TestWeightAverage::checkpointKeepsTheAverage()
{
    QVERIFY(m_dir.isValid());
    torch::manual_seed(3);
    auto model = ModelRegistry::instance().create("segnet-tiny", 4);
    WeightAverage average(*model, 0.9);
    {
        torch::NoGradGuard noGrad;
        for (auto& parameter : model->parameters())
            parameter.add_(1.0);
    }
    average.update(50);
    const std::string path = m_dir.filePath("average.pt").toStdString();
    Checkpoint::save(path, *model, nullptr, nlohmann::json{{"epoch", 1}}, &average.tensors());

    auto other = ModelRegistry::instance().create("segnet-tiny", 4);
    std::vector<torch::Tensor> loaded;
    Checkpoint::load(path, *other, nullptr, torch::kCPU, &loaded);
    QCOMPARE(loaded.size(), average.tensors().size());
    for (std::size_t i = 0; i < loaded.size(); ++i)
        QVERIFY(same(loaded[i], average.tensors()[i]));

    const std::string plain = m_dir.filePath("plain.pt").toStdString();
    Checkpoint::save(plain, *model, nullptr, nlohmann::json{{"epoch", 1}});
    loaded.clear();
    Checkpoint::load(plain, *other, nullptr, torch::kCPU, &loaded);
    QVERIFY(loaded.empty());
}

void TestWeightAverage::bestCheckpointHoldsTheAveragedWeights()
{
    const auto dir = fs::path(m_dir.path().toStdString());
    segstudio::enginetest::writeStripePack((dir / "train.pack").string(), 8, 32, 32, 4, 1);
    segstudio::enginetest::writeStripePack((dir / "val.pack").string(), 4, 32, 32, 4, 2);
    TrainConfig config;
    config.trainPack = (dir / "train.pack").string();
    config.valPack = (dir / "val.pack").string();
    config.runDir = (dir / "run").string();
    config.model = "segnet-tiny";
    config.epochs = 3;
    config.valEpochs = 3;  // one validation, at the end: best.pt and last.pt see the same average
    config.batchSize = 4;
    config.device = "cpu";
    config.threads = 1;
    config.weightAverageDecay = 0.9;
    Trainer trainer(config);
    const auto outcome = trainer.run();
    QCOMPARE(int(outcome.status), int(TrainOutcome::Status::Finished));

    auto last = ModelRegistry::instance().create("segnet-tiny", 4);
    std::vector<torch::Tensor> average;
    Checkpoint::load((dir / "run/checkpoints/last.pt").string(), *last, nullptr, torch::kCPU, &average);
    auto best = ModelRegistry::instance().create("segnet-tiny", 4);
    Checkpoint::loadWeights((dir / "run/checkpoints/best.pt").string(), *best, torch::kCPU);
    const auto bestParameters = best->parameters();
    const auto lastParameters = last->parameters();
    QVERIFY(average.size() > bestParameters.size());
    bool differsFromLive = false;
    for (std::size_t i = 0; i < bestParameters.size(); ++i) {
        QVERIFY2(same(bestParameters[i], average[i]), qPrintable(QString("parameter %1").arg(i)));
        differsFromLive = differsFromLive || !same(bestParameters[i], lastParameters[i]);
    }
    QVERIFY(differsFromLive);  // the live weights went on without the average
}

void TestWeightAverage::refusesAnAverageOfAnotherModel()
{
    Tiny model;
    WeightAverage average(model, 0.9);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, average.load({torch::zeros({3})}));
    std::vector<torch::Tensor> wrongShape = average.tensors();
    wrongShape[0] = torch::zeros({2, 2});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, average.load(wrongShape));
}

namespace {

std::vector<torch::Tensor> savedAverage(const fs::path& run)
{
    auto model = ModelRegistry::instance().create("segnet-tiny", 4);
    std::vector<torch::Tensor> average;
    Checkpoint::load((run / "checkpoints/last.pt").string(), *model, nullptr, torch::kCPU, &average);
    return average;
}

double largestDifference(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b)
{
    double worst = a.size() == b.size() ? 0.0 : 1e9;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        worst = std::max(worst, (a[i].to(torch::kDouble) - b[i].to(torch::kDouble)).abs().max().item<double>());
    return worst;
}

}  // namespace

// Stopped mid-epoch and resumed, the average goes on from where it was, as if never stopped.
void TestWeightAverage::aResumedRunKeepsItsAverage()
{
    const auto dir = fs::path(m_dir.path().toStdString()) / "resume";
    fs::create_directories(dir);
    segstudio::enginetest::writeStripePack((dir / "train.pack").string(), 8, 32, 32, 4, 3);
    auto config = [&](const std::string& name) {
        TrainConfig c = TrainConfig::segnetRecipe();
        c.model = "segnet-tiny";
        c.trainPack = (dir / "train.pack").string();
        c.runDir = (dir / name).string();
        c.epochs = 2;
        c.batchSize = 4;
        c.device = "cpu";
        c.threads = 1;
        c.deterministic = true;
        c.learningRate = 1e-2;
        c.weightAverageDecay = 0.9;
        return c;
    };
    QCOMPARE(Trainer(config("straight")).run().iterations, std::int64_t(4));

    Trainer stopping(config("stopped"));
    stopping.setIterationHook([](std::int64_t iteration) {
        if (iteration == 3)  // mid-epoch 2
            requestStop();
    });
    const auto stopped = stopping.run();
    clearStopRequest();
    QCOMPARE(int(stopped.status), int(TrainOutcome::Status::Stopped));
    QVERIFY(largestDifference(savedAverage(dir / "straight"), savedAverage(dir / "stopped")) > 1e-4);  // not vacuous

    QCOMPARE(Trainer::resume((dir / "stopped").string())->run().iterations, std::int64_t(4));
    QVERIFY(largestDifference(savedAverage(dir / "straight"), savedAverage(dir / "stopped")) <= 1e-6);
}

QTEST_GUILESS_MAIN(TestWeightAverage)
#include "test_WeightAverage.moc"
