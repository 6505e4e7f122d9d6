#include "engine/models/BilinearAxis.h"
#include "engine/models/DeepLabV3Plus.h"
#include "engine/models/EncoderWeights.h"
#include "engine/runtime/EngineError.h"
#include "engine/models/ModelRegistry.h"
#include "engine/runtime/Runtime.h"

#include <QTemporaryDir>
#include <QtTest>

#include <torch/script.h>

using namespace segstudio::engine;

namespace {

// The models small enough to train a few dozen steps on one CPU thread within a test.
const QStringList kTrainable{"segnet-tiny", "segnet-basic", "deeplabv3plus", "deeplabv3plus-os32", "deeplabv3plus-slim",
                             "deeplabv3plus-resnet18", "deeplabv3plus-resnet18-256",
                             "deeplabv3plus-resnet18-256-s16"};

// Two images whose label follows the image: class 0 where the red channel is high, 1 where green
// is, 2 elsewhere, in blobs a model must place by content, not by position.
std::pair<torch::Tensor, torch::Tensor> tinyBatch(std::int64_t height, std::int64_t width)
{
    torch::manual_seed(3);
    auto noise = torch::rand({2, 1, height / 4, width / 4});
    auto which = torch::nn::functional::interpolate(
                     (noise * 3).floor(), torch::nn::functional::InterpolateFuncOptions()
                                              .size(std::vector<std::int64_t>{height, width})
                                              .mode(torch::kNearest))
                     .squeeze(1)
                     .to(torch::kLong)
                     .clamp(0, 2);
    auto images = torch::zeros({2, 3, height, width});
    images.select(1, 0).masked_fill_(which.eq(0), 2.0);
    images.select(1, 1).masked_fill_(which.eq(1), 2.0);
    images += 0.1 * torch::randn({2, 3, height, width});
    return {images, which};
}

std::vector<torch::Tensor> encoderTensors(torch::nn::Module& encoder, bool statistics)
{
    std::vector<torch::Tensor> tensors;
    if (statistics) {
        for (const auto& buffer : encoder.buffers())
            if (buffer.is_floating_point())
                tensors.push_back(buffer);
    } else {
        tensors = encoder.parameters();
    }
    return tensors;
}

// A TorchScript archive holding source's encoder tensors in order (parameters, then batch-norm
// statistics), plus one trailing 1280x320 conv as torchvision's MobileNetV2 has; badIndex >= 0
// gives that parameter a wrong shape.
std::string writeEncoderArchive(const QTemporaryDir& dir, torch::nn::Module& encoder, int badIndex = -1)
{
    torch::jit::Module archive("features");
    const auto parameters = encoderTensors(encoder, false);
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        auto value = parameters[i].detach().clone();
        if (int(i) == badIndex)
            value = torch::zeros({value.size(0) + 1});
        archive.register_parameter("p" + std::to_string(i), value, false);
    }
    archive.register_parameter("p_last", torch::zeros({1280, 320, 1, 1}), false);
    const auto statistics = encoderTensors(encoder, true);
    for (std::size_t i = 0; i < statistics.size(); ++i)
        archive.register_buffer("s" + std::to_string(i), statistics[i].detach().clone());
    const std::string file = dir.filePath(badIndex >= 0 ? "bad-encoder.pt" : "encoder.pt").toStdString();
    archive.save(file);
    return file;
}

}  // namespace

