#include "TestPacks.h"
#include "engine/models/Checkpoint.h"
#include "engine/runtime/EngineError.h"
#include "engine/inference/Evaluator.h"
#include "engine/inference/Predictor.h"
#include "engine/models/ModelRegistry.h"
#include "engine/runtime/Runtime.h"
#include "engine/training/Trainer.h"
#include "pack/PackReader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace segstudio::engine;
namespace fs = std::filesystem;

// End-to-end training on tiny packs: it learns, writes its run directory, refuses bad packs
// before training, and stops cleanly on a NaN loss.
class TestTrainer : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void overfitsTinyBatch();
    void autocastsToBf16OnACpu();
    void trainsInBf16OnACpu();
    void refusesBadPacks_data();
    void refusesBadPacks();
    void nanLossStopsAndKeepsLastGoodCheckpoint_data();
    void nanLossStopsAndKeepsLastGoodCheckpoint();
    void readingTheFlagsAStepLateTrainsTheSame();
    void dataOnTheDeviceTrainsAsTheHostLoaderDoes_data();
    void dataOnTheDeviceTrainsAsTheHostLoaderDoes();
    void refusesToOverwriteARun();
    void startsFromAnotherRunsWeights();
    void refusesWeightsOfAnotherModelOrClassCount();
    void aRunShorterThanTheLogIntervalLogsItsLastStep();
    void cropsAShareOfThePacksImages();
    void epochCheckpointsKeepTheirInterval_data();
    void epochCheckpointsKeepTheirInterval();

private:
    TrainConfig tinyConfig(const std::string& runName) const;
    std::string path(const std::string& name) const { return (fs::path(m_dir.path().toStdString()) / name).string(); }

    QTemporaryDir m_dir;
};

void TestTrainer::initTestCase()
{
    QVERIFY(m_dir.isValid());
    segstudio::enginetest::writeStripePack(path("train.pack"), 8, 32, 32, 4, 1);
    segstudio::enginetest::writeStripePack(path("val.pack"), 4, 32, 32, 4, 2);
}

TrainConfig TestTrainer::tinyConfig(const std::string& runName) const
{
    TrainConfig config = TrainConfig::segnetRecipe();  // plain SGD: what these tests were written against
    config.trainPack = path("train.pack");
    config.valPack = path("val.pack");
    config.runDir = path(runName);
    config.model = "segnet-tiny";
    config.epochs = 2;
    config.batchSize = 4;
    config.device = "cpu";
    config.threads = 1;
    config.logInterval = 1;
    return config;
}

