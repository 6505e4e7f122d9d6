#include "WindowSettings.h"

#include "MainWindow.h"
#include "Workspaces.h"
#include "browser/DatasetBrowser.h"
#include "predictions/PredictionsDock.h"

#include <QAction>
#include <QCheckBox>
#include <QScreen>
#include <QSettings>
#include <QSpinBox>

namespace segstudio::ui::shell {

void WindowSettings::read(MainWindow& window)
{
    QSettings settings;
    if (!window.restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) {
        const QRect available = window.screen() ? window.screen()->availableGeometry() : QRect(0, 0, 1400, 860);
        window.resize(available.size());
        window.setWindowState(window.windowState() | Qt::WindowMaximized);
    }
    window.workspaces()->readSettings(settings);
    window.browser()->showListAction()->setChecked(settings.value(QStringLiteral("browser/list"), false).toBool());
    window.browser()->overlayAction()->setChecked(settings.value(QStringLiteral("browser/overlay"), false).toBool());
    window.saveOnSwitchAction()->setChecked(settings.value(QStringLiteral("editor/saveOnSwitch"), true).toBool());
    window.predictions()->setLearnAsILabel(settings.value(QStringLiteral("predictions/learnAsILabel"), false).toBool(),
                                           settings.value(QStringLiteral("predictions/learnInterval"), 10).toInt());
}

void WindowSettings::write(const MainWindow& window)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), window.saveGeometry());
    window.workspaces()->writeSettings(settings);
    settings.setValue(QStringLiteral("browser/list"), window.browser()->showListAction()->isChecked());
    settings.setValue(QStringLiteral("browser/overlay"), window.browser()->overlayAction()->isChecked());
    settings.setValue(QStringLiteral("editor/saveOnSwitch"), window.saveOnSwitchAction()->isChecked());
    settings.setValue(QStringLiteral("predictions/learnInterval"), window.predictions()->learnInterval());
    settings.setValue(QStringLiteral("predictions/learnAsILabel"), window.predictions()->learnsAsILabel());
}

}  // namespace segstudio::ui::shell
