#include "OptimizerTestParameters.h"
#include "engine/training/FusedAdamW.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sstream>

using namespace segstudio::engine;
using segstudio::enginetest::copies;
using segstudio::enginetest::makeParameters;

// The fused AdamW step against LibTorch's own: the same parameters after several steps (with the
// learning rate changing between steps, as the schedule changes it), the same saved state, and
// LibTorch's arithmetic where the fused pass does not apply.
class TestFusedAdamW : public QObject {
    Q_OBJECT

private slots:
    void stepsMatchLibTorchAdamW();
    void channelsLastParametersMatch();
    void stateSavedByOneLoadsIntoTheOther();
    void amsgradAndGradientlessParametersFollowLibTorch();
    void multiTensorStepsAreLibTorchsArithmetic_data();
    void multiTensorStepsAreLibTorchsArithmetic();
};

namespace {

// The same gradients to both sets, drawn from the step number; the gradient's layout follows
// its parameter's, as autograd's does.
void setGradients(std::vector<torch::Tensor>& a, std::vector<torch::Tensor>& b, int step)
{
    torch::manual_seed(100 + step);
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto g = torch::randn(a[i].sizes()) * double(i + 1);
        a[i].mutable_grad() = g.clone().contiguous(a[i].suggest_memory_format());
        b[i].mutable_grad() = g.clone().contiguous(b[i].suggest_memory_format());
    }
}

void setLearningRate(torch::optim::Optimizer& optimizer, double lr)
{
    for (auto& group : optimizer.param_groups())
        group.options().set_lr(lr);
}

void compareParameters(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b)
{
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double difference = (a[i] - b[i]).abs().max().item<double>();
        QVERIFY2(difference < 1e-6, qPrintable(QString("parameter %1 differs by %2").arg(i).arg(difference)));
    }
}

torch::optim::AdamWOptions options()
{
    return torch::optim::AdamWOptions(5e-3).weight_decay(1e-2).betas(std::make_tuple(0.9, 0.999));
}

void runSteps(torch::optim::Optimizer& fused, torch::optim::Optimizer& reference, std::vector<torch::Tensor>& a,
              std::vector<torch::Tensor>& b, int from, int to)
{
    for (int step = from; step < to; ++step) {
        setGradients(a, b, step);
        setLearningRate(fused, 5e-3 / (1 + step));
        setLearningRate(reference, 5e-3 / (1 + step));
        fused.step();
        reference.step();
    }
}

// Through a serialised archive, as a checkpoint carries the optimiser's state.
void copyState(const torch::optim::Optimizer& from, torch::optim::Optimizer& to)
{
    std::stringstream bytes;
    torch::serialize::OutputArchive out;
    from.save(out);
    out.save_to(bytes);
    torch::serialize::InputArchive in;
    in.load_from(bytes);
    to.load(in);
}

}  // namespace

void TestFusedAdamW::stepsMatchLibTorchAdamW()
{
    auto a = makeParameters();
    auto b = copies(a);
    FusedAdamW fused(a, options());
    torch::optim::AdamW reference(b, options());
    runSteps(fused, reference, a, b, 0, 6);
    compareParameters(a, b);
    // The update is not a no-op: the parameters moved.
    const auto start = makeParameters();
    QVERIFY((a[2] - start[2]).abs().max().item<double>() > 1e-3);
}

void TestFusedAdamW::channelsLastParametersMatch()
{
    auto a = makeParameters(/*channelsLast=*/true);
    auto b = copies(a);
    FusedAdamW fused(a, options());
    torch::optim::AdamW reference(b, options());
    runSteps(fused, reference, a, b, 0, 4);
    compareParameters(a, b);
    QVERIFY(a[0].is_contiguous(torch::MemoryFormat::ChannelsLast));
}

void TestFusedAdamW::stateSavedByOneLoadsIntoTheOther()
{
    auto a = makeParameters();
    auto b = copies(a);
    FusedAdamW fused(a, options());
    torch::optim::AdamW reference(b, options());
    runSteps(fused, reference, a, b, 0, 3);

    // A checkpoint written with the fused step resumes in LibTorch's, and the other way round.
    auto c = copies(a);
    auto d = copies(b);
    torch::optim::AdamW resumedReference(c, options());
    FusedAdamW resumedFused(d, options());
    copyState(fused, resumedReference);
    copyState(reference, resumedFused);
    runSteps(resumedFused, resumedReference, d, c, 3, 6);
    runSteps(fused, reference, a, b, 3, 6);
    compareParameters(d, c);
    compareParameters(a, d);
}

void TestFusedAdamW::amsgradAndGradientlessParametersFollowLibTorch()
{
    auto a = makeParameters();
    auto b = copies(a);
    FusedAdamW fused(a, options().amsgrad(true));
    torch::optim::AdamW reference(b, options().amsgrad(true));
    runSteps(fused, reference, a, b, 0, 3);
    compareParameters(a, b);

    // A parameter without a gradient this step is left alone, weight decay included.
    const auto before = a[1].detach().clone();
    setGradients(a, b, 3);
    a[1].mutable_grad().reset();
    b[1].mutable_grad().reset();
    fused.step();
    reference.step();
    QVERIFY(torch::equal(a[1], before));
    compareParameters(a, b);
}

void TestFusedAdamW::multiTensorStepsAreLibTorchsArithmetic_data()
{
    QTest::addColumn<bool>("channelsLast");
    QTest::newRow("contiguous") << false;
    QTest::newRow("channels-last conv weight") << true;
}

// The GPU's path (one operation for all the parameters), taken here on the CPU: LibTorch's
// operations in LibTorch's order, so bit for bit LibTorch's AdamW (the one-pass kernel is not:
// its coefficients are rounded to float), also once a parameter has skipped a step and its bias
// corrections differ from the others'.
void TestFusedAdamW::multiTensorStepsAreLibTorchsArithmetic()
{
    QFETCH(bool, channelsLast);
    auto a = makeParameters(channelsLast);
    auto b = copies(a);
    FusedAdamW fused(a, options());
    fused.setCpuPath(FusedAdamW::CpuPath::MultiTensor);
    torch::optim::AdamW reference(b, options());
    runSteps(fused, reference, a, b, 0, 3);
    setGradients(a, b, 3);
    a[1].mutable_grad().reset();
    b[1].mutable_grad().reset();
    fused.step();
    reference.step();
    runSteps(fused, reference, a, b, 4, 7);
    for (std::size_t i = 0; i < a.size(); ++i)
        QVERIFY2(torch::equal(a[i], b[i]), qPrintable(QString("parameter %1 differs").arg(i)));
    const auto start = makeParameters(channelsLast);
    QVERIFY((a[2] - start[2]).abs().max().item<double>() > 1e-3);
    if (channelsLast)
        QVERIFY(a[0].is_contiguous(torch::MemoryFormat::ChannelsLast));
}

QTEST_GUILESS_MAIN(TestFusedAdamW)
#include "test_FusedAdamW.moc"