void TestTrainer::overfitsTinyBatch()
{
    TrainConfig config = tinyConfig("overfit");
    config.trainPack = path("train.pack");
    config.valPack = path("train.pack");  // validating on the same images shows the fit too
    config.batchSize = 8;
    config.epochs = 60;
    config.optimizer = "adam";
    config.learningRate = 1e-2;
    config.weightDecay = 0.0;
    config.flip = false;
    config.translate = 0;
    config.logInterval = 10;
    config.checkpointEachEpoch = false;
    Trainer trainer(config);
    const auto outcome = trainer.run();
    QCOMPARE(int(outcome.status), int(TrainOutcome::Status::Finished));
    QCOMPARE(outcome.iterations, std::int64_t(60));
    QVERIFY2(outcome.lastLoss < 0.1 * outcome.firstLoss,
             qPrintable(QStringLiteral("loss %1 -> %2").arg(outcome.firstLoss).arg(outcome.lastLoss)));
    QVERIFY(outcome.validated);
    QVERIFY(outcome.lastValidation.globalAccuracy > 0.9);

    // The run directory: config, one JSON object per line with the documented keys, checkpoints.
    const fs::path run = config.runDir;
    QCOMPARE(loadTrainConfig((run / "config.json").string()).epochs, 60);
    std::ifstream metrics(run / "metrics.jsonl");
    std::string line;
    int trainLines = 0, valLines = 0, runLines = 0;
    std::vector<std::string> states;
    while (std::getline(metrics, line)) {
        const auto record = nlohmann::json::parse(line);
        if (record.at("kind") == "run") {
            // First, once: which SegStudio, and enough for progress and an ETA.
            QCOMPARE(trainLines + valLines, 0);
            QVERIFY(!record.at("segstudio_version").get<std::string>().empty());
            QCOMPARE(record.at("total_iterations").get<int>(), 60);
            QCOMPARE(record.at("iterations_per_epoch").get<int>(), 1);
            QCOMPARE(record.at("model").get<std::string>(), std::string("segnet-tiny"));
            ++runLines;
        } else if (record.at("kind") == "train") {
            for (const char* key : {"epoch", "iteration", "loss", "accuracy", "lr", "images_per_s", "elapsed_s"})
                QVERIFY2(record.contains(key), key);
            ++trainLines;
        } else if (record.at("kind") == "state") {
            states.push_back(record.at("state").get<std::string>());
        } else {
            QVERIFY(record.contains("mean_iou") && record.at("class_iou").size() == 4);
            ++valLines;
        }
    }
    QCOMPARE(runLines, 1);
    QVERIFY(states.size() >= 3);
    QCOMPARE(states.front(), std::string("starting"));
    QCOMPARE(states.back(), std::string("finished"));
    QCOMPARE(trainLines, 6);
    QCOMPARE(valLines, 60);
    QVERIFY(fs::exists(run / "checkpoints" / "last.pt"));
    QVERIFY(fs::exists(run / "checkpoints" / "best.pt"));
    QVERIFY(fs::file_size(run / "log.txt") > 0);
    // Only last.pt resumes: best.pt holds no optimiser state, and still scores what it scored.
    const auto holdsOptimiser = [](const fs::path& file) {
        torch::serialize::InputArchive archive, optimiser;
        archive.load_from(file.string());
        return archive.try_read("optimizer", optimiser);
    };
    QVERIFY(holdsOptimiser(run / "checkpoints" / "last.pt"));
    QVERIFY(!holdsOptimiser(run / "checkpoints" / "best.pt"));
    QVERIFY(fs::file_size(run / "checkpoints" / "best.pt") < fs::file_size(run / "checkpoints" / "last.pt"));
    const auto best = evaluateCheckpoint((run / "checkpoints" / "best.pt").string(), path("train.pack"),
                                         EvaluateOptions{"cpu", 4, 1, "fp32"});
    QVERIFY(std::abs(best.metrics.meanIoU - outcome.bestMeanIoU) < 1e-9);

    // evaluate and predict from the checkpoint alone agree with the trainer's last validation.
    const auto evaluation = evaluateCheckpoint((run / "checkpoints" / "last.pt").string(), path("train.pack"),
                                               EvaluateOptions{"cpu", 4, 1, "fp32"});
    QVERIFY(std::abs(evaluation.metrics.meanIoU - outcome.lastValidation.meanIoU) < 1e-9);
    QCOMPARE(evaluation.classNames.size(), std::size_t(4));

    Predictor predictor((run / "checkpoints" / "last.pt").string(), "cpu", 1, "fp32");
    segstudio::pack::PackReader pack(path("train.pack"));
    const auto labels = predictor.predict(pack.image(0), 32, 32);
    int correct = 0, labelled = 0;
    for (int i = 0; i < 32 * 32; ++i) {
        QVERIFY(labels[i] < 4);
        if (pack.label(0)[i] != 255) {
            ++labelled;
            correct += labels[i] == pack.label(0)[i];
        }
    }
    QVERIFY(correct > 0.9 * labelled);
    // A size that is not a multiple of the model's divisor still gives one label per pixel.
    std::vector<std::uint8_t> odd(27 * 45 * 3, 100);
    QCOMPARE(predictor.predict(odd.data(), 27, 45).size(), std::size_t(27 * 45));
}

