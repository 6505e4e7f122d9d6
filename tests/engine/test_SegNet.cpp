#include "engine/runtime/EngineError.h"
#include "engine/models/ModelRegistry.h"
#include "engine/models/SegNet.h"
#include "engine/models/VggWeights.h"

#include <QTemporaryDir>
#include <QtTest>

#include <torch/script.h>

using namespace segstudio::engine;

// SegNet shapes, initialisation and loading VGG-16 encoder weights from a TorchScript archive.
class TestSegNet : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { torch::set_num_threads(1); }
    void outputMatchesInputSize_data();
    void outputMatchesInputSize();
    void vgg16HasThirteenEncoderConvs();
    void deterministicModeGivesSameOutput();
    void registryRejectsUnknownModel();
    void loadsVggWeights();
    void refusesMismatchedVggWeights();
};

void TestSegNet::outputMatchesInputSize_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("height");
    QTest::addColumn<int>("width");
    QTest::newRow("tiny 32x32") << QStringLiteral("segnet-tiny") << 32 << 32;
    QTest::newRow("tiny odd 45x61") << QStringLiteral("segnet-tiny") << 45 << 61;
    QTest::newRow("segnet 36x48 (360x480 / 10)") << QStringLiteral("segnet") << 36 << 48;
}

void TestSegNet::outputMatchesInputSize()
{
    QFETCH(QString, model);
    QFETCH(int, height);
    QFETCH(int, width);
    auto net = ModelRegistry::instance().create(model.toStdString(), 5);
    net->eval();
    torch::NoGradGuard noGrad;
    const auto out = net->forward(torch::randn({2, 3, height, width}));
    QCOMPARE(out.sizes(), (std::vector<std::int64_t>{2, 5, height, width}));
    QVERIFY(torch::isfinite(out).all().item<bool>());
    QVERIFY(net->forwardFlops(height, width) > 0);
}

void TestSegNet::vgg16HasThirteenEncoderConvs()
{
    SegNet net(SegNetOptions::vgg16(11));
    QCOMPARE(net->encoderConvs().size(), std::size_t(13));
    QCOMPARE(net->sizeDivisor(), std::int64_t(32));
    // He initialisation (fan-out): conv1_2 -> conv2_1 is 64 -> 128, so fan-in (64*9) and fan-out
    // (128*9) differ and only the fan-out rule gives this spread.
    const auto weight = net->encoderConvs()[2]->weight;
    const double expected = std::sqrt(2.0 / (128.0 * 9.0));
    QVERIFY(std::abs(weight.std().item<double>() - expected) < 0.1 * expected);

    // The reference decoder: 13 convs mirroring the encoder, the last (conv1_1_D) a 3x3 conv straight
    // to the classes: 26 convs in all, 13 followed by BN in the encoder and 12 in the decoder.
    int convs = 0, norms = 0;
    for (auto& module : net->modules(/*include_self=*/false)) {
        convs += module->as<torch::nn::Conv2d>() != nullptr;
        norms += module->as<torch::nn::BatchNorm2d>() != nullptr;
    }
    QCOMPARE(convs, 26);
    QCOMPARE(norms, 25);
    const auto logits = net->forward(torch::zeros({1, 3, 32, 32}));
    QCOMPARE(logits.size(1), std::int64_t(11));
}

void TestSegNet::deterministicModeGivesSameOutput()
{
    // Deterministic mode unpools by mask instead of max_unpool2d; both must agree, odd sizes included.
    auto net = ModelRegistry::instance().create("segnet-tiny", 3);
    const auto input = torch::randn({2, 3, 37, 50}, torch::requires_grad());
    const auto fast = net->forward(input);
    at::globalContext().setDeterministicAlgorithms(true, false);
    const auto exact = net->forward(input);
    exact.sum().backward();  // the mask path must be differentiable in deterministic mode
    at::globalContext().setDeterministicAlgorithms(false, false);
    QVERIFY(torch::allclose(fast, exact, 1e-5, 1e-6));
    QVERIFY(input.grad().abs().sum().item<double>() > 0);
}

void TestSegNet::registryRejectsUnknownModel()
{
    try {
        ModelRegistry::instance().create("resnet-9000", 3);
        QFAIL("unknown model accepted");
    } catch (const EngineError& error) {
        QVERIFY(std::string(error.what()).find("segnet-tiny") != std::string::npos);
    }
}

namespace {

// Writes a TorchScript archive shaped like torchvision's vgg16().features: convolutions at
// indices 0, 2, 5, ... holding weight and bias; fills each with its layer number.
std::string writeFakeVgg(const QTemporaryDir& dir, bool wrongShape)
{
    const std::vector<int> indices{0, 2, 5, 7, 10, 12, 14, 17, 19, 21, 24, 26, 28};
    const std::vector<std::pair<int, int>> shapes{{3, 64},    {64, 64},   {64, 128},  {128, 128}, {128, 256},
                                                  {256, 256}, {256, 256}, {256, 512}, {512, 512}, {512, 512},
                                                  {512, 512}, {512, 512}, {512, 512}};
    torch::jit::Module features("features");
    for (std::size_t i = 0; i < indices.size(); ++i) {
        torch::jit::Module conv("conv" + std::to_string(i));
        const int in = wrongShape && i == 4 ? 64 : shapes[i].first;
        conv.register_parameter("weight", torch::full({shapes[i].second, in, 3, 3}, float(i + 1)), false);
        conv.register_parameter("bias", torch::full({shapes[i].second}, -float(i + 1)), false);
        features.register_module(std::to_string(indices[i]), conv);
    }
    const std::string file = dir.filePath(wrongShape ? QStringLiteral("bad-vgg.pt") : QStringLiteral("vgg.pt")).toStdString();
    features.save(file);
    return file;
}

}  // namespace

void TestSegNet::loadsVggWeights()
{
    QTemporaryDir dir;
    SegNet net(SegNetOptions::vgg16(11));
    loadVgg16Encoder(*net, writeFakeVgg(dir, false));
    const auto convs = net->encoderConvs();
    for (std::size_t i = 0; i < convs.size(); ++i) {
        QVERIFY(convs[i]->weight.eq(float(i + 1)).all().item<bool>());
        QVERIFY(convs[i]->bias.eq(-float(i + 1)).all().item<bool>());
    }
}

void TestSegNet::refusesMismatchedVggWeights()
{
    QTemporaryDir dir;
    SegNet net(SegNetOptions::vgg16(11));
    const std::string file = writeFakeVgg(dir, true);
    try {
        loadVgg16Encoder(*net, file);
        QFAIL("mismatched weights accepted");
    } catch (const EngineError& error) {
        const std::string message = error.what();
        QVERIFY(message.find(file) != std::string::npos);
        QVERIFY(message.find("convolution 5") != std::string::npos);
    }
    QVERIFY_THROWS_EXCEPTION(EngineError, loadVgg16Encoder(*net, dir.filePath(QStringLiteral("none.pt")).toStdString()));
}

QTEST_GUILESS_MAIN(TestSegNet)
#include "test_SegNet.moc"
