// Issue 65.1: a rank joining its world, out of Trainer: one process joins nothing and gets no
// gradient sync, and agrees with itself on its packs. Two ranks refusing different packs, by name,
// run as processes in test_DataParallelCli ("differs between ranks").
#include "TestPacks.h"
#include "engine/distributed/Replicas.h"
#include "engine/models/ModelRegistry.h"
#include "engine/training/WorldJoin.h"
#include "pack/PackReader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace segstudio::engine;

class TestWorldJoin : public QObject {
    Q_OBJECT

private slots:
    void oneProcessJoinsNothing()
    {
        QTemporaryDir dir;
        const std::string file = (std::filesystem::path(dir.path().toStdString()) / "train.pack").string();
        segstudio::enginetest::writeStripePack(file, 4, 16, 16, 3, 1);
        const segstudio::pack::PackReader pack(file);
        const Replicas one(nullptr, torch::kCPU);
        auto model = ModelRegistry::instance().create("segnet-tiny", 3);
        const auto before = model->parameters().front().clone();
        TrainConfig config;
        QVERIFY(!WorldJoin::join(nullptr, one, *model, config, pack, nullptr));
        QVERIFY(torch::equal(model->parameters().front(), before));  // nothing broadcast
        WorldJoin::requireSamePacks(one, config, pack, &pack);  // a rank agrees with itself
    }
};

QTEST_APPLESS_MAIN(TestWorldJoin)
#include "test_WorldJoin.moc"