void TestTrainer::autocastsToBf16OnACpu()
{
    // auto: bf16 only on a CPU that computes it natively and for a model that trains in it there.
    const torch::Device cpu(torch::kCPU), gpu(torch::kCUDA, 0);
    QCOMPARE(resolveAmp("auto", cpu, true, true), std::string("bf16"));
    QCOMPARE(resolveAmp("auto", cpu, false, true), std::string("none"));
    QCOMPARE(resolveAmp("auto", cpu, true, false), std::string("none"));
    QCOMPARE(resolveAmp("auto", gpu, true, true), std::string("none"));
    QCOMPARE(resolveAmp("fp16", gpu, false, false), std::string("fp16"));
    QVERIFY(ModelRegistry::instance().trainsInBf16OnCpu("deeplabv3plus-resnet18"));
    QVERIFY(!ModelRegistry::instance().trainsInBf16OnCpu("deeplabv3plus"));  // ReLU6: no bf16 backward on a CPU
    if (!cpuComputesBf16())
        QSKIP("this CPU has no bf16 instructions (AVX512-BF16)");
    torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 4, 3));
    const auto input = torch::randn({1, 3, 8, 8});
    {
        AutocastScope bf16("bf16", torch::kCPU);
        QCOMPARE(conv->forward(input).scalar_type(), torch::kBFloat16);
        {
            AutocastScope none("none", torch::kCPU);  // changes nothing inside an active scope
            QCOMPARE(conv->forward(input).scalar_type(), torch::kBFloat16);
        }
        QCOMPARE(conv->forward(input).scalar_type(), torch::kBFloat16);
    }
    QCOMPARE(conv->forward(input).scalar_type(), torch::kFloat);  // restored on leaving
    {
        AutocastScope fp16("fp16", torch::kCPU);  // no CPU path: fp32, as a resumed fp16 run goes on
        QCOMPARE(conv->forward(input).scalar_type(), torch::kFloat);
    }
    QVERIFY(autocasts("bf16", torch::kCPU) && !autocasts("fp16", torch::kCPU) && !autocasts("none", torch::kCPU));
}

// bf16 on a CPU: the model computes in bf16, the weights it learns and saves stay fp32, and an
// fp32 evaluate of them agrees with what the trainer measured in bf16.
void TestTrainer::trainsInBf16OnACpu()
{
    // Asked for where it cannot work: refused before training, whatever this CPU is.
    TrainConfig mobileNet = tinyConfig("bf16-mobilenet");
    mobileNet.model = "deeplabv3plus";
    mobileNet.amp = "bf16";
    QVERIFY_THROWS_EXCEPTION(EngineError, Trainer{mobileNet});
    QVERIFY(!fs::exists(mobileNet.runDir + "/checkpoints"));
    if (!cpuComputesBf16())
        QSKIP("this CPU has no bf16 instructions (AVX512-BF16)");

    TrainConfig config = tinyConfig("bf16");
    config.valPack = path("train.pack");
    config.model = "deeplabv3plus-resnet18";
    config.amp = "auto";  // bf16 here
    config.batchSize = 8;
    config.epochs = 80;
    config.optimizer = "adam";
    config.learningRate = 5e-3;
    config.weightDecay = 0.0;
    config.flip = false;
    config.translate = 0;
    config.logInterval = 10;
    config.valEpochs = 80;
    config.checkpointEachEpoch = false;
    Trainer trainer(config);
    const auto outcome = trainer.run();
    QCOMPARE(int(outcome.status), int(TrainOutcome::Status::Finished));
    QVERIFY2(outcome.lastLoss < 0.25 * outcome.firstLoss,
             qPrintable(QStringLiteral("loss %1 -> %2").arg(outcome.firstLoss).arg(outcome.lastLoss)));
    QVERIFY2(outcome.lastValidation.globalAccuracy > 0.9, qPrintable(QString::number(outcome.lastValidation.globalAccuracy)));
    std::ifstream log(fs::path(config.runDir) / "log.txt");
    const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    QVERIFY2(text.find("on cpu in bf16") != std::string::npos, text.c_str());

    auto model = ModelRegistry::instance().create(config.model, 4);
    Checkpoint::loadWeights((fs::path(config.runDir) / "checkpoints" / "last.pt").string(), *model, torch::kCPU);
    for (const auto& parameter : model->parameters())
        QCOMPARE(parameter.scalar_type(), torch::kFloat);
    const auto evaluation = evaluateCheckpoint((fs::path(config.runDir) / "checkpoints" / "last.pt").string(),
                                               path("train.pack"), EvaluateOptions{"cpu", 4, 1, "fp32"});
    QVERIFY2(std::abs(evaluation.metrics.globalAccuracy - outcome.lastValidation.globalAccuracy) < 0.02,
             qPrintable(QStringLiteral("fp32 %1, bf16 %2").arg(evaluation.metrics.globalAccuracy)
                            .arg(outcome.lastValidation.globalAccuracy)));
}

