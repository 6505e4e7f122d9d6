#include "engine/models/Checkpoint.h"
#include "engine/training/CheckpointSnapshot.h"
#include "engine/training/CheckpointWriter.h"
#include "engine/training/FusedAdamW.h"
#include "engine/models/ModelRegistry.h"
#include "engine/training/OptimizerStateKey.h"
#include "run/FileError.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <future>
#include <type_traits>

using namespace segstudio::engine;
namespace fs = std::filesystem;

// Issue 49.2: checkpoints are written off the training thread. What the file holds is what the
// model and optimiser held when write() was called, whatever training does meanwhile; the file is
// what Checkpoint::save writes; a failed write is reported on the training thread.
class TestCheckpointWriter : public QObject {
    Q_OBJECT

private slots:
    void init();
    void writeReturnsBeforeTheFileIsWritten();
    void fileHoldsTheWeightsOfTheMomentOfWrite_data();
    void fileHoldsTheWeightsOfTheMomentOfWrite();
    void aFailedWriteIsReportedOnceAndKeepsThePreviousFile();
    void oneWriteInFlight();

private:
    struct Live {
        std::shared_ptr<SegmentationModelImpl> model;
        std::unique_ptr<torch::optim::Optimizer> optimizer;
    };
    static Live trainedModel(const std::string& optimizer);
    static void step(Live& live);
    static std::unique_ptr<CheckpointSnapshot> snapshotFor(const std::string& optimizer);
    std::string path(const std::string& name) const { return (fs::path(m_dir->path().toStdString()) / name).string(); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

TestCheckpointWriter::Live TestCheckpointWriter::trainedModel(const std::string& optimizer)
{
    torch::manual_seed(3);
    Live live;
    live.model = ModelRegistry::instance().create("segnet-tiny", 3);
    if (optimizer == "sgd")
        live.optimizer = std::make_unique<torch::optim::SGD>(live.model->parameters(),
                                                             torch::optim::SGDOptions(0.1).momentum(0.9));
    else
        live.optimizer = std::make_unique<FusedAdamW>(live.model->parameters(), torch::optim::AdamWOptions(0.01));
    step(live);  // the optimiser holds state (momentum, moments)
    return live;
}

void TestCheckpointWriter::step(Live& live)
{
    live.model->train();
    live.optimizer->zero_grad();
    torch::manual_seed(7);  // the same batch for every step: steps differ only by the weights and state
    live.model->forward(torch::rand({2, 3, 16, 16})).square().mean().backward();
    live.optimizer->step();
}

std::unique_ptr<CheckpointSnapshot> TestCheckpointWriter::snapshotFor(const std::string& optimizer)
{
    auto copy = ModelRegistry::instance().create("segnet-tiny", 3);
    std::unique_ptr<torch::optim::Optimizer> optimizerCopy;
    if (optimizer == "sgd")
        optimizerCopy = std::make_unique<torch::optim::SGD>(copy->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
    else
        optimizerCopy = std::make_unique<torch::optim::AdamW>(copy->parameters(), torch::optim::AdamWOptions(0.01));
    return std::make_unique<CheckpointSnapshot>(copy, std::move(optimizerCopy), false);
}

void TestCheckpointWriter::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestCheckpointWriter::writeReturnsBeforeTheFileIsWritten()
{
    auto live = trainedModel("sgd");
    std::promise<void> release;
    auto released = release.get_future().share();
    CheckpointWriter writer([] { return snapshotFor("sgd"); }, [released] { released.wait(); });
    writer.write(path("last.pt"), *live.model, live.optimizer.get(), {{"iteration", 1}}, nullptr);
    QVERIFY(!fs::exists(path("last.pt")));  // the writer's thread holds it at the gate
    release.set_value();
    writer.wait();
    QCOMPARE(Checkpoint::readState(path("last.pt")).at("iteration").get<int>(), 1);
}

void TestCheckpointWriter::fileHoldsTheWeightsOfTheMomentOfWrite_data()
{
    QTest::addColumn<QString>("optimizer");
    QTest::newRow("sgd with momentum") << "sgd";
    QTest::newRow("fused adamw") << "adamw";
}

void TestCheckpointWriter::fileHoldsTheWeightsOfTheMomentOfWrite()
{
    QFETCH(QString, optimizer);
    const std::string kind = optimizer.toStdString();
    auto live = trainedModel(kind);
    Checkpoint::save(path("direct.pt"), *live.model, live.optimizer.get(), {{"iteration", 1}});

    // Training goes on while the writer's thread is held: the file must not see these steps.
    std::promise<void> release;
    auto released = release.get_future().share();
    CheckpointWriter writer([kind] { return snapshotFor(kind); }, [released] { released.wait(); });
    writer.write(path("background.pt"), *live.model, live.optimizer.get(), {{"iteration", 1}}, nullptr);
    step(live);
    step(live);
    release.set_value();
    writer.wait();

    auto direct = trainedModel(kind);
    auto background = trainedModel(kind);
    step(direct);  // both now differ from the files, so loading must overwrite every tensor
    step(background);
    Checkpoint::load(path("direct.pt"), *direct.model, direct.optimizer.get(), torch::kCPU);
    Checkpoint::load(path("background.pt"), *background.model, background.optimizer.get(), torch::kCPU);
    const auto a = direct.model->parameters(), b = background.model->parameters();
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        QVERIFY2(torch::equal(a[i], b[i]), ("parameter " + std::to_string(i)).c_str());
    const auto liveNow = live.model->parameters();
    QVERIFY(!torch::equal(liveNow.front(), b.front()));  // training did move on meanwhile
    // The optimiser's state came back the same: one more step from each lands on the same weights.
    step(direct);
    step(background);
    for (std::size_t i = 0; i < a.size(); ++i)
        QVERIFY2(torch::allclose(a[i], b[i]), ("parameter after a step " + std::to_string(i)).c_str());
}

void TestCheckpointWriter::aFailedWriteIsReportedOnceAndKeepsThePreviousFile()
{
    if (!fs::exists("/dev/full"))
        QSKIP("this system has no /dev/full");
    auto live = trainedModel("sgd");
    CheckpointWriter writer([] { return snapshotFor("sgd"); });
    writer.write(path("last.pt"), *live.model, live.optimizer.get(), {{"iteration", 1}}, nullptr);
    writer.wait();
    fs::create_symlink("/dev/full", path("last.pt.tmp"));
    writer.write(path("last.pt"), *live.model, live.optimizer.get(), {{"iteration", 2}}, nullptr);
    std::string message;
    try {
        writer.wait();
    } catch (const segstudio::run::FileError& error) {
        message = error.what();
    }
    QVERIFY2(message.find(path("last.pt")) != std::string::npos, message.c_str());
    QVERIFY2(message.find("No space left on device") != std::string::npos, message.c_str());
    writer.wait();  // reported once
    QCOMPARE(Checkpoint::readState(path("last.pt")).at("iteration").get<int>(), 1);
    QVERIFY(!fs::exists(fs::symlink_status(path("last.pt.tmp"))));
}

void TestCheckpointWriter::oneWriteInFlight()
{
    // The second write() waits for the first: the snapshot's memory is reused, never overwritten
    // while it is being written. Both files end up with their own state.
    auto live = trainedModel("sgd");
    int writes = 0;
    CheckpointWriter writer([] { return snapshotFor("sgd"); }, [&writes] { ++writes; });
    writer.write(path("best.pt"), *live.model, nullptr, {{"iteration", 1}}, nullptr);
    step(live);
    writer.write(path("last.pt"), *live.model, live.optimizer.get(), {{"iteration", 2}}, nullptr);
    writer.wait();
    QCOMPARE(writes, 2);
    QCOMPARE(Checkpoint::readState(path("best.pt")).at("iteration").get<int>(), 1);
    QCOMPARE(Checkpoint::readState(path("last.pt")).at("iteration").get<int>(), 2);
    auto restored = trainedModel("sgd");
    Checkpoint::load(path("last.pt"), *restored.model, restored.optimizer.get(), torch::kCPU);
    QVERIFY(torch::equal(restored.model->parameters().front(), live.model->parameters().front()));
}

QTEST_GUILESS_MAIN(TestCheckpointWriter)
#include "test_CheckpointWriter.moc"
