#include "engine/inference/BatchNormAdaptation.h"
#include "engine/runtime/EngineError.h"

#include <QtTest>

#include <limits>
#include <stdexcept>

using namespace segstudio::engine;

// Test-time adaptation of batch norms (AdaBN): the statistics a model normalises by, estimated
// again on images of another domain and blended with the trained ones; nothing else changes.
class TestBatchNormAdaptation : public QObject {
    Q_OBJECT

private slots:
    void init();
    void weightOneTakesTheObservedStatistics();
    void weightBlendsTheTwo();
    void weightZeroChangesNothing();
    void onlyTheNormsTrainWhileObserving();
    void aFailedObservationLeavesTheModelAsTrained();
    void aWeightOutsideZeroToOneIsRefused();
    void theShiftSeparatesAnotherDomainFromTheTrainedOne();
    void aGateOnTheShiftAdaptsOnlyAnotherDomain();

private:
    torch::nn::Sequential m_model{nullptr};
    torch::nn::Conv2d m_conv{nullptr};
    torch::nn::BatchNorm2d m_norm{nullptr};
    torch::nn::Dropout m_dropout{nullptr};
    torch::Tensor m_trainedMean, m_trainedVariance;
};

namespace {

// Two batches of "another domain": darker and less varied than what the model trained on.
std::vector<torch::Tensor> newDomainBatches()
{
    torch::manual_seed(3);
    return {torch::rand({4, 3, 9, 11}) * 0.3 - 1.0, torch::rand({4, 3, 9, 11}) * 0.3 - 0.8};
}

}  // namespace

void TestBatchNormAdaptation::init()
{
    torch::manual_seed(1);
    m_conv = torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 5, 3).padding(1));
    m_norm = torch::nn::BatchNorm2d(5);
    m_dropout = torch::nn::Dropout(0.5);
    m_model = torch::nn::Sequential(m_conv, m_norm, torch::nn::ReLU(), m_dropout);
    // "Trained" statistics: those of bright, varied images, after a few steps as training leaves them.
    m_model->train();
    {
        torch::NoGradGuard noGrad;
        for (int i = 0; i < 20; ++i)
            m_model->forward(torch::rand({4, 3, 9, 11}) * 2.0);
    }
    m_model->eval();
    m_trainedMean = m_norm->running_mean.clone();
    m_trainedVariance = m_norm->running_var.clone();
}

void TestBatchNormAdaptation::weightOneTakesTheObservedStatistics()
{
    const auto batches = newDomainBatches();
    BatchNormAdaptation::adapt(*m_model, 1.0, [&] {
        for (const auto& batch : batches)
            m_model->forward(batch);
    });
    // The cumulative mean over the two batches of each batch's channel mean and unbiased variance.
    torch::Tensor mean = torch::zeros({5}), variance = torch::zeros({5});
    {
        torch::NoGradGuard noGrad;
        for (const auto& batch : batches) {
            const auto features = m_conv->forward(batch);
            mean += features.mean({0, 2, 3}) / 2.0;
            variance += features.var({0, 2, 3}, /*unbiased=*/true) / 2.0;
        }
    }
    QVERIFY(torch::allclose(m_norm->running_mean, mean, 1e-5, 1e-6));
    QVERIFY(torch::allclose(m_norm->running_var, variance, 1e-5, 1e-6));
    QVERIFY(!torch::allclose(mean, m_trainedMean, 1e-2, 1e-2));  // the domains differ, as meant
    QVERIFY(!m_model->is_training());
    QVERIFY(!m_norm->is_training());
    QVERIFY(m_norm->options.momentum().has_value());
    QCOMPARE(*m_norm->options.momentum(), 0.1);
}

void TestBatchNormAdaptation::weightBlendsTheTwo()
{
    const auto batches = newDomainBatches();
    auto observe = [&] {
        for (const auto& batch : batches)
            m_model->forward(batch);
    };
    BatchNormAdaptation::adapt(*m_model, 1.0, observe);
    const auto observedMean = m_norm->running_mean.clone(), observedVariance = m_norm->running_var.clone();
    m_norm->running_mean.copy_(m_trainedMean);
    m_norm->running_var.copy_(m_trainedVariance);
    BatchNormAdaptation::adapt(*m_model, 0.25, observe);
    QVERIFY(torch::allclose(m_norm->running_mean, 0.75 * m_trainedMean + 0.25 * observedMean, 1e-5, 1e-6));
    QVERIFY(torch::allclose(m_norm->running_var, 0.75 * m_trainedVariance + 0.25 * observedVariance, 1e-5, 1e-6));
}

void TestBatchNormAdaptation::weightZeroChangesNothing()
{
    bool observed = false;
    BatchNormAdaptation::adapt(*m_model, 0.0, [&] { observed = true; });
    QVERIFY(!observed);  // nothing to estimate: the images are not even run
    QVERIFY(torch::equal(m_norm->running_mean, m_trainedMean));
    QVERIFY(torch::equal(m_norm->running_var, m_trainedVariance));
}