void TestTrainer::refusesBadPacks_data()
{
    QTest::addColumn<QString>("damage");
    QTest::addColumn<QString>("expected");
    QTest::newRow("truncated") << QStringLiteral("truncate") << QStringLiteral("truncated");
    QTest::newRow("bad magic") << QStringLiteral("magic") << QStringLiteral("magic");
    QTest::newRow("checksum") << QStringLiteral("flip") << QStringLiteral("checksum");
    QTest::newRow("missing") << QStringLiteral("delete") << QString();
}

void TestTrainer::refusesBadPacks()
{
    QFETCH(QString, damage);
    QFETCH(QString, expected);
    const std::string bad = path("bad-" + damage.toStdString() + ".pack");
    fs::copy_file(path("train.pack"), bad, fs::copy_options::overwrite_existing);
    if (damage == QStringLiteral("truncate")) {
        fs::resize_file(bad, fs::file_size(bad) - 100);
    } else if (damage == QStringLiteral("delete")) {
        fs::remove(bad);
    } else {
        std::fstream file(bad, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(damage == QStringLiteral("magic") ? 0 : std::streamoff(fs::file_size(bad) - 10));
        file.put('X');
    }
    TrainConfig config = tinyConfig("bad-" + damage.toStdString());
    config.trainPack = bad;
    try {
        Trainer trainer(config);
        QFAIL("a damaged pack was accepted");
    } catch (const EngineError& error) {
        const QString message = QString::fromStdString(error.what());
        QVERIFY2(message.contains(QString::fromStdString(bad)), qPrintable(message));
        QVERIFY2(message.contains(expected, Qt::CaseInsensitive), qPrintable(message));
    }
    QVERIFY(!fs::exists(fs::path(config.runDir) / "checkpoints" / "last.pt"));
}

void TestTrainer::nanLossStopsAndKeepsLastGoodCheckpoint_data()
{
    // Issue 48: on a GPU the host reads a step's NaN flag a step late (StepVerdicts); the run
    // must end the same way, at the same iteration, with the same checkpoint kept.
    QTest::addColumn<int>("verdictLag");
    QTest::newRow("read at once (CPU)") << 0;
    QTest::newRow("read a step late (GPU's order)") << 1;
}

void TestTrainer::nanLossStopsAndKeepsLastGoodCheckpoint()
{
    QFETCH(int, verdictLag);
    TrainConfig config = tinyConfig("nan-" + std::to_string(verdictLag));
    config.verdictLag = verdictLag;
    config.epochs = 3;
    config.debugNanAtIteration = 3;  // the 4th step, in epoch 2 (2 batches per epoch)
    Trainer trainer(config);
    std::vector<std::string> lines;
    trainer.setProgress([&](const std::string& line) { lines.push_back(line); });
    const auto outcome = trainer.run();
    QCOMPARE(int(outcome.status), int(TrainOutcome::Status::Diverged));
    QVERIFY2(outcome.message.find("NaN") != std::string::npos, outcome.message.c_str());
    QCOMPARE(outcome.iterations, std::int64_t(3));
    QVERIFY(lines.back().find("NaN") != std::string::npos);
    // The checkpoint is the one written after epoch 1, untouched by the diverged step.
    const auto state = Checkpoint::readState(trainer.lastCheckpointPath());
    QCOMPARE(state.at("iteration").get<int>(), 2);
    QCOMPARE(state.at("epoch").get<int>(), 1);
}

namespace {

std::vector<torch::Tensor> parametersOf(const std::string& checkpoint)
{
    const int classes = Checkpoint::readState(checkpoint).at("classes").get<int>();
    auto model = ModelRegistry::instance().create("segnet-tiny", classes);
    Checkpoint::loadWeights(checkpoint, *model, torch::kCPU);
    return model->parameters();
}

bool sameParameters(const std::string& a, const std::string& b)
{
    const auto first = parametersOf(a), second = parametersOf(b);
    if (first.size() != second.size())
        return false;
    for (std::size_t i = 0; i < first.size(); ++i)
        if (!torch::equal(first[i], second[i]))
            return false;
    return true;
}

}  // namespace

void TestTrainer::readingTheFlagsAStepLateTrainsTheSame()
{
    TrainConfig atOnce = tinyConfig("lag-0");
    atOnce.verdictLag = 0;
    TrainConfig late = tinyConfig("lag-1");
    late.verdictLag = 1;
    Trainer first(atOnce);
    Trainer second(late);
    QCOMPARE(int(first.run().status), int(TrainOutcome::Status::Finished));
    QCOMPARE(int(second.run().status), int(TrainOutcome::Status::Finished));
    QVERIFY(sameParameters(first.lastCheckpointPath(), second.lastCheckpointPath()));
}

void TestTrainer::dataOnTheDeviceTrainsAsTheHostLoaderDoes_data()
{
    QTest::addColumn<bool>("classCrops");
    QTest::newRow("flips and shifts") << false;
    QTest::newRow("class-uniform crops (labels read on the host)") << true;
}

void TestTrainer::dataOnTheDeviceTrainsAsTheHostLoaderDoes()
{
    // Issue 48: the pack uploaded once (DeviceResidentPack) gives each step the batch the host
    // loader would: the same weights, bit for bit, on the CPU where CI can run both.
    QFETCH(bool, classCrops);
    const std::string suffix = classCrops ? "-crops" : "";
    std::vector<std::string> checkpoints;
    std::vector<std::string> firstLines;
    for (const char* placement : {"off", "on"}) {
        TrainConfig config = tinyConfig(std::string("data-") + placement + suffix);
        config.dataOnDevice = placement;
        if (classCrops) {
            config.cropHeight = 8;
            config.cropWidth = 8;
            config.classCrops = 0.5;
        }
        Trainer trainer(config);
        std::vector<std::string> lines;
        trainer.setProgress([&](const std::string& line) { lines.push_back(line); });
        QCOMPARE(int(trainer.run().status), int(TrainOutcome::Status::Finished));
        checkpoints.push_back(trainer.lastCheckpointPath());
        const auto said = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("data: ", 0) == 0; });
        QVERIFY(said != lines.end());
        firstLines.push_back(*said);
    }
    QVERIFY2(firstLines[0].find("host loader") != std::string::npos, firstLines[0].c_str());
    QVERIFY2(firstLines[1].find("training pack") != std::string::npos, firstLines[1].c_str());
    QVERIFY(sameParameters(checkpoints[0], checkpoints[1]));
}