// Every model of the registry: shapes at odd sizes, gradients, learning a tiny batch, and the
// modern model's encoder from a TorchScript archive.
class TestModels : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { torch::set_num_threads(1); }

    void forwardAndBackwardKeepOddSizes_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("width");
        for (const auto& info : ModelRegistry::instance().models()) {
            const QString name = QString::fromStdString(info.name);
            QTest::newRow(qPrintable(name + " 37x53")) << name << 37 << 53;
            QTest::newRow(qPrintable(name + " 16x16")) << name << 16 << 16;
        }
    }

    void forwardAndBackwardKeepOddSizes()
    {
        QFETCH(QString, model);
        QFETCH(int, height);
        QFETCH(int, width);
        auto net = ModelRegistry::instance().create(model.toStdString(), 5);
        net->train();
        const auto input = torch::randn({2, 3, height, width}, torch::requires_grad());
        const auto out = net->forward(input);
        QCOMPARE(out.sizes(), (std::vector<std::int64_t>{2, 5, height, width}));
        QVERIFY(torch::isfinite(out).all().item<bool>());
        out.logsumexp(1).mean().backward();
        QVERIFY(input.grad().abs().sum().item<double>() > 0);
        for (const auto& parameter : net->parameters())
            QVERIFY2(parameter.grad().defined(), "a parameter took no part in the forward pass");
        QVERIFY(net->forwardFlops(height, width) > 0);
    }

    void overfitsATinyBatch_data()
    {
        QTest::addColumn<QString>("model");
        for (const auto& name : kTrainable)
            QTest::newRow(qPrintable(name)) << name;
    }

    void overfitsATinyBatch()
    {
        QFETCH(QString, model);
        torch::manual_seed(1);
        auto net = ModelRegistry::instance().create(model.toStdString(), 3);
        const auto [images, labels] = tinyBatch(32, 48);
        torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(5e-3));
        net->train();
        double first = 0, last = 0;
        for (int step = 0; step < 60; ++step) {
            optimizer.zero_grad();
            auto loss = torch::nn::functional::cross_entropy(net->forward(images), labels);
            loss.backward();
            optimizer.step();
            last = loss.item<double>();
            if (step == 0)
                first = last;
        }
        torch::NoGradGuard noGrad;
        const double accuracy = net->forward(images).argmax(1).eq(labels).to(torch::kDouble).mean().item<double>();
        QVERIFY2(last < 0.25 * first, qPrintable(QStringLiteral("loss %1 -> %2").arg(first).arg(last)));
        QVERIFY2(accuracy > 0.95, qPrintable(QStringLiteral("accuracy %1").arg(accuracy)));
    }

    void deepLabFlopsFollowTheInputSize()
    {
        DeepLabV3Plus net(DeepLabV3PlusOptions{});
        const double full = net->forwardFlops(360, 480);
        // All work is in convolutions at fixed strides: a quarter of the pixels, about a quarter of the FLOPs.
        QVERIFY(std::abs(net->forwardFlops(180, 240) / full - 0.25) < 0.02);
        QVERIFY(full > 1e9 && full < 1e10);
        std::int64_t parameters = 0;
        for (const auto& p : net->parameters())
            parameters += p.numel();
        QVERIFY(parameters > 2'000'000 && parameters < 3'500'000);
    }

    void deepLabAtOutputStride32()
    {
        auto dilated = ModelRegistry::instance().create("deeplabv3plus", 11);
        auto strided = ModelRegistry::instance().create("deeplabv3plus-os32", 11);
        // The same parameters (ImageNet weights load into either), a coarser deep grid, fewer FLOPs.
        QCOMPARE(strided->parameters().size(), dilated->parameters().size());
        for (std::size_t i = 0; i < strided->parameters().size(); ++i)
            QCOMPARE(strided->parameters()[i].sizes(), dilated->parameters()[i].sizes());
        auto* encoder = dynamic_cast<MobileNetV2EncoderImpl*>(strided->encoder());
        QVERIFY(encoder);
        torch::NoGradGuard noGrad;
        encoder->eval();
        const auto features = encoder->forward(torch::zeros({1, 3, 96, 128}));
        QCOMPARE(features.lowLevel.sizes(), (std::vector<std::int64_t>{1, 24, 24, 32}));
        QCOMPARE(features.deep.sizes(), (std::vector<std::int64_t>{1, 320, 3, 4}));
        const double ratio = strided->forwardFlops(360, 480) / dilated->forwardFlops(360, 480);
        QVERIFY2(ratio > 0.55 && ratio < 0.75, qPrintable(QString::number(ratio)));
        ConvLayout layout;
        QVERIFY_THROWS_EXCEPTION(EngineError, MobileNetV2Encoder(MobileNetV2Options{1.0, 8}, layout));
    }

    void deepLabWithAResNetEncoder()
    {
        auto net = ModelRegistry::instance().create("deeplabv3plus-resnet18", 11);
        auto* encoder = dynamic_cast<ResNetEncoderImpl*>(net->encoder());
        QVERIFY(encoder);
        torch::NoGradGuard noGrad;
        encoder->eval();
        const auto features = encoder->forward(torch::zeros({1, 3, 96, 128}));
        QCOMPARE(features.lowLevel.sizes(), (std::vector<std::int64_t>{1, 64, 24, 32}));
        QCOMPARE(features.deep.sizes(), (std::vector<std::int64_t>{1, 512, 3, 4}));
        std::int64_t parameters = 0;
        for (const auto& p : net->parameters())
            parameters += p.numel();
        QVERIFY2(parameters > 11'000'000 && parameters < 12'000'000, qPrintable(QString::number(parameters)));
        // Each residual branch starts silent (its last norm's scale 0): a fresh block is its shortcut.
        int silent = 0;
        for (auto& module : encoder->modules(/*include_self=*/false))
            if (auto* norm = module->as<torch::nn::BatchNorm2d>())
                silent += norm->weight.eq(0).all().item<bool>();
        QCOMPARE(silent, 8);  // ResNet-18: 8 basic blocks
        ConvLayout layout;
        QVERIFY_THROWS_EXCEPTION(EngineError, ResNetEncoder(ResNetOptions{{2, 2, 2, 2}, 8}, layout));
    }

    // The stride-16 skip: the ResNet encoder at output stride 32 hands out its third stage (256
    // channels at stride 16), the decoder joins it; an encoder without one is refused by name.
    void deepLabWithAStride16Skip()
    {
        auto net = ModelRegistry::instance().create("deeplabv3plus-resnet18-256-s16", 11);
        auto* encoder = dynamic_cast<ResNetEncoderImpl*>(net->encoder());
        QVERIFY(encoder);
        QCOMPARE(encoder->middleChannels(), 256);
        torch::NoGradGuard noGrad;
        net->eval();
        const auto features = encoder->forward(torch::rand({1, 3, 90, 120}));
        QCOMPARE(features.middle.sizes(), (std::vector<std::int64_t>{1, 256, 6, 8}));
        QCOMPARE(features.deep.sizes(), (std::vector<std::int64_t>{1, 256, 3, 4}));
        std::int64_t withSkip = 0, without = 0;
        for (const auto& p : net->parameters())
            withSkip += p.numel();
        for (const auto& p : ModelRegistry::instance().create("deeplabv3plus-resnet18-256", 11)->parameters())
            without += p.numel();
        // 256x64 reduction, then a separable 3x3 from 128 + 64 to 128 channels, with their norms.
        QCOMPARE(withSkip - without, std::int64_t(256 * 64 + 2 * 64 + 192 * 9 + 2 * 192 + 192 * 128 + 2 * 128));
        QCOMPARE(net->forward(torch::rand({1, 3, 90, 120})).sizes(), (std::vector<std::int64_t>{1, 11, 90, 120}));

        DeepLabV3PlusOptions mobile;
        mobile.middleSkipChannels = 64;  // MobileNetV2 at output stride 16 has no stride-16 skip to give
        try {
            DeepLabV3Plus refused(mobile);
            QFAIL("a MobileNetV2 DeepLabV3+ took a stride-16 skip");
        } catch (const EngineError& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("stride-16 skip")), error.what());
        }
    }

    void bilinearMatricesResizeAsInterpolate_data()
    {
        QTest::addColumn<int>("fromHeight");
        QTest::addColumn<int>("fromWidth");
        QTest::addColumn<int>("toHeight");
        QTest::addColumn<int>("toWidth");
        QTest::newRow("stride 32 to 4 (x7.5)") << 6 << 8 << 45 << 60;
        QTest::newRow("x4") << 45 << 60 << 180 << 240;
        QTest::newRow("odd, down") << 37 << 53 << 16 << 11;
        QTest::newRow("one sample") << 1 << 1 << 5 << 7;
    }

    // DeepLabV3+ resizes bf16 CPU tensors by the two axes' matrices (F::interpolate is scalar
    // there): the products must be the bilinear resize.
    void bilinearMatricesResizeAsInterpolate()
    {
        QFETCH(int, fromHeight);
        QFETCH(int, fromWidth);
        QFETCH(int, toHeight);
        QFETCH(int, toWidth);
        torch::manual_seed(4);
        const auto x = torch::randn({2, 3, fromHeight, fromWidth});
        const auto rows = BilinearAxis(fromHeight, toHeight).matrix();
        const auto columns = BilinearAxis(fromWidth, toWidth).matrix();
        QCOMPARE(rows.sizes(), (std::vector<std::int64_t>{toHeight, fromHeight}));
        const auto byMatrices = torch::matmul(torch::matmul(rows, x), columns.t());
        const auto expected = torch::nn::functional::interpolate(
            x, torch::nn::functional::InterpolateFuncOptions()
                   .size(std::vector<std::int64_t>{toHeight, toWidth})
                   .mode(torch::kBilinear)
                   .align_corners(false));
        const double error = (byMatrices - expected).abs().max().item<double>();
        QVERIFY2(error < 1e-5, qPrintable(QString::number(error)));
    }

    // The bf16 forward (autocast on a CPU, the matrix resizes) computes what fp32 does, to bf16's
    // precision, at odd sizes, and its backward reaches the input.
    void deepLabInBf16OnCpuFollowsFp32()
    {
        torch::manual_seed(6);
        auto net = ModelRegistry::instance().create("deeplabv3plus-resnet18", 5);
        net->eval();
        const auto input = torch::randn({1, 3, 37, 53}, torch::requires_grad());
        const auto fp32 = net->forward(input).detach();
        torch::Tensor bf16;
        {
            AutocastScope autocast("bf16", torch::kCPU);
            bf16 = net->forward(input);
        }
        QCOMPARE(bf16.scalar_type(), torch::kBFloat16);
        QCOMPARE(bf16.sizes(), fp32.sizes());
        const double relative = ((bf16.to(torch::kFloat) - fp32).norm() / fp32.norm()).item<double>();
        QVERIFY2(relative < 0.05, qPrintable(QString::number(relative)));
        bf16.to(torch::kFloat).logsumexp(1).mean().backward();
        QVERIFY(torch::isfinite(input.grad()).all().item<bool>());
        QVERIFY(input.grad().abs().sum().item<double>() > 0);
    }

    void deepLabLoadsEncoderWeightsByPosition()
    {
        QTemporaryDir dir;
        torch::manual_seed(7);
        auto source = ModelRegistry::instance().create("deeplabv3plus", 11);
        {
            torch::NoGradGuard noGrad;
            for (auto buffer : source->encoder()->buffers())
                if (buffer.is_floating_point())
                    buffer.uniform_(0.5, 1.5);  // statistics unlike fresh ones (0 and 1)
        }
        const std::string file = writeEncoderArchive(dir, *source->encoder());
        torch::manual_seed(1);
        auto target = ModelRegistry::instance().create("deeplabv3plus", 11);
        const auto classifierWeight = [&] { return target->parameters()[target->parameters().size() - 2]; };
        const auto headBefore = classifierWeight().clone();
        loadEncoderWeights(*target, "deeplabv3plus", file);
        for (bool statistics : {false, true}) {
            const auto from = encoderTensors(*source->encoder(), statistics);
            const auto to = encoderTensors(*target->encoder(), statistics);
            QCOMPARE(from.size(), to.size());
            for (std::size_t i = 0; i < from.size(); ++i)
                QVERIFY(torch::equal(from[i], to[i]));
        }
        QVERIFY(torch::equal(headBefore, classifierWeight()));  // the head keeps its own start
    }

    void deepLabRefusesMismatchedEncoderWeights()
    {
        QTemporaryDir dir;
        auto source = ModelRegistry::instance().create("deeplabv3plus", 11);
        const std::string file = writeEncoderArchive(dir, *source->encoder(), /*badIndex=*/4);
        auto target = ModelRegistry::instance().create("deeplabv3plus", 11);
        try {
            loadEncoderWeights(*target, "deeplabv3plus", file);
            QFAIL("mismatched weights accepted");
        } catch (const EngineError& error) {
            const std::string message = error.what();
            QVERIFY2(message.find(file) != std::string::npos, error.what());
            QVERIFY2(message.find("parameters 5 ('p4')") != std::string::npos, error.what());
        }
        // The slim model's narrower encoder does not take full-width weights.
        auto slim = ModelRegistry::instance().create("deeplabv3plus-slim", 11);
        QVERIFY_THROWS_EXCEPTION(EngineError, loadEncoderWeights(*slim, "deeplabv3plus-slim",
                                                                 writeEncoderArchive(dir, *source->encoder())));
        QVERIFY_THROWS_EXCEPTION(EngineError, loadEncoderWeights(*target, "deeplabv3plus",
                                                                 dir.filePath("missing.pt").toStdString()));
    }

    void encoderMatchesTorchvisionMobileNetV2Layout()
    {
        // torchvision's mobilenet_v2().features[0:18] has 51 convolutions:
        // conv weights and 52 batch norms (weight, bias; running mean, var): 156 parameters and
        // 104 statistics, with these first and last shapes.
        auto net = ModelRegistry::instance().create("deeplabv3plus", 11);
        const auto parameters = encoderTensors(*net->encoder(), false);
        const auto statistics = encoderTensors(*net->encoder(), true);
        QCOMPARE(parameters.size(), std::size_t(153));
        QCOMPARE(statistics.size(), std::size_t(102));
        QCOMPARE(parameters.front().sizes(), (torch::IntArrayRef{32, 3, 3, 3}));
        QCOMPARE(parameters[parameters.size() - 3].sizes(), (torch::IntArrayRef{320, 960, 1, 1}));
    }
};

QTEST_GUILESS_MAIN(TestModels)
#include "test_Models.moc"
