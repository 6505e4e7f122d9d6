#include "TestPacks.h"
#include "engine/input/BatchLoader.h"
#include "engine/distributed/Communicator.h"
#include "engine/runtime/EngineError.h"
#include "engine/distributed/GradientSync.h"
#include "engine/models/ModelRegistry.h"
#include "engine/distributed/Replicas.h"
#include "engine/inference/SegmentationLoss.h"
#include "engine/inference/Validation.h"
#include "engine/runtime/WorldInfo.h"
#include "pack/PackReader.h"

#include <QTemporaryDir>
#include <QtTest>


#include <filesystem>
#include <functional>
#include <set>
#include <thread>

using namespace segstudio::engine;
namespace fs = std::filesystem;

namespace {


// Runs body(rank, communicator) on `world` threads, each one rank of a real c10d Gloo group over
// a TCPStore on 127.0.0.1: the collectives are PyTorch's own, only the processes are threads.
void onRanks(int world, const std::function<void(int, Communicator&)>& body)
{
    const int port = freeTcpPort();
    std::vector<std::thread> threads;
    std::vector<std::string> errors(static_cast<std::size_t>(world));
    for (int rank = 0; rank < world; ++rank)
        threads.emplace_back([&, rank] {
            try {
                WorldInfo info;
                info.rank = rank;
                info.worldSize = world;
                info.masterPort = port;
                auto communicator = connectProcessGroup(info, "gloo", std::chrono::seconds(30));
                body(rank, *communicator);
            } catch (const std::exception& error) {
                errors[std::size_t(rank)] = error.what();
            }
        });
    for (auto& thread : threads)
        thread.join();
    for (const auto& error : errors)
        QVERIFY2(error.empty(), error.c_str());
}

std::vector<torch::Tensor> parametersOf(SegmentationModelImpl& model)
{
    std::vector<torch::Tensor> parameters;
    for (auto& parameter : model.parameters())
        parameters.push_back(parameter);
    return parameters;
}

std::shared_ptr<SegmentationModelImpl> tinyModel()
{
    torch::manual_seed(11);
    return ModelRegistry::instance().create("segnet-tiny", 4);
}

torch::Tensor maxDifference(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b)
{
    auto worst = torch::zeros({});
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = torch::maximum(worst, (a[i] - b[i]).abs().max());
    return worst;
}

}  // namespace