void TestTrainer::refusesToOverwriteARun()
{
    TrainConfig config = tinyConfig("twice");
    config.epochs = 1;
    Trainer(config).run();
    QVERIFY_THROWS_EXCEPTION(EngineError, Trainer{config});
}

namespace {

std::vector<torch::Tensor> parametersOf(const std::string& checkpoint, const std::string& model, int classes)
{
    auto network = ModelRegistry::instance().create(model, classes);
    Checkpoint::loadWeights(checkpoint, *network, torch::kCPU);
    std::vector<torch::Tensor> parameters;
    for (const auto& p : network->parameters())
        parameters.push_back(p.detach().clone());
    return parameters;
}

bool allClose(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!torch::allclose(a[i], b[i], 0.0, 1e-6))
            return false;
    return true;
}

}  // namespace

// --init-from (fine-tuning): a new run, with its own seed, starts from the other run's weights.
// One step at a vanishing learning rate leaves them as they were; without --init-from the same
// run starts from its seed's random weights instead.
void TestTrainer::startsFromAnotherRunsWeights()
{
    TrainConfig source = tinyConfig("source");
    source.epochs = 1;
    Trainer(source).run();
    const std::string sourceCheckpoint = path("source/checkpoints/last.pt");

    TrainConfig fine = tinyConfig("fine");
    fine.initFrom = sourceCheckpoint;
    fine.seed = 99;
    fine.learningRate = 1e-12;
    fine.weightDecay = 0.0;
    fine.maxIterations = 1;
    fine.valPack.clear();
    Trainer(fine).run();
    TrainConfig fresh = fine;
    fresh.runDir = path("fresh");
    fresh.initFrom.clear();
    Trainer(fresh).run();

    const auto expected = parametersOf(sourceCheckpoint, "segnet-tiny", 4);
    QVERIFY(allClose(parametersOf(path("fine/checkpoints/last.pt"), "segnet-tiny", 4), expected));
    QVERIFY(!allClose(parametersOf(path("fresh/checkpoints/last.pt"), "segnet-tiny", 4), expected));
    // The run records where it started, so "Train again" and a resume know it.
    const auto state = Checkpoint::readState(path("fine/checkpoints/last.pt"));
    QCOMPARE(QString::fromStdString(state.at("config").at("initFrom").get<std::string>()),
             QString::fromStdString(sourceCheckpoint));
}

