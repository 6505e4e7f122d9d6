#pragma once

#include <QToolBar>

class QLabel;

// A lasting strip across the top of the window while the open project is read-only (open in
// another SegStudio, or its folder cannot be written): a status-bar message is gone in seconds,
// while nothing the user does in this window is saved for as long as the project stays open. A
// fixed tool bar, so every workspace shows it (the Train workspace hides the canvas).
class ReadOnlyBanner : public QToolBar {
    Q_OBJECT

public:
    explicit ReadOnlyBanner(QWidget* parent = nullptr);

    void showReason(const QString& reason);  // an empty reason hides the banner
    QString text() const;
    // Shown exactly while there is a reason: a workspace's saved layout (QMainWindow::restoreState
    // hides the tool bars it saved hidden) can neither hide nor show it.
    void setVisible(bool visible) override;

private:
    QLabel* m_text;
    QString m_reason;
};
