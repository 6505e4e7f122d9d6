// Issue 65.1: the check before a checkpoint is written, out of Trainer and tested alone: a
// parameter or floating buffer that is NaN or infinite stops the write with the file, the
// iteration and the epoch named; integer buffers are not looked at.
#include "engine/training/FiniteModelCheck.h"
#include "engine/training/NonFiniteParameters.h"

#include <QtTest>

#include <limits>

using namespace segstudio::engine;

namespace {

struct Small : torch::nn::Module {
    Small()
    {
        linear = register_module("linear", torch::nn::Linear(3, 2));
        scale = register_buffer("scale", torch::ones({2}));
        steps = register_buffer("steps", torch::zeros({1}, torch::kLong));
    }
    torch::nn::Linear linear{nullptr};
    torch::Tensor scale, steps;
};

}  // namespace

class TestFiniteModelCheck : public QObject {
    Q_OBJECT

private slots:
    void aFiniteModelPasses()
    {
        Small model;
        FiniteModelCheck::require(model, 10, 2, "last.pt");
    }

    void aNaNParameterStopsTheWriteByName()
    {
        Small model;
        {
            torch::NoGradGuard noGrad;
            model.linear->weight[0][1] = std::numeric_limits<float>::quiet_NaN();
        }
        try {
            FiniteModelCheck::require(model, 41, 3, "best.pt");
            QFAIL("a NaN weight passed");
        } catch (const NonFiniteParameters& error) {
            const QString said = QString::fromUtf8(error.what());
            QVERIFY2(said.contains(QStringLiteral("best.pt was not written")) && said.contains(QStringLiteral("iteration 41")) &&
                         said.contains(QStringLiteral("epoch 3")),
                     qPrintable(said));
        }
    }

    void anInfiniteFloatBufferStopsItToo()
    {
        Small model;
        model.scale.fill_(std::numeric_limits<float>::infinity());
        QVERIFY_THROWS_EXCEPTION(NonFiniteParameters, FiniteModelCheck::require(model, 1, 1, "last.pt"));
    }
};

QTEST_APPLESS_MAIN(TestFiniteModelCheck)
#include "test_FiniteModelCheck.moc"
