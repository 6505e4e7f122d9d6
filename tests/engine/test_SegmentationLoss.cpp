#include "engine/inference/ClassPriorCorrection.h"
#include "engine/runtime/EngineError.h"
#include "engine/inference/SegmentationLoss.h"

#include <QtTest>

#include <cmath>

using segstudio::engine::ClassPriorCorrection;
using segstudio::engine::EngineError;
using segstudio::engine::SegmentationLoss;

// The weighted, ignore-aware loss against a value computed by hand from its definition, and the
// correction predictions make for its weights.
class TestSegmentationLoss : public QObject {
    Q_OBJECT

private slots:
    void weightedLossIgnoresUnlabelled();
    void allUnlabelledIsZero();
    void hardPixelsAreTheLargestLosses();
    void priorCorrectionUndoesHalfTheWeightsTilt();
};

void TestSegmentationLoss::weightedLossIgnoresUnlabelled()
{
    // 1 image, 3 classes, 1x3 pixels; logits per pixel (class 0, 1, 2).
    const float logits[3][3] = {{2.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 3.0f}, {5.0f, 5.0f, 5.0f}};
    auto tensor = torch::zeros({1, 3, 1, 3});
    for (int p = 0; p < 3; ++p)
        for (int c = 0; c < 3; ++c)
            tensor[0][c][0][p] = logits[p][c];
    // Pixel 0 is class 0, pixel 1 class 2, pixel 2 unlabelled (its huge logits must not matter).
    const auto labels = torch::tensor({0, 2, 255}, torch::kLong).view({1, 1, 3});
    const std::vector<double> weights{0.5, 1.0, 2.0};

    auto nll = [&](int p, int cls) {
        double sum = 0;
        for (int c = 0; c < 3; ++c)
            sum += std::exp(double(logits[p][c]));
        return -(double(logits[p][cls]) - std::log(sum));
    };
    const double expected = (0.5 * nll(0, 0) + 2.0 * nll(1, 2)) / (0.5 + 2.0);

    const SegmentationLoss loss(weights);
    QVERIFY(std::abs(loss(tensor, labels).item<double>() - expected) < 1e-6);

    const SegmentationLoss unweighted;
    const double expectedUnweighted = (nll(0, 0) + nll(1, 2)) / 2.0;
    QVERIFY(std::abs(unweighted(tensor, labels).item<double>() - expectedUnweighted) < 1e-6);
}

void TestSegmentationLoss::allUnlabelledIsZero()
{
    const auto logits = torch::randn({2, 4, 3, 3});
    const auto labels = torch::full({2, 3, 3}, 255, torch::kLong);
    const SegmentationLoss loss({1.0, 1.0, 1.0, 1.0});
    const double value = loss(logits, labels).item<double>();
    QVERIFY(std::isfinite(value));
    QCOMPARE(value, 0.0);
}

void TestSegmentationLoss::hardPixelsAreTheLargestLosses()
{
    // 1 image, 2 classes, 1x4 pixels: per-pixel losses softplus(-margin) for margins 4, 2, 0, -2.
    const float margins[4] = {4.0f, 2.0f, 0.0f, -2.0f};
    auto logits = torch::zeros({1, 2, 1, 4});
    for (int p = 0; p < 4; ++p)
        logits[0][0][0][p] = margins[p];  // every pixel is class 0
    const auto labels = torch::zeros({1, 1, 4}, torch::kLong);
    auto nll = [&](int p) { return std::log1p(std::exp(-double(margins[p]))); };

    // Half the pixels: the two hardest (margins 0 and -2); a quarter rounds up to one.
    QVERIFY(std::abs(SegmentationLoss({}, torch::kCPU, 0.5)(logits, labels).item<double>() - (nll(2) + nll(3)) / 2) < 1e-6);
    QVERIFY(std::abs(SegmentationLoss({}, torch::kCPU, 0.2)(logits, labels).item<double>() - nll(3)) < 1e-6);
    // Every pixel: the plain mean, as without the option.
    const double mean = (nll(0) + nll(1) + nll(2) + nll(3)) / 4;
    QVERIFY(std::abs(SegmentationLoss({}, torch::kCPU, 1.0)(logits, labels).item<double>() - mean) < 1e-6);
    // Unlabelled pixels count as solved: with the hardest one unlabelled, the top two are 0 and 2.
    const auto partly = torch::tensor({0, 0, 0, 255}, torch::kLong).view({1, 1, 4});
    QVERIFY(std::abs(SegmentationLoss({}, torch::kCPU, 0.5)(logits, partly).item<double>() - (nll(1) + nll(2)) / 2) < 1e-6);
    // Gradients reach only the chosen pixels.
    auto input = logits.clone().requires_grad_(true);
    SegmentationLoss({}, torch::kCPU, 0.25)(input, labels).backward();
    const auto gradient = input.grad()[0][0][0];
    QCOMPARE(gradient.ne(0).sum().item<std::int64_t>(), std::int64_t(1));
    QVERIFY(gradient[3].item<double>() != 0.0);
}

QTEST_GUILESS_MAIN(TestSegmentationLoss)
// Predictions add -0.5 ln(w_c) to the logits: a class weighted 4x loses ln 2 nats, so it keeps a
// pixel only where it led by more than that.
void TestSegmentationLoss::priorCorrectionUndoesHalfTheWeightsTilt()
{
    const ClassPriorCorrection correction({1.0, 4.0, 0.0});
    QVERIFY(correction.active());
    const auto offsets = correction.offsets();
    QVERIFY(std::abs(offsets[0].item<double>()) < 1e-7);
    QVERIFY(std::abs(offsets[1].item<double>() + std::log(2.0)) < 1e-6);
    QCOMPARE(offsets[2].item<double>(), 0.0);  // no training pixels: nothing to undo
    // Pixel 0: class 1 leads by 0.5 nats (< ln 2), pixel 1: by 1.0 (> ln 2).
    const auto logits = torch::tensor({0.0f, 0.0f, 0.5f, 1.0f, -9.0f, -9.0f}).view({1, 3, 1, 2});
    QCOMPARE(logits.argmax(1).flatten()[0].item<std::int64_t>(), std::int64_t(1));
    const auto decided = correction.apply(logits).argmax(1).flatten();
    QCOMPARE(decided[0].item<std::int64_t>(), std::int64_t(0));
    QCOMPARE(decided[1].item<std::int64_t>(), std::int64_t(1));

    // No weights, equal weights: logits unchanged (as float).
    QVERIFY(!ClassPriorCorrection(std::vector<double>{}).active());
    QVERIFY(!ClassPriorCorrection({2.0, 2.0, 2.0}).active());
    QVERIFY(torch::equal(ClassPriorCorrection().apply(logits.to(torch::kBFloat16)), logits.to(torch::kBFloat16).to(torch::kFloat)));
    QVERIFY_THROWS_EXCEPTION(EngineError, ClassPriorCorrection({1.0, -1.0}));
    QVERIFY_THROWS_EXCEPTION(EngineError, ClassPriorCorrection({1.0, std::nan("")}));
}

#include "test_SegmentationLoss.moc"
