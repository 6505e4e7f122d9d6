#include "UiTestProject.h"
#include "shell/CommandLineOptions.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using segstudio::ui::shell::CommandLineOptions;

class TestCommandLineOptions : public QObject {
    Q_OBJECT

    // This environment without any display: what a server or an ssh session gives.
    static QProcessEnvironment withoutDisplay()
    {
        auto environment = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            environment.remove(QString::fromLatin1(name));
        return environment;
    }

private slots:
    void parse_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("project");
        QTest::addColumn<bool>("demo");
        QTest::addColumn<QString>("demoDir");
        QTest::addColumn<QString>("screenshot");
        QTest::addColumn<bool>("error");

        QTest::newRow("start page") << segstudio::test::strings({"segstudio"}) << QString() << false << QString() << QString() << false;
        QTest::newRow("project") << segstudio::test::strings({"segstudio", "/d/p.segstudio"}) << QStringLiteral("/d/p.segstudio") << false
                                 << QString() << QString() << false;
        QTest::newRow("demo") << segstudio::test::strings({"segstudio", "--demo"}) << QString() << true << QString() << QString() << false;
        QTest::newRow("demo dir implies demo") << segstudio::test::strings({"segstudio", "--demo-dir", "/tmp/d"}) << QString() << true
                                               << QStringLiteral("/tmp/d") << QString() << false;
        QTest::newRow("screenshot") << segstudio::test::strings({"segstudio", "--demo", "--screenshot", "w.png"}) << QString() << true
                                    << QString() << QStringLiteral("w.png") << false;
        QTest::newRow("two projects") << segstudio::test::strings({"segstudio", "a.segstudio", "b.segstudio"}) << QString() << false
                                      << QString() << QString() << true;
        QTest::newRow("demo and project") << segstudio::test::strings({"segstudio", "--demo", "a.segstudio"}) << QStringLiteral("a.segstudio")
                                          << true << QString() << QString() << true;
        QTest::newRow("unknown option") << segstudio::test::strings({"segstudio", "--frobnicate"}) << QString() << false << QString()
                                        << QString() << true;
        QTest::newRow("missing value") << segstudio::test::strings({"segstudio", "--screenshot"}) << QString() << false << QString()
                                       << QString() << true;
    }

    void parse()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, project);
        QFETCH(bool, demo);
        QFETCH(QString, demoDir);
        QFETCH(QString, screenshot);
        QFETCH(bool, error);
        const CommandLineOptions options = CommandLineOptions::parse(arguments);
        QCOMPARE(!options.error.isEmpty(), error);
        if (error)
            return;
        QCOMPARE(options.projectFile, project);
        QCOMPARE(options.demo, demo);
        QCOMPARE(options.demoDir, demoDir);
        QCOMPARE(options.screenshotFile, screenshot);
    }

    // Issue 14: --version answers on a machine without a display (no QApplication is made).
    void versionNeedsNoDisplay()
    {
        QProcess process;
        process.setProcessEnvironment(withoutDisplay());
        process.start(QStringLiteral(SEGSTUDIO_GUI_EXE), {QStringLiteral("--version")});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitCode(), 0);
        const QString output = QString::fromUtf8(process.readAllStandardOutput()).trimmed();
        QVERIFY2(QRegularExpression(QStringLiteral("^SegStudio \\d+\\.\\d+\\.\\d+$")).match(output).hasMatch(),
                 qPrintable(output));
    }

    // Issue 27, item 19: --help (and a wrong option) answer without a display too; --help used
    // to abort in the QApplication it made first.
    void helpAndErrorsNeedNoDisplay()
    {
        QProcess process;
        process.setProcessEnvironment(withoutDisplay());
        process.start(QStringLiteral(SEGSTUDIO_GUI_EXE), {QStringLiteral("--help")});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 0);
        const QString help = QString::fromUtf8(process.readAllStandardOutput());
        QVERIFY2(help.startsWith(QStringLiteral("Usage: ")) && help.contains(QStringLiteral("--demo")), qPrintable(help));
        process.start(QStringLiteral(SEGSTUDIO_GUI_EXE), {QStringLiteral("--no-such-option")});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 2);
        QVERIFY(QString::fromUtf8(process.readAllStandardError()).contains(QStringLiteral("no-such-option")));
    }

    void helpIsRecognised()
    {
        const auto options = CommandLineOptions::parse({QStringLiteral("segstudio"), QStringLiteral("--help")});
        QVERIFY(options.helpRequested);
        QVERIFY(options.helpText.contains(QStringLiteral("--demo")));
    }

    // Issue 22: the GUI ended by SIGTERM or SIGHUP (a logout, a shutdown) leaves as a close does:
    // exit code 0 and the project's lock removed (it used to die with the lock left behind).
    void terminationSignalsEndTheWindowAsACloseDoes_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGHUP") << int(SIGHUP);
    }

    void terminationSignalsEndTheWindowAsACloseDoes()
    {
        QFETCH(int, signal);
        QTemporaryDir dir;
        segstudio::test::writeProject(dir.path(), {{"alpha.png", segstudio::data::Split::Train,
                                                    segstudio::data::LabelStatus::Labelled, {0, 1}, 1}});
        const QString file = dir.filePath(QStringLiteral("test.segstudio"));
        QProcess gui;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        gui.setProcessEnvironment(environment);
        gui.start(QStringLiteral(SEGSTUDIO_GUI_EXE), {file});
        QVERIFY(gui.waitForStarted(30000));
        const QString lock = file + QStringLiteral(".lock");
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(lock) || gui.state() == QProcess::NotRunning, 120000);
        QVERIFY2(gui.state() == QProcess::Running, gui.readAllStandardError().constData());
        QVERIFY(::kill(pid_t(gui.processId()), signal) == 0);
        QVERIFY(gui.waitForFinished(60000));
        QCOMPARE(gui.exitStatus(), QProcess::NormalExit);
        QCOMPARE(gui.exitCode(), 0);
        QVERIFY(!QFile::exists(lock));
    }
};

QTEST_MAIN(TestCommandLineOptions)
#include "test_CommandLineOptions.moc"