void TestBatchNormAdaptation::onlyTheNormsTrainWhileObserving()
{
    const auto weights = m_conv->weight.clone();
    bool normTrains = false, dropoutTrains = true, modelTrains = true;
    BatchNormAdaptation::adapt(*m_model, 1.0, [&] {
        normTrains = m_norm->is_training();
        dropoutTrains = m_dropout->is_training();
        modelTrains = m_model->is_training();
        for (const auto& batch : newDomainBatches())
            m_model->forward(batch);
    });
    QVERIFY(normTrains);
    QVERIFY(!dropoutTrains);
    QVERIFY(!modelTrains);
    QVERIFY(torch::equal(m_conv->weight, weights));
    QVERIFY(!m_norm->is_training());
}

void TestBatchNormAdaptation::aFailedObservationLeavesTheModelAsTrained()
{
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, BatchNormAdaptation::adapt(*m_model, 1.0, [&] {
        m_model->forward(newDomainBatches().front());
        throw std::runtime_error("out of memory on the third image");
    }));
    QVERIFY(torch::equal(m_norm->running_mean, m_trainedMean));
    QVERIFY(torch::equal(m_norm->running_var, m_trainedVariance));
    QVERIFY(!m_norm->is_training());
    QCOMPARE(*m_norm->options.momentum(), 0.1);
}

void TestBatchNormAdaptation::aWeightOutsideZeroToOneIsRefused()
{
    for (double weight : {-0.1, 1.5, std::numeric_limits<double>::quiet_NaN()})
        QVERIFY_THROWS_EXCEPTION(EngineError, BatchNormAdaptation::adapt(*m_model, weight, [] {}));
    QVERIFY(torch::equal(m_norm->running_mean, m_trainedMean));
}

// The shift: the mean over the first norm's channels of |log(observed variance / trained variance)|.
void TestBatchNormAdaptation::theShiftSeparatesAnotherDomainFromTheTrainedOne()
{
    torch::manual_seed(7);
    std::vector<torch::Tensor> sameDomain;
    for (int i = 0; i < 4; ++i)
        sameDomain.push_back(torch::rand({4, 3, 9, 11}) * 2.0);  // as trained
    const auto same = BatchNormAdaptation::adapt(*m_model, 1.0, [&] {
        for (const auto& batch : sameDomain)
            m_model->forward(batch);
    });
    const double eps = m_norm->options.eps();
    const double expected = ((m_norm->running_var + eps) / (m_trainedVariance + eps)).log().abs().mean().item<double>();
    QVERIFY2(std::abs(same.shift - expected) < 1e-6, qPrintable(QString("%1 against %2").arg(same.shift).arg(expected)));
    QCOMPARE(same.weight, 1.0);
    m_norm->running_mean.copy_(m_trainedMean);
    m_norm->running_var.copy_(m_trainedVariance);
    const auto other = BatchNormAdaptation::adapt(*m_model, 1.0, [&] {
        for (const auto& batch : newDomainBatches())
            m_model->forward(batch);
    });
    QVERIFY2(other.shift > 4.0 * same.shift, qPrintable(QString("%1 against %2").arg(other.shift).arg(same.shift)));
    QCOMPARE(BatchNormAdaptation::adapt(*m_model, 0.0, [] {}).shift, 0.0);  // nothing observed
}

// The weight chosen from the shift: 0 leaves the statistics bit-identical after observing.
void TestBatchNormAdaptation::aGateOnTheShiftAdaptsOnlyAnotherDomain()
{
    double seen = -1.0;
    const auto gate = [&](double shift) {
        seen = shift;
        return shift > 1e9 ? 1.0 : 0.0;
    };
    const auto kept = BatchNormAdaptation::adapt(*m_model, gate, [&] {
        for (const auto& batch : newDomainBatches())
            m_model->forward(batch);
    });
    QCOMPARE(kept.weight, 0.0);
    QCOMPARE(kept.shift, seen);
    QVERIFY(seen > 0.0);
    QVERIFY(torch::equal(m_norm->running_mean, m_trainedMean));
    QVERIFY(torch::equal(m_norm->running_var, m_trainedVariance));
    const auto adapted = BatchNormAdaptation::adapt(*m_model, [](double shift) { return shift > 0.0 ? 1.0 : 0.0; }, [&] {
        for (const auto& batch : newDomainBatches())
            m_model->forward(batch);
    });
    QCOMPARE(adapted.weight, 1.0);
    QVERIFY(!torch::allclose(m_norm->running_mean, m_trainedMean, 1e-2, 1e-2));
    // A weight outside 0..1 from the gate is refused, the statistics left as the call found them.
    const auto before = m_norm->running_mean.clone();
    QVERIFY_THROWS_EXCEPTION(EngineError, BatchNormAdaptation::adapt(*m_model, [](double) { return 2.0; }, [&] {
        m_model->forward(newDomainBatches().front());
    }));
    QVERIFY(torch::equal(m_norm->running_mean, before));
}

QTEST_GUILESS_MAIN(TestBatchNormAdaptation)
#include "test_BatchNormAdaptation.moc"
