#pragma once

namespace segstudio::ui::shell {

class MainWindow;

// What the window keeps per user in QSettings: its geometry (first start: the screen's available
// area), each workspace's dock layout and the last workspace, the browser's list and overlay
// choice, save-on-switch, and the live fine-tune's settings.
class WindowSettings {
public:
    static void read(MainWindow& window);
    static void write(const MainWindow& window);
};

}  // namespace segstudio::ui::shell
