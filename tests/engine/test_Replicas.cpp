#include "engine/distributed/Replicas.h"

#include <QtTest>

using namespace segstudio::engine;

namespace {

// A parameter, a floating-point buffer (a running mean) and an integer one (a batch counter).
struct Replica : torch::nn::Module {
    explicit Replica(double value)
    {
        weight = register_parameter("weight", torch::full({3}, value));
        mean = register_buffer("mean", torch::full({2}, value));
        count = register_buffer("count", torch::full({1}, std::int64_t(value), torch::kLong));
    }
    torch::Tensor weight, mean, count;
};

}  // namespace

// What the ranks agree on, in one process (no communicator): every agreement is the process's
// own value, and the model is left as it is. Two ranks: test_DataParallel::replicasAgreeOverTwoRanks.
class TestReplicas : public QObject {
    Q_OBJECT

private slots:
    void oneProcessIsAllTheRanks();
    void oneProcessAgreesWithItself();
    void oneProcessLeavesTheModelAlone();
};

void TestReplicas::oneProcessIsAllTheRanks()
{
    const Replicas replicas(nullptr, torch::kCPU);
    QCOMPARE(replicas.rank(), 0);
    QCOMPARE(replicas.size(), 1);
    QVERIFY(replicas.leader());
}

void TestReplicas::oneProcessAgreesWithItself()
{
    const Replicas replicas(nullptr, torch::kCPU);
    QCOMPARE(replicas.sum(2.5), 2.5);
    const auto values = torch::tensor({1.0, -2.0, 0.25}, torch::kDouble);
    QVERIFY(torch::equal(replicas.sum(values), values));
    QVERIFY(replicas.any(true));
    QVERIFY(!replicas.any(false));
    QCOMPARE(replicas.leaders({7.0, 0.0, 3.5}), (std::vector<double>{7.0, 0.0, 3.5}));
    const auto rows = replicas.rows({1.0, 2.0, 3.0});
    QCOMPARE(rows.sizes().vec(), (std::vector<std::int64_t>{1, 3}));
    QVERIFY(torch::equal(rows[0], torch::tensor({1.0, 2.0, 3.0}, torch::kDouble)));
    QCOMPARE(replicas.differingFromLeader({42, -1}), (std::vector<std::int64_t>{0, 0}));
}

void TestReplicas::oneProcessLeavesTheModelAlone()
{
    const Replicas replicas(nullptr, torch::kCPU);
    Replica model(3.0);
    replicas.averageBuffers(model);
    replicas.broadcastFromLeader(model);
    QVERIFY(torch::equal(model.weight, torch::full({3}, 3.0)));
    QVERIFY(torch::equal(model.mean, torch::full({2}, 3.0)));
    QCOMPARE(model.count.item<std::int64_t>(), std::int64_t(3));
}

QTEST_GUILESS_MAIN(TestReplicas)
#include "test_Replicas.moc"
