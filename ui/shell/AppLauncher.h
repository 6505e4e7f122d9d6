#pragma once

#include <optional>

class QApplication;

namespace segstudio::ui::shell {

// What `segstudio` does between QApplication and exec(): names the application (QSettings and
// QStandardPaths use them), parses the command line (CommandLineOptions), shows the main window
// with the start page, a project or the demo, and for --screenshot saves the window once its
// thumbnails are in and quits. Keeps app/segstudio/main.cpp to a few lines.
class AppLauncher {
public:
    // --version, --help and wrong arguments are answered before a QApplication exists (it needs
    // a display, and these must not): the exit code, or nothing when the window is to start.
    static std::optional<int> answerWithoutDisplay(int argc, char** argv);
    static void setApplicationNames();
    static int run(QApplication& app);  // the process exit code
};

}  // namespace segstudio::ui::shell
