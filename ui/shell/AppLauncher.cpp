#include "AppLauncher.h"

#include "Version.h"

#include "CommandLineOptions.h"
#include "browser/DatasetBrowser.h"
#include "browser/ImageListModel.h"
#include "MainWindow.h"
#include "TerminationSignals.h"
#include "browser/ThumbnailCache.h"

#include <QApplication>
#include <QIcon>
#include <QElapsedTimer>
#include <QTimer>
#include <cstdio>
#include <cstring>

namespace segstudio::ui::shell {

namespace {

constexpr int kScreenshotPollMs = 100;
constexpr int kScreenshotMaxWaitMs = 20000;

void printLine(FILE* stream, const QString& text)
{
    std::fprintf(stream, "%s\n", qPrintable(text));
}

// Waits (without blocking the event loop) until the visible thumbnails and the label counts are
// in, or the time is up, then saves the window and quits.
void grabWhenSettled(MainWindow& window, const QString& file)
{
    auto* timer = new QTimer(&window);
    auto* clock = new QElapsedTimer;
    clock->start();
    QObject::connect(timer, &QTimer::timeout, &window, [&window, timer, clock, file] {
        browser::ImageListModel* model = window.browser()->model();
        const bool settled = clock->elapsed() > 500 && model->thumbnails()->pendingCount() == 0 && model->statsComplete();
        if (!settled && clock->elapsed() < kScreenshotMaxWaitMs)
            return;
        timer->stop();
        delete clock;
        const bool saved = window.grab().save(file);
        printLine(saved ? stdout : stderr, saved ? QStringLiteral("Saved %1").arg(file)
                                                 : QStringLiteral("%1: cannot write the screenshot").arg(file));
        QApplication::exit(saved ? 0 : 1);
    });
    timer->start(kScreenshotPollMs);
}

// Wrong arguments (exit 2) and --help (exit 0) are answered on the terminal; nothing else is.
std::optional<int> answerHelpOrError(const CommandLineOptions& options)
{
    if (!options.error.isEmpty()) {
        printLine(stderr, options.error);
        printLine(stderr, options.helpText);
        return 2;
    }
    if (options.helpRequested) {
        printLine(stdout, options.helpText);
        return 0;
    }
    return std::nullopt;
}

}  // namespace

std::optional<int> AppLauncher::answerWithoutDisplay(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--version") == 0) {
            std::printf("SegStudio %s\n", SEGSTUDIO_VERSION);
            return 0;
        }
    // QCommandLineParser's help names the program from the application's arguments: a core
    // application (no display) is enough for it, and is gone before the QApplication comes.
    QCoreApplication probe(argc, argv);
    return answerHelpOrError(CommandLineOptions::parse(probe.arguments()));
}

void AppLauncher::setApplicationNames()
{
    QApplication::setOrganizationName(QStringLiteral("SegStudio"));
    QApplication::setApplicationName(QStringLiteral("SegStudio"));
    QApplication::setApplicationVersion(QStringLiteral(SEGSTUDIO_VERSION));
    // The installed icon (hicolor theme, packaging/Install.cmake); the desktop entry names it too.
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("segstudio")));
    QGuiApplication::setDesktopFileName(QStringLiteral("segstudio"));
}

int AppLauncher::run(QApplication& app)
{
    const CommandLineOptions options = CommandLineOptions::parse(app.arguments());
    if (const auto exitCode = answerHelpOrError(options))  // main() answered these already
        return *exitCode;

    MainWindow window;
    // A logout or `kill` ends the window as a close does, without questions nobody would answer.
    TerminationSignals termination;
    QObject::connect(&termination, &TerminationSignals::received, &window, [&window](int) {
        window.shutDown();
        QApplication::exit(0);
    });
    window.show();
    bool opened = true;
    if (options.demo)
        opened = window.openDemo(options.demoDir);
    else if (!options.projectFile.isEmpty())
        opened = window.openProject(options.projectFile);
    if (!opened) {
        printLine(stderr, window.lastError());
        // A screenshot of a failed start is useless; an interactive user keeps the start page.
        if (!options.screenshotFile.isEmpty())
            return 1;
    }
    if (!options.screenshotFile.isEmpty())
        grabWhenSettled(window, options.screenshotFile);
    return app.exec();
}

}  // namespace segstudio::ui::shell
