#pragma once

#include <QString>
#include <QStringList>

namespace segstudio::ui::shell {

// What `segstudio` was asked to do on its command line:
//   segstudio                    start page
//   segstudio PROJECT            open a project
//   segstudio --demo [--demo-dir DIR]   generate the demo project if absent, open it
//   --screenshot FILE            after opening, save the main window to FILE and quit
class CommandLineOptions {
public:
    // arguments include the program name first, as QCoreApplication::arguments() gives them.
    static CommandLineOptions parse(const QStringList& arguments);

    QString projectFile;
    bool demo = false;
    QString demoDir;
    QString screenshotFile;
    bool helpRequested = false;
    QString helpText;
    QString error;  // non-empty: the arguments were wrong; print it with the help and exit(2)
};

}  // namespace segstudio::ui::shell
