#pragma once

#include <QFrame>

class QLabel;

// A lasting strip above the canvas while the open project is read-only (open in another
// SegStudio, or its folder cannot be written): a status-bar message is gone in seconds, while
// nothing the user does in this window is saved for as long as the project stays open.
class ReadOnlyBanner : public QFrame {
    Q_OBJECT

public:
    explicit ReadOnlyBanner(QWidget* parent = nullptr);

    void showReason(const QString& reason);  // an empty reason hides the banner
    QString text() const;

private:
    QLabel* m_text;
};
