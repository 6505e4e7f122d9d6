// Issue 65.1: the network a run trains, out of Trainer and tested alone: seeded, --init-from's
// weights loaded when they fit and refused by name when they do not, and the checkpoint writer's
// copy made without moving the run's random stream.
#include "engine/models/Checkpoint.h"
#include "engine/models/ModelRegistry.h"
#include "engine/runtime/EngineError.h"
#include "engine/training/TrainingModel.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>

using namespace segstudio::engine;
namespace fs = std::filesystem;

namespace {

TrainConfig tiny(int classes, unsigned seed)
{
    TrainConfig config;
    config.model = "segnet-tiny";
    config.classes = classes;
    config.seed = seed;
    return config;
}

double largestDifference(SegmentationModelImpl& a, SegmentationModelImpl& b)
{
    double largest = 0;
    const auto pa = a.parameters(), pb = b.parameters();
    for (std::size_t i = 0; i < pa.size(); ++i)
        largest = std::max(largest, (pa[i] - pb[i]).abs().max().item<double>());
    return largest;
}

QString refusal(const TrainConfig& config)
{
    try {
        TrainingModel::build(config, torch::kCPU, false);
    } catch (const EngineError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

}  // namespace

class TestTrainingModel : public QObject {
    Q_OBJECT

private slots:
    void theSeedGivesTheWeights()
    {
        auto a = TrainingModel::build(tiny(4, 7), torch::kCPU, false);
        auto b = TrainingModel::build(tiny(4, 7), torch::kCPU, false);
        auto c = TrainingModel::build(tiny(4, 8), torch::kCPU, false);
        QCOMPARE(largestDifference(*a, *b), 0.0);
        QVERIFY(largestDifference(*a, *c) > 0.0);
        QCOMPARE(a->classes(), 4);
    }

    void initFromLoadsTheWeightsThatFit()
    {
        QTemporaryDir dir;
        const std::string file = (fs::path(dir.path().toStdString()) / "source.pt").string();
        auto source = TrainingModel::build(tiny(4, 3), torch::kCPU, false);
        Checkpoint::save(file, *source, nullptr, {{"model", "segnet-tiny"}, {"config", toJson(tiny(4, 3))}});
        TrainConfig config = tiny(4, 9);
        config.initFrom = file;
        QCOMPARE(largestDifference(*TrainingModel::build(config, torch::kCPU, false), *source), 0.0);
        // A resume does not take them: its own checkpoint comes next.
        QVERIFY(largestDifference(*TrainingModel::build(config, torch::kCPU, true), *source) > 0.0);

        config.classes = 5;
        QVERIFY2(refusal(config).contains(QStringLiteral("predicts 4 classes, the training pack has 5")), qPrintable(refusal(config)));
        config.classes = 4;
        config.model = "segnet";
        QVERIFY2(refusal(config).contains(QStringLiteral("holds a segnet-tiny model, this run trains segnet")),
                 qPrintable(refusal(config)));
    }

    void theSnapshotCopyLeavesTheRandomStreamAlone()
    {
        torch::manual_seed(5);
        const auto expected = torch::rand({4});
        torch::manual_seed(5);
        const auto snapshot = TrainingModel::snapshotFor(tiny(4, 1), torch::kCPU);
        QVERIFY(snapshot);
        QVERIFY(torch::equal(torch::rand({4}), expected));
    }
};

QTEST_APPLESS_MAIN(TestTrainingModel)
#include "test_TrainingModel.moc"
