#include "common/TaskRunner.h"

#include <QMainWindow>
#include <QPushButton>
#include <QTest>
#include <QTimer>
#include <atomic>

using segstudio::ui::common::TaskRunner;

// The runner's re-entry rules: while a task runs, the caller's window takes no input and a second
// run is refused. The checks run inside the runner's nested event loop (a zero-time timer posted
// before run()), while the worker waits for them to finish: no timing is involved.
class TestTaskRunner : public QObject {
    Q_OBJECT

private slots:
    void windowIsDisabledAndNestedRunsAreRefusedWhileATaskRuns()
    {
        QMainWindow window;
        auto* button = new QPushButton(QStringLiteral("child"), &window);
        window.setCentralWidget(button);
        window.show();

        std::atomic_bool release{false};
        bool checked = false;
        bool enabledDuringRun = true;
        bool busyDuringRun = false;
        TaskRunner::Outcome nestedOutcome = TaskRunner::Outcome::Done;
        bool nestedTaskRan = false;
        QTimer::singleShot(0, &window, [&] {
            enabledDuringRun = button->isEnabled() || window.isEnabled();
            busyDuringRun = TaskRunner::isBusy();
            nestedOutcome = TaskRunner::run(button, QStringLiteral("nested"),
                                            [&](const segstudio::data::ImportProgress&) { nestedTaskRan = true; })
                                .outcome;
            checked = true;
            release = true;
        });
        const auto result = TaskRunner::run(button, QStringLiteral("outer"), [&](const segstudio::data::ImportProgress&) {
            while (!release.load())
                QThread::yieldCurrentThread();
        });
        QCOMPARE(result.outcome, TaskRunner::Outcome::Done);
        QVERIFY(checked);
        QVERIFY(!enabledDuringRun);
        QVERIFY(busyDuringRun);
        QCOMPARE(nestedOutcome, TaskRunner::Outcome::Refused);
        QVERIFY(!nestedTaskRan);

        // Afterwards the window takes input again and runs are accepted again.
        QVERIFY(window.isEnabled());
        QVERIFY(button->isEnabled());
        QVERIFY(!TaskRunner::isBusy());
        bool ran = false;
        QCOMPARE(TaskRunner::run(&window, QStringLiteral("again"), [&](const segstudio::data::ImportProgress&) { ran = true; })
                     .outcome,
                 TaskRunner::Outcome::Done);
        QVERIFY(ran);
    }

    void aWindowDisabledBeforeTheRunStaysDisabled()
    {
        QMainWindow window;
        window.setEnabled(false);
        TaskRunner::run(&window, QStringLiteral("task"), [](const segstudio::data::ImportProgress&) {});
        QVERIFY(!window.isEnabled());
    }

    void failuresAreReportedAndTheWindowComesBack()
    {
        QMainWindow window;
        const auto result = TaskRunner::run(&window, QStringLiteral("task"), [](const segstudio::data::ImportProgress&) {
            throw std::runtime_error("broken");
        });
        QCOMPARE(result.outcome, TaskRunner::Outcome::Failed);
        QCOMPARE(result.error, QStringLiteral("broken"));
        QVERIFY(window.isEnabled());
        QVERIFY(!TaskRunner::isBusy());
    }
};

QTEST_MAIN(TestTaskRunner)
#include "test_TaskRunner.moc"
