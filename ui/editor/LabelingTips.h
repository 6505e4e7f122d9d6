#pragma once

#include <QAction>
#include <QFrame>
#include <QList>

class QLabel;
class QScrollArea;

namespace segstudio::ui::editor {

// "How labeling works": a short, dismissable card over the canvas, shown the first time the
// editor opens an image (and again from Help), listing the tools with their real shortcuts, undo
// and autosave. Dismissing it ("Got it") is remembered in QSettings, so it never comes back by
// itself.
// Requirements: GUI thread; the tool actions outlive the card.
class LabelingTips : public QFrame {
    Q_OBJECT

public:
    static constexpr const char* kSeenKey = "editor/labelingTipsSeen";

    LabelingTips(const QList<QAction*>& toolActions, QWidget* canvas);

    static bool seen();  // dismissed once, on this account
    void showOnce();     // the first call shows it unless it was dismissed before; later calls do nothing
    void showAgain();    // Help > How Labeling Works: shows it whatever was remembered
    QString text() const;

signals:
    void dismissed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    void dismiss();
    void place();

    QLabel* m_text;
    QScrollArea* m_scroll;
    bool m_offered = false;
};

}  // namespace segstudio::ui::editor
