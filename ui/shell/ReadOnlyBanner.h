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

private:
    QLabel* m_text;
};
