#include "run/Duration.h"

#include <QtTest>

using namespace segstudio;

// --time-budget as users write it, and how durations are shown.
class TestDuration : public QObject {
    Q_OBJECT

private slots:
    void parsesWhatPeopleWrite_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("seconds");
        QTest::newRow("seconds") << "90s" << 90.0;
        QTest::newRow("minutes") << "30m" << 1800.0;
        QTest::newRow("min") << "45min" << 2700.0;
        QTest::newRow("hours") << "2h" << 7200.0;
        QTest::newRow("combined") << "1h30m" << 5400.0;
        QTest::newRow("decimal") << "1.5h" << 5400.0;
        QTest::newRow("upper case") << "2H" << 7200.0;
    }

    void parsesWhatPeopleWrite()
    {
        QFETCH(QString, text);
        QFETCH(double, seconds);
        const auto parsed = run::parseDuration(text.toStdString());
        QVERIFY(parsed.has_value());
        QCOMPARE(*parsed, seconds);
    }

    void refusesWhatIsNotADuration_data()
    {
        QTest::addColumn<QString>("text");
        for (const char* text : {"30", "", "m", "-5m", "0s", "5 m", "5d", "1e999h", "ten minutes"})
            QTest::newRow(text) << text;
    }

    void refusesWhatIsNotADuration()
    {
        QFETCH(QString, text);
        QVERIFY(!run::parseDuration(text.toStdString()).has_value());
    }

    void showsDurations()
    {
        QCOMPARE(run::durationText(45), std::string("45 s"));
        QCOMPARE(run::durationText(1800), std::string("30 min"));
        QCOMPARE(run::durationText(3 * 3600 + 300), std::string("3 h 5 min"));
        QCOMPARE(run::durationText(7200), std::string("2 h"));
    }
};

QTEST_GUILESS_MAIN(TestDuration)
#include "test_Duration.moc"
