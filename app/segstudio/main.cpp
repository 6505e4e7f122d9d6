#include "shell/AppLauncher.h"

#include <QApplication>

int main(int argc, char** argv)
{
    if (const auto exitCode = segstudio::ui::shell::AppLauncher::answerWithoutDisplay(argc, argv))
        return *exitCode;
    QApplication app(argc, argv);
    segstudio::ui::shell::AppLauncher::setApplicationNames();
    return segstudio::ui::shell::AppLauncher::run(app);
}
