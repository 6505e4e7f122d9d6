// Every model in the registry, written as ONNX and run by OpenCV's DNN module: its logits equal
// LibTorch's within 1e-4 on the demo's street scenes, at a size the network divides evenly and at
// one it pads (SegNet) or rounds (DeepLabV3+'s stride 16); the file passes ONNX's checker (and
// python3-onnx's full check where it is installed) and carries the classes in its metadata; its
// output "logits" is the value the model computes last, and a graph with a step after it is refused.
#include "data/project/SyntheticDatasetGenerator.h"
#include "deploy/OpenCvOnnxModel.h"
#include "engine/models/Checkpoint.h"
#include "engine/inference/LoadedModel.h"
#include "engine/models/ModelCatalog.h"
#include "engine/models/ModelRegistry.h"
#include "engine/inference/Predictor.h"
#include "engine/runtime/Runtime.h"
#include "onnx/OnnxModelExporter.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <onnx/onnx_pb.h>
#include <opencv2/imgproc.hpp>

using namespace segstudio;
namespace fs = std::filesystem;

namespace {

constexpr const char* kTrailingStepModel = "test-trailing-step";

// A 1x1 classifier whose graph writes one more step after its logits (a value computed and
// dropped), so the graph's last node is not the logits': what the export must refuse.
class TrailingStepModelImpl : public engine::SegmentationModelImpl {
public:
    explicit TrailingStepModelImpl(int classes) : m_classes(classes)
    {
        m_classifier = register_module("classifier", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, classes, 1)));
    }

    torch::Tensor forward(torch::Tensor images) override { return m_classifier->forward(images); }
    int classes() const override { return m_classes; }
    double forwardFlops(std::int64_t height, std::int64_t width) const override
    {
        return 2.0 * 3 * m_classes * height * width;
    }

    engine::GraphValue writeGraph(engine::GraphWriter& writer, const engine::GraphValue& images) override
    {
        const auto logits = writer.conv(images, *m_classifier);
        writer.relu(logits);
        return logits;
    }

private:
    int m_classes;
    torch::nn::Conv2d m_classifier{nullptr};
};

std::vector<std::int64_t> declaredShape(const onnx::ValueInfoProto& value)
{
    std::vector<std::int64_t> dims;
    for (const auto& dim : value.type().tensor_type().shape().dim())
        dims.push_back(dim.dim_value());
    return dims;
}

const onnx::NodeProto* producerOf(const onnx::GraphProto& graph, const std::string& name)
{
    for (const auto& node : graph.node())
        for (const auto& output : node.output())
            if (output == name)
                return &node;
    return nullptr;
}

const onnx::TensorProto* initializerOf(const onnx::GraphProto& graph, const std::string& name)
{
    for (const auto& initializer : graph.initializer())
        if (initializer.name() == name)
            return &initializer;
    return nullptr;
}

}  // namespace

