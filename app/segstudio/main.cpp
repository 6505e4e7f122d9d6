#include "app/AppLauncher.h"

#include <QApplication>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    segstudio::ui::AppLauncher::setApplicationNames();
    return segstudio::ui::AppLauncher::run(app);
}