void TestTrainer::refusesWeightsOfAnotherModelOrClassCount()
{
    TrainConfig source = tinyConfig("source4");
    source.epochs = 1;
    source.valPack.clear();
    Trainer(source).run();

    TrainConfig otherModel = tinyConfig("otherModel");
    otherModel.model = "deeplabv3plus-slim";
    otherModel.initFrom = path("source4/checkpoints/last.pt");
    try {
        Trainer trainer(otherModel);
        QFAIL("a checkpoint of another model was taken");
    } catch (const EngineError& error) {
        const QString message = error.what();
        QVERIFY2(message.contains("source4") && message.contains("segnet-tiny") && message.contains("--model"),
                 error.what());
    }

    segstudio::enginetest::writeStripePack(path("three.pack"), 8, 32, 32, 3, 1);
    TrainConfig otherClasses = tinyConfig("otherClasses");
    otherClasses.trainPack = path("three.pack");
    otherClasses.valPack.clear();
    otherClasses.initFrom = path("source4/checkpoints/last.pt");
    try {
        Trainer trainer(otherClasses);
        QFAIL("a checkpoint of another class count was taken");
    } catch (const EngineError& error) {
        QVERIFY2(QString(error.what()).contains("predicts 4 classes, the training pack has 3"), error.what());
    }
    QVERIFY(!fs::exists(path("otherClasses/checkpoints/last.pt")));
}