class TestOnnxExport : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    // A checkpoint whose batch-norm statistics are not the identity: a few train-mode passes.
    std::string checkpointOf(const std::string& name, int classes)
    {
        torch::manual_seed(3);
        auto model = engine::ModelRegistry::instance().create(name, classes);
        model->train();
        {
            torch::NoGradGuard noGrad;
            // A branch whose norm starts at a zero scale (ResNet's residual branches) must still
            // count in the comparison.
            for (auto& module : model->modules(/*include_self=*/false))
                if (auto* norm = module->as<torch::nn::BatchNorm2d>(); norm && norm->weight.eq(0).all().item<bool>())
                    norm->weight.fill_(1.0);
            for (int i = 0; i < 3; ++i)
                model->forward(torch::randn({2, 3, 64, 96}) * 2 + 0.5);
        }
        const std::string file = (fs::path(m_dir.path().toStdString()) / (name + ".pt")).string();
        std::vector<std::string> names;
        for (int k = 0; k < classes; ++k)
            names.push_back("class" + std::to_string(k));
        // Class weights as training keeps them: the export must add their prior correction.
        std::vector<double> weights;
        for (int k = 0; k < classes; ++k)
            weights.push_back(0.5 + 0.75 * k);
        engine::Checkpoint::save(file, *model, nullptr,
                                 {{"model", name}, {"classNames", names}, {"classWeights", weights}, {"height", 64}, {"width", 96}});
        return file;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        torch::set_num_threads(1);
    }

    void openCvComputesWhatLibTorchComputes_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("width");
        for (const auto& info : engine::availableModels()) {
            if (info.name == kTrailingStepModel)
                continue;  // made to be refused (aGraphWithAStepAfterTheLogitsIsRefused)
            const QByteArray name = QByteArray::fromStdString(info.name);
            QTest::newRow(name + " 64x96") << QString::fromStdString(info.name) << 64 << 96;
            QTest::newRow(name + " 72x100") << QString::fromStdString(info.name) << 72 << 100;
        }
    }

    void openCvComputesWhatLibTorchComputes()
    {
        QFETCH(QString, model);
        QFETCH(int, height);
        QFETCH(int, width);
        constexpr int kClasses = 5;
        const std::string checkpoint = checkpointOf(model.toStdString(), kClasses);
        const fs::path file = fs::path(m_dir.path().toStdString()) / (model.toStdString() + std::to_string(height) + ".onnx");
        const auto result = onnxexport::OnnxModelExporter::exportModel({checkpoint, file, height, width, {}});
        QVERIFY2(result.maxGraphDifference < 1e-5, std::to_string(result.maxGraphDifference).c_str());
        QCOMPARE(result.height, height);

        deploy::OpenCvOnnxModel runtime(file);
        QCOMPARE(runtime.inputSize(), cv::Size(width, height));
        QCOMPARE(runtime.classes(), kClasses);
        QCOMPARE(nlohmann::json::parse(runtime.metadata().at("segstudio.classes")).size(), std::size_t(kClasses));

        const auto reference = engine::LoadedModel::fromCheckpoint(checkpoint, torch::kCPU);
        QVERIFY(reference.correction.active());
        torch::NoGradGuard noGrad;
        const data::SyntheticDatasetGenerator demo(height, width);
        for (std::uint64_t seed : {1, 2}) {
            const cv::Mat rgb = demo.generate(seed).image;
            const auto pixels = torch::from_blob(rgb.data, {1, height, width, 3}, torch::kUInt8).permute({0, 3, 1, 2});
            const auto expected = reference.decisionLogits(engine::normaliseImages(pixels.to(torch::kFloat), false)).contiguous();
            const cv::Mat logits = runtime.logits(rgb);
            QCOMPARE(logits.total(), std::size_t(expected.numel()));
            const auto actual = torch::from_blob(const_cast<float*>(logits.ptr<float>()), expected.sizes(), torch::kFloat);
            const double difference = (actual - expected).abs().max().item<double>();
            const double scale = expected.abs().max().item<double>();
            QVERIFY2(difference <= 1e-4 * std::max(1.0, scale),
                     (model.toStdString() + ": max |OpenCV - LibTorch| = " + std::to_string(difference) + " (logits up to " +
                      std::to_string(scale) + ")").c_str());
        }
    }

    // predict --runtime opencv: an image of another size than the file's, resized in and the
    // logits resized back as the engine's predict does; the two runtimes' resizes round apart, so
    // a few boundary pixels may differ.
    void openCvLabelsOfAnyImageSizeMatchTheEnginesPredict()
    {
        const std::string checkpoint = checkpointOf("deeplabv3plus-slim", 4);
        const fs::path file = fs::path(m_dir.path().toStdString()) / "any-size.onnx";
        onnxexport::OnnxModelExporter::exportModel({checkpoint, file, 0, 0, {}});  // the trained 64x96
        deploy::OpenCvOnnxModel runtime(file);
        QCOMPARE(runtime.inputSize(), cv::Size(96, 64));
        QCOMPARE(runtime.classNames(), (std::vector<std::string>{"class0", "class1", "class2", "class3"}));
        engine::Predictor predictor(checkpoint, "cpu");
        const cv::Mat rgb = data::SyntheticDatasetGenerator(150, 200).generate(4).image;
        const cv::Mat labels = runtime.labels(rgb);
        QCOMPARE(labels.size(), rgb.size());
        const auto expected = predictor.predict(rgb.ptr<std::uint8_t>(), rgb.rows, rgb.cols);
        const cv::Mat engineLabels(rgb.rows, rgb.cols, CV_8UC1, const_cast<std::uint8_t*>(expected.data()));
        const double agreement = double(cv::countNonZero(labels == engineLabels)) / double(labels.total());
        QVERIFY2(agreement >= 0.99, std::to_string(agreement).c_str());
    }

    void pythonOnnxCheckerAccepts()
    {
        const QString python = QStandardPaths::findExecutable("python3", {"/usr/bin"});
        QProcess probe;
        probe.start(python, {"-c", "import onnx"});
        if (python.isEmpty() || !probe.waitForFinished(60000) || probe.exitCode() != 0)
            QSKIP("python3-onnx is not installed (apt-get install python3-onnx)");
        const std::string checkpoint = checkpointOf("deeplabv3plus-slim", 3);
        const fs::path file = fs::path(m_dir.path().toStdString()) / "checked.onnx";
        onnxexport::OnnxModelExporter::exportModel({checkpoint, file, 64, 96, {{"class1", {1, 2, 3}}}});
        QProcess check;
        check.start(python, {"-c", "import onnx, sys; m = onnx.load(sys.argv[1]); onnx.checker.check_model(m, full_check=True); "
                                   "print({p.key: p.value for p in m.metadata_props}['segstudio.colors'])",
                             QString::fromStdString(file.string())});
        QVERIFY(check.waitForFinished(120000));
        QVERIFY2(check.exitCode() == 0, check.readAllStandardError().constData());
        QCOMPARE(check.readAllStandardOutput().trimmed(), QByteArray(R"({"class1":[1,2,3]})"));
    }

    // The output named "logits" is the value the model computes last: declared 1xKxHxW, made by
    // one node, the last, here the prior correction's Add (one offset per class) on the value of
    // the classifier convolution (K filters). segnet-tiny at 64x96 needs no pad, so no crop.
    void theLogitsOutputIsTheClassifiersValue()
    {
        constexpr int kClasses = 4;
        const std::string checkpoint = checkpointOf("segnet-tiny", kClasses);
        const fs::path file = fs::path(m_dir.path().toStdString()) / "logits-output.onnx";
        onnxexport::OnnxModelExporter::exportModel({checkpoint, file, 64, 96, {}});
        onnx::ModelProto model;
        std::ifstream stream(file, std::ios::binary);
        QVERIFY(model.ParseFromIstream(&stream));
        const auto& graph = model.graph();
        QCOMPARE(graph.output_size(), 1);
        QCOMPARE(graph.output(0).name(), std::string("logits"));
        QCOMPARE(declaredShape(graph.output(0)), (std::vector<std::int64_t>{1, kClasses, 64, 96}));
        const onnx::NodeProto* correction = producerOf(graph, "logits");
        QVERIFY(correction == &graph.node(graph.node_size() - 1));
        QCOMPARE(correction->output_size(), 1);
        QCOMPARE(correction->op_type(), std::string("Add"));
        const onnx::TensorProto* offsets = initializerOf(graph, correction->input(1));
        QVERIFY(offsets && offsets->name().rfind("class_prior_correction", 0) == 0);
        QCOMPARE(offsets->dims(1), std::int64_t(kClasses));
        const onnx::NodeProto* classifier = producerOf(graph, correction->input(0));
        QVERIFY(classifier && classifier->op_type() == "Conv");
        const onnx::TensorProto* filters = initializerOf(graph, classifier->input(1));
        QVERIFY(filters);
        QCOMPARE(filters->dims(0), std::int64_t(kClasses));
    }

    // A graph whose last node is not the logits is refused, not written with that node's output
    // renamed "logits". The checkpoint has no class weights: the prior correction's Add would
    // otherwise be the last node and hide the trailing step.
    void aGraphWithAStepAfterTheLogitsIsRefused()
    {
        engine::ModelRegistry::instance().add(kTrailingStepModel, "a model whose graph ends after its logits (test)",
                                              [](int classes) {
                                                  return std::make_shared<TrailingStepModelImpl>(classes);
                                              });
        auto model = engine::ModelRegistry::instance().create(kTrailingStepModel, 3);
        const fs::path dir = m_dir.path().toStdString();
        const std::string checkpoint = (dir / "trailing.pt").string();
        engine::Checkpoint::save(checkpoint, *model, nullptr,
                                 {{"model", kTrailingStepModel}, {"classNames", {"a", "b", "c"}}, {"height", 16},
                                  {"width", 16}});
        try {
            onnxexport::OnnxModelExporter::exportModel({checkpoint, dir / "trailing.onnx", 16, 16, {}});
            QFAIL("a graph whose last node is not the logits was exported");
        } catch (const std::runtime_error& error) {
            QVERIFY2(QString(error.what()).contains("does not compute the logits"), error.what());
            QVERIFY2(QString(error.what()).contains("trailing.pt"), error.what());
        }
        QVERIFY(!fs::exists(dir / "trailing.onnx"));
    }

    void aMissingCheckpointIsNamed()
    {
        const fs::path missing = fs::path(m_dir.path().toStdString()) / "none.pt";
        try {
            onnxexport::OnnxModelExporter::exportModel({missing, fs::path(m_dir.path().toStdString()) / "x.onnx", 0, 0, {}});
            QFAIL("a missing checkpoint was exported");
        } catch (const std::exception& error) {
            QVERIFY2(QString(error.what()).contains("none.pt"), error.what());
        }
        QVERIFY(!fs::exists(fs::path(m_dir.path().toStdString()) / "x.onnx"));
    }
};

QTEST_GUILESS_MAIN(TestOnnxExport)
#include "test_OnnxExport.moc"
