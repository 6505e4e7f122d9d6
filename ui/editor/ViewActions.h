#pragma once

#include <QList>
#include <QObject>

class QAction;
class QKeySequence;
class QWidget;

namespace segstudio::ui::editor {

class LabelCanvas;
class ToolSettings;

// The editor's view actions, each with its key anywhere in `owner`'s window: zoom in and out,
// fit, actual pixels, show labels (H), outline only (O), the prediction instead of the labels
// (T); and the brush size keys ([ and ]), which are no view actions but belong with them.
class ViewActions : public QObject {
    Q_OBJECT

public:
    ViewActions(QWidget* owner, LabelCanvas* canvas, ToolSettings* settings);

    QList<QAction*> actions() const { return m_actions; }

private:
    QAction* add(const QString& text, const QString& id, const QKeySequence& key);

    QWidget* m_owner;
    QList<QAction*> m_actions;
};

}  // namespace segstudio::ui::editor