// Issue 27, item 7: a run shorter than the log interval used to write no training record, so the
// monitor showed no loss and "Learning rate: –" for the whole run: its last step always logs.
void TestTrainer::aRunShorterThanTheLogIntervalLogsItsLastStep()
{
    TrainConfig config = tinyConfig("short");
    config.logInterval = 50;  // 2 epochs x 2 batches = 4 iterations
    config.checkpointEachEpoch = false;
    QCOMPARE(int(Trainer(config).run().status), int(TrainOutcome::Status::Finished));
    std::ifstream metrics(fs::path(config.runDir) / "metrics.jsonl");
    std::vector<std::int64_t> logged;
    for (std::string line; std::getline(metrics, line);) {
        const auto record = nlohmann::json::parse(line);
        if (record.at("kind") == "train") {
            logged.push_back(record.at("iteration").get<std::int64_t>());
            QVERIFY(record.at("lr").get<double>() > 0);
            QVERIFY(record.contains("loss"));
        }
    }
    QCOMPARE(logged, (std::vector<std::int64_t>{4}));
}

void TestTrainer::cropsAShareOfThePacksImages()
{
    // The default share becomes pixels of this pack when the run starts, and config.json says so;
    // a pack too small for a crop of at least 144 x 192 trains on whole images.
    segstudio::enginetest::writeStripePack(path("large.pack"), 4, 240, 320, 4, 3);
    TrainConfig config = tinyConfig("share");
    config.trainPack = path("large.pack");
    config.valPack.clear();
    config.cropShare = TrainConfig{}.cropShare;
    config.maxIterations = 1;
    QCOMPARE(int(Trainer(config).run().status), int(TrainOutcome::Status::Finished));
    const TrainConfig recorded = loadRecordedRunConfig((fs::path(config.runDir) / "config.json").string());
    QCOMPARE(recorded.cropHeight, 144);
    QCOMPARE(recorded.cropWidth, 192);

    TrainConfig small = tinyConfig("share-small");
    small.cropShare = TrainConfig{}.cropShare;
    small.maxIterations = 1;
    QCOMPARE(int(Trainer(small).run().status), int(TrainOutcome::Status::Finished));
    QCOMPARE(loadRecordedRunConfig((fs::path(small.runDir) / "config.json").string()).cropHeight, 0);
}

QTEST_GUILESS_MAIN(TestTrainer)
void TestTrainer::epochCheckpointsKeepTheirInterval_data()
{
    QTest::addColumn<double>("interval");
    QTest::addColumn<QList<int>>("epochsSeen");  // epochs that last.pt held while training ran
    // 2 iterations per epoch, 10 s per iteration on the fake clock: epochs end at 20, 40, 60 s.
    QTest::newRow("automatic on the CPU: each epoch") << -1.0 << QList<int>{1, 2, 3};
    QTest::newRow("each epoch") << 0.0 << QList<int>{1, 2, 3};
    QTest::newRow("25 s: at 40 s only") << 25.0 << QList<int>{2};
    QTest::newRow("longer than the run: none before the end") << 3600.0 << QList<int>{};
}

void TestTrainer::epochCheckpointsKeepTheirInterval()
{
    QFETCH(double, interval);
    QFETCH(QList<int>, epochsSeen);
    TrainConfig config = tinyConfig("interval-" + std::to_string(int(interval)));
    config.epochs = 4;
    config.valPack.clear();
    config.checkpointIntervalSeconds = interval;
    Trainer trainer(config);
    double now = 0.0;
    trainer.setClock([&now] { return now; });
    const fs::path last = fs::path(config.runDir) / "checkpoints" / "last.pt";
    QList<int> seen;
    trainer.setIterationHook([&](std::int64_t) {
        now += 10.0;
        if (fs::exists(last)) {
            const int epoch = Checkpoint::readState(last.string()).at("epoch").get<int>();
            if (!seen.contains(epoch))
                seen.append(epoch);
        }
    });
    const auto outcome = trainer.run();
    QCOMPARE(int(outcome.status), int(TrainOutcome::Status::Finished));
    QCOMPARE(seen, epochsSeen);
    QCOMPARE(Checkpoint::readState(last.string()).at("epoch").get<int>(), 4);  // the end is always saved
}

#include "test_Trainer.moc"
