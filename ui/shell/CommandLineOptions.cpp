#include "CommandLineOptions.h"

#include <QCommandLineParser>

namespace segstudio::ui::shell {

CommandLineOptions CommandLineOptions::parse(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("SegStudio: label, browse and train semantic segmentation datasets."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption demo(QStringLiteral("demo"), QStringLiteral("Open the demo project (generated on first use)."));
    const QCommandLineOption demoDir(QStringLiteral("demo-dir"), QStringLiteral("Where the demo project lives."),
                                     QStringLiteral("DIR"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Save the main window to FILE once the project is shown, then quit."),
                                        QStringLiteral("FILE"));
    parser.addOptions({demo, demoDir, screenshot});
    parser.addPositionalArgument(QStringLiteral("project"), QStringLiteral("A .segstudio project file to open."),
                                 QStringLiteral("[PROJECT]"));

    CommandLineOptions options;
    options.helpText = parser.helpText();
    if (!parser.parse(arguments)) {
        options.error = parser.errorText();
        return options;
    }
    options.helpRequested = parser.isSet(help);
    options.demo = parser.isSet(demo) || parser.isSet(demoDir);
    options.demoDir = parser.value(demoDir);
    options.screenshotFile = parser.value(screenshot);
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1)
        options.error = QStringLiteral("Expected at most one project file, got %1").arg(positional.size());
    else if (!positional.isEmpty())
        options.projectFile = positional.first();
    if (options.demo && !options.projectFile.isEmpty())
        options.error = QStringLiteral("--demo and a project file exclude each other");
    return options;
}

}  // namespace segstudio::ui::shell
