#include "OptimizerTestParameters.h"
#include "engine/training/MultiTensorSGD.h"

#include <QtTest>

#include <sstream>

using namespace segstudio::engine;
using segstudio::enginetest::copies;
using segstudio::enginetest::makeParameters;

// MultiTensorSGD against LibTorch's SGD: bit for bit the same parameters after several steps
// (the learning rate changing between them, as the schedule changes it), with momentum,
// dampening, Nesterov and L2 decay as SGDOptions combine them, a parameter that skips steps and
// starts its momentum late, and state that one saves and the other resumes.
class TestMultiTensorSGD : public QObject {
    Q_OBJECT

private slots:
    void stepsAreLibTorchsSgd_data();
    void stepsAreLibTorchsSgd();
    void stateSavedByOneLoadsIntoTheOther();
};

namespace {

// The same gradients to both; parameter 1 has none before step 2 and at step 4.
void setGradients(std::vector<torch::Tensor>& a, std::vector<torch::Tensor>& b, int step)
{
    torch::manual_seed(100 + step);
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (i == 1 && (step < 2 || step == 4)) {
            a[i].mutable_grad().reset();
            b[i].mutable_grad().reset();
            continue;
        }
        const auto g = torch::randn(a[i].sizes()) * double(i + 1);
        a[i].mutable_grad() = g.clone().contiguous(a[i].suggest_memory_format());
        b[i].mutable_grad() = g.clone().contiguous(b[i].suggest_memory_format());
    }
}

void runSteps(torch::optim::Optimizer& tested, torch::optim::Optimizer& reference, std::vector<torch::Tensor>& a,
              std::vector<torch::Tensor>& b, int from, int to)
{
    for (int step = from; step < to; ++step) {
        setGradients(a, b, step);
        for (auto* optimizer : {&tested, &reference})
            for (auto& group : optimizer->param_groups())
                group.options().set_lr(1e-2 / (1 + step));
        tested.step();
        reference.step();
    }
}

bool same(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b)
{
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!torch::equal(a[i], b[i]))
            return false;
    return true;
}

}  // namespace

void TestMultiTensorSGD::stepsAreLibTorchsSgd_data()
{
    QTest::addColumn<double>("momentum");
    QTest::addColumn<double>("dampening");
    QTest::addColumn<bool>("nesterov");
    QTest::addColumn<double>("weightDecay");
    QTest::newRow("the SegNet recipe: momentum 0.9, L2 5e-4") << 0.9 << 0.0 << false << 5e-4;
    QTest::newRow("plain") << 0.0 << 0.0 << false << 0.0;
    QTest::newRow("decay without momentum") << 0.0 << 0.0 << false << 1e-2;
    QTest::newRow("Nesterov") << 0.9 << 0.0 << true << 1e-3;
    QTest::newRow("dampening") << 0.8 << 0.3 << false << 0.0;
}

void TestMultiTensorSGD::stepsAreLibTorchsSgd()
{
    QFETCH(double, momentum);
    QFETCH(double, dampening);
    QFETCH(bool, nesterov);
    QFETCH(double, weightDecay);
    const auto options =
        torch::optim::SGDOptions(1e-2).momentum(momentum).dampening(dampening).nesterov(nesterov).weight_decay(weightDecay);
    auto a = makeParameters(/*channelsLast=*/true);
    auto b = copies(a);
    MultiTensorSGD tested(a, options);
    torch::optim::SGD reference(b, options);
    runSteps(tested, reference, a, b, 0, 7);
    QVERIFY(same(a, b));
    QVERIFY((a[2] - makeParameters(true)[2]).abs().max().item<double>() > 1e-3);  // it did step
    QVERIFY(a[0].is_contiguous(torch::MemoryFormat::ChannelsLast));
}

void TestMultiTensorSGD::stateSavedByOneLoadsIntoTheOther()
{
    const auto options = torch::optim::SGDOptions(1e-2).momentum(0.9).weight_decay(5e-4);
    auto a = makeParameters(/*channelsLast=*/true);
    auto b = copies(a);
    MultiTensorSGD tested(a, options);
    torch::optim::SGD reference(b, options);
    runSteps(tested, reference, a, b, 0, 3);
    // Through a serialised archive, as a checkpoint carries it: each resumes the other's momentum.
    auto c = copies(a);
    auto d = copies(b);
    torch::optim::SGD resumedReference(c, options);
    MultiTensorSGD resumedTested(d, options);
    for (auto [from, to] : {std::pair<torch::optim::Optimizer*, torch::optim::Optimizer*>{&tested, &resumedReference},
                            {&reference, &resumedTested}}) {
        std::stringstream bytes;
        torch::serialize::OutputArchive out;
        from->save(out);
        out.save_to(bytes);
        torch::serialize::InputArchive in;
        in.load_from(bytes);
        to->load(in);
    }
    runSteps(resumedTested, resumedReference, d, c, 3, 6);
    runSteps(tested, reference, a, b, 3, 6);
    QVERIFY(same(d, c));
    QVERIFY(same(a, d));
}

QTEST_GUILESS_MAIN(TestMultiTensorSGD)
#include "test_MultiTensorSGD.moc"