// Data parallel with c10d: the launch variables, the sampler, the two gradient syncs against
// each other and against the mean of the ranks' own gradients, and validation over ranks.
class TestDataParallel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!processGroupAvailable("gloo"))
            QSKIP("this LibTorch has no c10d Gloo");
        torch::set_num_threads(1);
    }

    void worldFromLaunchers_data()
    {
        QTest::addColumn<QStringList>("variables");  // NAME=value
        QTest::addColumn<int>("rank");
        QTest::addColumn<int>("world");
        QTest::addColumn<int>("local");
        QTest::addColumn<QString>("launcher");
        QTest::newRow("none") << QStringList{} << 0 << 1 << 0 << "none";
        QTest::newRow("torchrun") << QStringList{"RANK=3", "WORLD_SIZE=8", "LOCAL_RANK=1", "MASTER_ADDR=node0"} << 3 << 8
                                  << 1 << "torchrun";
        QTest::newRow("ours") << QStringList{"RANK=1", "WORLD_SIZE=2", "LOCAL_RANK=1", "SEGSTUDIO_LAUNCHER=1"} << 1 << 2 << 1
                              << "segstudio";
        QTest::newRow("slurm") << QStringList{"SLURM_PROCID=5", "SLURM_NTASKS=16", "SLURM_LOCALID=1",
                                              "SLURM_LAUNCH_NODE_IPADDR=10.0.0.1"}
                               << 5 << 16 << 1 << "slurm";
        QTest::newRow("openmpi") << QStringList{"OMPI_COMM_WORLD_RANK=2", "OMPI_COMM_WORLD_SIZE=4",
                                                "OMPI_COMM_WORLD_LOCAL_RANK=0"}
                                 << 2 << 4 << 0 << "mpi";
    }

    void worldFromLaunchers()
    {
        QFETCH(QStringList, variables);
        QFETCH(int, rank);
        QFETCH(int, world);
        QFETCH(int, local);
        QFETCH(QString, launcher);
        std::map<std::string, std::string> environment;
        for (const QString& variable : variables)
            environment[variable.section('=', 0, 0).toStdString()] = variable.section('=', 1).toStdString();
        const WorldInfo info = worldFromEnvironment(environment);
        QCOMPARE(info.rank, rank);
        QCOMPARE(info.worldSize, world);
        QCOMPARE(info.localRank, local);
        QCOMPARE(QString::fromStdString(info.launcher), launcher);
    }

    void launchDetails()
    {
        // A SLURM job's master is the first host of its node list, not the node srun ran on.
        QCOMPARE(firstHostOfNodeList("gpu[03-05,09],cpu1"), std::string("gpu03"));
        QCOMPARE(firstHostOfNodeList("node7,node8"), std::string("node7"));
        QCOMPARE(firstHostOfNodeList("a[2,4]-ib"), std::string("a2-ib"));
        QCOMPARE(firstHostOfNodeList("solo"), std::string("solo"));
        auto slurm = worldFromEnvironment({{"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "8"},
                                           {"SLURM_JOB_NODELIST", "dgx[12-13]"}, {"SLURM_LAUNCH_NODE_IPADDR", "10.0.0.1"}});
        QCOMPARE(slurm.masterAddr, std::string("dgx12"));
        // torchrun's agent serves the store: ranks join it as clients, per restart attempt.
        auto agent = worldFromEnvironment({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"TORCHELASTIC_USE_AGENT_STORE", "True"},
                                           {"TORCHELASTIC_RESTART_COUNT", "2"}});
        QVERIFY(agent.agentStore);
        QCOMPARE(agent.restartCount, 2);
        QVERIFY(!worldFromEnvironment({{"RANK", "1"}, {"WORLD_SIZE", "2"}}).agentStore);
        // Our launcher's single worker still forms a group; torchrun's world of one does not.
        QVERIFY(worldFromEnvironment({{"RANK", "0"}, {"WORLD_SIZE", "1"}, {"SEGSTUDIO_LAUNCHER", "1"},
                                      {"SEGSTUDIO_FORCE_GROUP", "1"}})
                    .distributed());
        QVERIFY(!worldFromEnvironment({{"RANK", "0"}, {"WORLD_SIZE", "1"}}).distributed());
    }

    void badLaunchVariablesNameTheProblem()
    {
        QVERIFY_THROWS_EXCEPTION(EngineError, worldFromEnvironment({{"RANK", "2"}, {"WORLD_SIZE", "2"}}));
        try {
            worldFromEnvironment({{"RANK", "one"}});
            QFAIL("accepted");
        } catch (const EngineError& error) {
            QVERIFY2(std::string(error.what()).find("RANK") != std::string::npos, error.what());
        }
    }

    // Every rank gets the same number of batches (the order is padded by wrapping around), and
    // together the ranks see every sample of the epoch.
    void samplerGivesEqualShares()
    {
        QTemporaryDir dir;
        const std::string file = (fs::path(dir.path().toStdString()) / "seven.pack").string();
        segstudio::enginetest::writeStripePack(file, 7, 8, 8, 3);
        segstudio::pack::PackReader pack(file);
        std::set<std::int64_t> seen;
        std::vector<std::int64_t> batches;
        for (int rank = 0; rank < 3; ++rank) {
            BatchLoader::Options options;
            options.batchSize = 1;
            options.rank = rank;
            options.worldSize = 3;
            BatchLoader loader(pack, options);
            batches.push_back(loader.batchesPerEpoch());
            const auto order = loader.epochOrder(4);
            seen.insert(order.begin(), order.end());
        }
        QCOMPARE(batches, (std::vector<std::int64_t>{3, 3, 3}));
        QCOMPARE(seen.size(), std::size_t(7));
    }

    // The overlapped, bucketed sync gives the same gradients as the plain one, both the mean of
    // the ranks' own gradients; its buckets start during the backward pass and keep their caps.
    void bucketedSyncEqualsPlainSync()
    {
        constexpr int kWorld = 2;
        torch::manual_seed(5);
        std::vector<torch::Tensor> inputs, labels;
        for (int rank = 0; rank < kWorld; ++rank) {
            inputs.push_back(torch::randn({2, 3, 24, 32}));
            labels.push_back(torch::randint(0, 4, {2, 24, 32}, torch::kLong));
        }
        const SegmentationLoss loss;
        // The expected result, without any communication: the mean of the ranks' gradients.
        std::vector<torch::Tensor> expected;
        for (int rank = 0; rank < kWorld; ++rank) {
            auto model = tinyModel();
            loss(model->forward(inputs[std::size_t(rank)]), labels[std::size_t(rank)]).backward();
            for (std::size_t i = 0; i < model->parameters().size(); ++i) {
                const auto grad = model->parameters()[i].grad() / double(kWorld);
                if (rank == 0)
                    expected.push_back(grad.clone());
                else
                    expected[i] += grad;
            }
        }
        std::vector<std::shared_ptr<SegmentationModelImpl>> plainModels, bucketModels;
        for (int rank = 0; rank < kWorld; ++rank) {
            plainModels.push_back(tinyModel());
            bucketModels.push_back(tinyModel());
        }
        constexpr std::size_t kCap = 160 << 10;  // above the largest parameter (3x3x64x64 floats)
        constexpr std::size_t kFirstCap = 32 << 10;
        std::vector<std::vector<GradientSync::Event>> events(kWorld);
        std::vector<std::size_t> bucketBytes;
        onRanks(kWorld, [&](int rank, Communicator& communicator) {
            auto& plainModel = *plainModels[std::size_t(rank)];
            auto plain = makePlainGradientSync(communicator, parametersOf(plainModel));
            plain->beginStep();
            loss(plainModel.forward(inputs[std::size_t(rank)]), labels[std::size_t(rank)]).backward();
            plain->finishStep();

            auto& bucketModel = *bucketModels[std::size_t(rank)];
            auto bucketed = makeBucketedGradientSync(communicator, parametersOf(bucketModel), kCap, kFirstCap);
            // Two steps: the first one learns the order gradients arrive in and rebuilds the
            // buckets (as DDP does); the second must give the same gradients again.
            for (int step = 0; step < 2; ++step) {
                bucketModel.zero_grad();
                bucketed->beginStep();
                loss(bucketModel.forward(inputs[std::size_t(rank)]), labels[std::size_t(rank)]).backward();
                bucketed->finishStep();
            }
            events[std::size_t(rank)] = bucketed->events();
            if (rank == 0)
                bucketBytes = bucketed->bucketBytes();
        });
        for (int rank = 0; rank < kWorld; ++rank) {
            const auto plainGrads = [&] {
                std::vector<torch::Tensor> grads;
                for (auto& parameter : plainModels[std::size_t(rank)]->parameters())
                    grads.push_back(parameter.grad());
                return grads;
            }();
            std::vector<torch::Tensor> bucketGrads;
            for (auto& parameter : bucketModels[std::size_t(rank)]->parameters())
                bucketGrads.push_back(parameter.grad());
            QVERIFY2(maxDifference(plainGrads, expected).item<double>() < 1e-6, "plain sync is not the mean");
            QVERIFY2(maxDifference(bucketGrads, plainGrads).item<double>() < 1e-6, "bucketed differs from plain");
        }
        QVERIFY2(bucketBytes.size() > 2, "expected several buckets");
        QVERIFY(bucketBytes.front() <= kFirstCap);
        for (std::size_t b = 1; b < bucketBytes.size(); ++b)
            QVERIFY2(bucketBytes[b] <= kCap, qPrintable(QString::number(bucketBytes[b])));
        // Every bucket was launched from a gradient hook, before the backward pass returned.
        for (const auto& rankEvents : events) {
            QCOMPARE(rankEvents.back().kind, GradientSync::Event::Kind::BackwardFinished);
            QCOMPARE(rankEvents.size(), bucketBytes.size() + 1);
            for (std::size_t i = 0; i + 1 < rankEvents.size(); ++i)
                QCOMPARE(rankEvents[i].kind, GradientSync::Event::Kind::BucketLaunched);
            QCOMPARE(rankEvents.front().bucket, 0);  // the last layers' bucket goes first
        }
    }

    // Validation over 2 ranks (5 images: one rank scores 3, the other 2) equals one process's.
    void validationOverRanksEqualsOneProcess()
    {
        QTemporaryDir dir;
        const std::string file = (fs::path(dir.path().toStdString()) / "five.pack").string();
        segstudio::enginetest::writeStripePack(file, 5, 16, 16, 4, 3);
        segstudio::pack::PackReader pack(file);
        auto model = tinyModel();
        const SegmentationLoss loss(std::vector<double>{1.0, 2.0, 0.5, 1.5});
        ValidationSettings settings;
        settings.batchSize = 2;
        const auto single = validate(*model, pack, loss, settings);
        std::vector<SegmentationMetrics> perRank(2);
        const std::vector<std::shared_ptr<SegmentationModelImpl>> copies{tinyModel(), tinyModel()};  // one RNG, one thread
        onRanks(2, [&](int rank, Communicator& communicator) {
            auto& copy = copies[std::size_t(rank)];
            ValidationSettings shared = settings;
            shared.communicator = &communicator;
            perRank[std::size_t(rank)] = validate(*copy, pack, loss, shared);
        });
        for (const auto& metrics : perRank) {
            QCOMPARE(metrics.globalAccuracy, single.globalAccuracy);
            QCOMPARE(metrics.meanIoU, single.meanIoU);
            QCOMPARE(metrics.classIoU.size(), single.classIoU.size());
            QVERIFY(qAbs(metrics.loss - single.loss) < 1e-9);
        }
    }

    // What two ranks agree on (Replicas): sums, any, rank 0's values, each rank's row, which values
    // differ from rank 0's, batch-norm buffers averaged and rank 0's weights broadcast.
    void replicasAgreeOverTwoRanks()
    {
        struct Replica : torch::nn::Module {
            explicit Replica(double value)
            {
                weight = register_parameter("weight", torch::full({3}, value));
                mean = register_buffer("mean", torch::full({2}, value));
                count = register_buffer("count", torch::full({1}, std::int64_t(value), torch::kLong));
            }
            torch::Tensor weight, mean, count;
        };
        struct Seen {
            double sum = 0.0;
            torch::Tensor sums, rows;
            bool anyOfOne = false, anyOfNone = true;
            std::vector<double> leaders;
            std::vector<std::int64_t> differing;
            torch::Tensor averagedMean, weight, mean, count;
        };
        std::vector<Seen> seen(2);
        onRanks(2, [&](int rank, Communicator& communicator) {
            const Replicas replicas(&communicator, torch::kCPU);
            auto& mine = seen[std::size_t(rank)];
            mine.sum = replicas.sum(rank + 1.0);
            mine.sums = replicas.sum(torch::tensor({1.0, double(rank)}, torch::kDouble));
            mine.anyOfOne = replicas.any(rank == 1);
            mine.anyOfNone = replicas.any(false);
            mine.leaders = replicas.leaders({rank == 0 ? 5.0 : 9.0, rank == 0 ? 0.5 : -1.0});
            mine.rows = replicas.rows({double(rank), 10.0 + rank});
            mine.differing = replicas.differingFromLeader({42, rank, 7 * rank});
            Replica model(rank + 1.0);  // rank 0 holds 1s, rank 1 2s
            replicas.averageBuffers(model);
            mine.averagedMean = model.mean.clone();
            replicas.broadcastFromLeader(model);
            mine.weight = model.weight.clone();
            mine.mean = model.mean.clone();
            mine.count = model.count.clone();
        });
        for (const auto& mine : seen) {
            QCOMPARE(mine.sum, 3.0);
            QVERIFY(torch::equal(mine.sums, torch::tensor({2.0, 1.0}, torch::kDouble)));
            QVERIFY(mine.anyOfOne);
            QVERIFY(!mine.anyOfNone);
            QCOMPARE(mine.leaders, (std::vector<double>{5.0, 0.5}));
            QVERIFY(torch::equal(mine.rows, torch::tensor({0.0, 10.0, 1.0, 11.0}, torch::kDouble).view({2, 2})));
            QCOMPARE(mine.differing, (std::vector<std::int64_t>{0, 1, 1}));
            QVERIFY(torch::equal(mine.averagedMean, torch::full({2}, 1.5)));  // integer buffers are not averaged
            QVERIFY(torch::equal(mine.weight, torch::full({3}, 1.0)));
            QVERIFY(torch::equal(mine.mean, torch::full({2}, 1.5)));
            QCOMPARE(mine.count.item<std::int64_t>(), std::int64_t(1));
        }
    }
};

QTEST_GUILESS_MAIN(TestDataParallel)
#include "test_DataParallel.moc"
