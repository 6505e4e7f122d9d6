#include "app/AppLauncher.h"

#include "Version.h"

#include <QApplication>

#include <cstdio>
#include <cstring>

int main(int argc, char** argv)
{
    // Answered before QApplication exists: it needs a display, and --version must not.
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--version") == 0) {
            std::printf("SegStudio %s\n", SEGSTUDIO_VERSION);
            return 0;
        }
    QApplication app(argc, argv);
    segstudio::ui::AppLauncher::setApplicationNames();
    return segstudio::ui::AppLauncher::run(app);
}
