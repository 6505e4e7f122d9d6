#include "shell/AppLauncher.h"

#include <QApplication>

int main(int argc, char** argv)
{
    if (const auto exitCode = segstudio::ui::AppLauncher::answerWithoutDisplay(argc, argv))
        return *exitCode;
    QApplication app(argc, argv);
    segstudio::ui::AppLauncher::setApplicationNames();
    return segstudio::ui::AppLauncher::run(app);
}
