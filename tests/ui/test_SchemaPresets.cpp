#include "project/SchemaPresets.h"
#include "data/labels/DataError.h"

#include <QTest>

using segstudio::ui::project::SchemaPresets;

class TestSchemaPresets : public QObject {
    Q_OBJECT

private slots:
    void camVidPreset()
    {
        QCOMPARE(SchemaPresets::presetNames().size(), 1);
        const auto schema = SchemaPresets::preset(0);
        QCOMPARE(schema.size(), std::size_t(11));
        QVERIFY(schema == segstudio::data::ClassSchema::camVid());
        QVERIFY_THROWS_EXCEPTION(segstudio::data::DataError, SchemaPresets::preset(7));
    }

    void customNamesGetIdsColoursAndHotkeys()
    {
        const auto schema = SchemaPresets::fromNames({QStringLiteral(" background "), QString(), QStringLiteral("person"),
                                                      QStringLiteral("car")});
        QCOMPARE(schema.size(), std::size_t(3));
        QCOMPARE(schema.find(0)->name, std::string("background"));
        QCOMPARE(schema.find(2)->name, std::string("car"));
        QCOMPARE(schema.find(0)->hotkey, std::string("1"));
        QVERIFY(schema.find(0)->color != schema.find(1)->color);
        QVERIFY(schema.find(1)->color != schema.find(2)->color);
    }

    void badCustomNamesAreRefused_data()
    {
        QTest::addColumn<QStringList>("names");
        QTest::newRow("empty") << QStringList{};
        QTest::newRow("blank lines only") << QStringList{QStringLiteral("  "), QString()};
        QTest::newRow("duplicate") << QStringList{QStringLiteral("car"), QStringLiteral("car")};
    }

    void badCustomNamesAreRefused()
    {
        QFETCH(QStringList, names);
        QVERIFY_THROWS_EXCEPTION(segstudio::data::DataError, SchemaPresets::fromNames(names));
    }
};

QTEST_MAIN(TestSchemaPresets)
#include "test_SchemaPresets.moc"
