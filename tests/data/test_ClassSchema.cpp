#include "TestFiles.h"
#include "data/labels/ClassSchema.h"
#include "data/labels/DataError.h"

#include <QtTest>
#include <nlohmann/json.hpp>

using namespace segstudio;

class TestClassSchema : public QObject {
    Q_OBJECT

private slots:
    void camVidPresetMatchesShippedFile()
    {
        const data::ClassSchema shipped = data::ClassSchema::loadFile(std::string(SEGSTUDIO_RESOURCE_DIR) + "/presets/camvid.json");
        QCOMPARE(shipped, data::ClassSchema::camVid());
        const char* names[] = {"Sky", "Building", "Pole", "Road", "Pavement", "Tree", "SignSymbol", "Fence", "Car", "Pedestrian", "Bicyclist"};
        QCOMPARE(shipped.size(), std::size_t(11));
        for (int id = 0; id < 11; ++id)
            QCOMPARE(QString::fromStdString(shipped.find(id)->name), QString::fromLatin1(names[id]));
        QCOMPARE(shipped.find(4)->color, (data::Rgb{60, 40, 222}));
    }

    void jsonRoundTrip()
    {
        const data::ClassSchema schema = test::threeClasses();
        QCOMPARE(data::ClassSchema::fromJson(schema.toJson()), schema);
    }

    void rejectsBadTables_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("duplicate id") << R"([{"id":1,"name":"a","color":"#000000"},{"id":1,"name":"b","color":"#010101"}])" << "used twice";
        QTest::newRow("reserved id") << R"([{"id":255,"name":"a","color":"#000000"}])" << "0..254";
        QTest::newRow("bad colour") << R"([{"id":0,"name":"a","color":"red"}])" << "#RRGGBB";
        QTest::newRow("no name") << R"([{"id":0,"color":"#000000"}])" << "needs an id, a name and a color";
        QTest::newRow("duplicate name") << R"([{"id":0,"name":"a","color":"#000000"},{"id":1,"name":"a","color":"#010101"}])" << "used twice";
    }

    void rejectsBadTables()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        try {
            data::ClassSchema::fromJson(nlohmann::json::parse(json.toStdString()), "preset.json");
            QFAIL("accepted a bad schema");
        } catch (const data::DataError& error) {
            QVERIFY2(QString::fromStdString(error.what()).contains(expected), error.what());
            QCOMPARE(QString::fromStdString(error.file()), QStringLiteral("preset.json"));
        }
    }

    void lookupsAndEdits()
    {
        data::ClassSchema schema = test::threeClasses();
        QCOMPARE(schema.idOfColor({64, 0, 128}).value(), 1);
        QCOMPARE(schema.idOfName("sky").value(), 2);
        QVERIFY(!schema.idOfColor({1, 2, 3}));
        QCOMPARE(schema.nextFreeId(), 3);
        schema.remove(1);
        QCOMPARE(schema.nextFreeId(), 1);
        QVERIFY_THROWS_EXCEPTION(data::DataError, schema.add({0, "dup", {1, 1, 1}, ""}));
        QCOMPARE(schema.size(), std::size_t(2));  // a rejected add leaves the schema as it was
        QCOMPARE(schema.palette()[2], (data::Rgb{128, 128, 128}));
        QCOMPARE(schema.palette()[1], (data::Rgb{0, 0, 0}));
    }
};

QTEST_GUILESS_MAIN(TestClassSchema)
#include "test_ClassSchema.moc"
