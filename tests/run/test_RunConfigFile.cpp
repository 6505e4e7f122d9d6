#include "RunTestFiles.h"

#include "run/RunConfigFile.h"

#include <QTemporaryDir>
#include <QTest>

using segstudio::run::RunConfigFile;
namespace test = segstudio::test;

// config.json as the engine writes it, read by the one reader the GUI uses (issue 26): fields of
// the right type are taken, missing or mistyped ones are empty, no file or no object is nullopt.
class TestRunConfigFile : public QObject {
    Q_OBJECT

private slots:
    void readsTheEnginesKeys()
    {
        QTemporaryDir dir;
        test::write(test::path(dir, "config.json"),
                    R"({"model":"deeplabv3plus","epochs":72,"batchSize":8,"optimizer":"adamw","learningRate":0.005,)"
                    R"("schedule":"cosine","classWeighting":"sqrt-median","flip":true,"translate":10,"colorJitter":0.4,"valEpochs":8,)"
                    R"("classes":0,"trainPack":"/data/train.pack","momentum":0.9})");
        const auto config = RunConfigFile::read(dir.path().toStdString());
        QVERIFY(config);
        QCOMPARE(*config->model, std::string("deeplabv3plus"));
        QCOMPARE(*config->epochs, 72);
        QCOMPARE(*config->batchSize, 8);
        QCOMPARE(*config->optimizer, std::string("adamw"));
        QCOMPARE(*config->learningRate, 0.005);
        QCOMPARE(*config->schedule, std::string("cosine"));
        QCOMPARE(*config->classWeighting, std::string("sqrt-median"));
        QCOMPARE(*config->flip, true);
        QCOMPARE(*config->translate, 10);
        QCOMPARE(*config->colorJitter, 0.4);
        QCOMPARE(*config->valEpochs, 8);
        QCOMPARE(*config->classes, 0);
        QCOMPARE(*config->trainPack, std::string("/data/train.pack"));
    }

    void missingOrMistypedFieldsAreEmpty()
    {
        QTemporaryDir dir;
        test::write(test::path(dir, "config.json"), R"({"model":3,"epochs":"many","learningRate":1,"flip":1})");
        const auto config = RunConfigFile::read(dir.path().toStdString());
        QVERIFY(config);
        QVERIFY(!config->model);
        QVERIFY(!config->epochs);
        QCOMPARE(*config->learningRate, 1.0);  // an integer is a number
        QVERIFY(!config->flip);
        QVERIFY(!config->trainPack);
    }

    void noFileOrNoObjectIsNothing()
    {
        QTemporaryDir dir;
        QVERIFY(!RunConfigFile::read(dir.path().toStdString()));
        test::write(test::path(dir, "config.json"), "[1, 2");
        QVERIFY(!RunConfigFile::read(dir.path().toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestRunConfigFile)
#include "test_RunConfigFile.moc"
