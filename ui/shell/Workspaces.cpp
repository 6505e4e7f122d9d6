#include "Workspaces.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QMainWindow>
#include <QSettings>

namespace segstudio::ui::shell {

Workspaces::Workspaces(QMainWindow* window, QWidget* centre)
    : QObject(window), m_window(window), m_centre(centre), m_group(new QActionGroup(this))
{
    const std::array<QString, kCount> names{tr("&Label"), tr("&Train"), tr("&Review")};
    const std::array<QString, kCount> tips{tr("Label: the canvas, the image strip and the classes"),
                                           tr("Train: runs, plots, details and the trainer's log"),
                                           tr("Review: predictions on the canvas, suspect labels, the evaluation report")};
    for (int i = 0; i < kCount; ++i) {
        auto* action = new QAction(names[std::size_t(i)], m_group);
        action->setCheckable(true);
        action->setObjectName(QStringLiteral("workspace.") + key(Workspace(i)));
        action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        action->setToolTip(QStringLiteral("%1 (%2)").arg(tips[std::size_t(i)], action->shortcut().toString(QKeySequence::NativeText)));
        connect(action, &QAction::triggered, this, [this, i] { switchTo(Workspace(i)); });
        m_actions[std::size_t(i)] = action;
    }
    m_actions[0]->setChecked(true);
}

QString Workspaces::key(Workspace workspace)
{
    switch (workspace) {
    case Workspace::Label:
        return QStringLiteral("label");
    case Workspace::Train:
        return QStringLiteral("train");
    case Workspace::Review:
        return QStringLiteral("review");
    }
    return {};
}

void Workspaces::define(Workspace workspace, Definition definition) { m_definitions[std::size_t(workspace)] = std::move(definition); }

QList<QAction*> Workspaces::actions() const { return {m_actions.begin(), m_actions.end()}; }

QList<QDockWidget*> Workspaces::allDocks() const
{
    QList<QDockWidget*> docks;
    for (const Definition& definition : m_definitions)
        for (QDockWidget* dock : definition.docks)
            if (!docks.contains(dock))
                docks << dock;
    return docks;
}

void Workspaces::switchTo(Workspace workspace)
{
    m_actions[std::size_t(workspace)]->setChecked(true);
    if (workspace == m_current)
        return;
    remember();
    m_current = workspace;
    if (m_projectOpen)
        apply(workspace);
    emit switched(workspace);
}

void Workspaces::setProjectOpen(bool open)
{
    if (open) {
        if (!m_projectOpen) {
            m_projectOpen = true;
            apply(m_current);
        }
        return;
    }
    // Also for a window that never had a project: its docks were created visible.
    remember();
    m_projectOpen = false;
    for (QDockWidget* dock : allDocks())
        dock->hide();
    m_centre->show();  // the start page
}

// The layout the user left this workspace in (docks moved, resized or closed) is its own.
void Workspaces::remember()
{
    if (m_projectOpen)
        m_layouts.insert(int(m_current), m_window->saveState());
}

void Workspaces::apply(Workspace workspace)
{
    const Definition& definition = m_definitions[std::size_t(workspace)];
    m_centre->setVisible(definition.showsCentre);
    const QByteArray layout = m_layouts.value(int(workspace));
    if (layout.isEmpty() || !m_window->restoreState(layout)) {
        for (QDockWidget* dock : allDocks())
            dock->setVisible(definition.docks.contains(dock));
        if (definition.defaultLayout)
            definition.defaultLayout();
    }
    // Another workspace's dock never stays: a layout saved by an older version may show it.
    for (QDockWidget* dock : allDocks())
        if (!definition.docks.contains(dock))
            dock->hide();
}

void Workspaces::readSettings(const QSettings& settings)
{
    for (int i = 0; i < kCount; ++i) {
        const QByteArray layout = settings.value(QStringLiteral("workspaces/%1").arg(key(Workspace(i)))).toByteArray();
        if (!layout.isEmpty())
            m_layouts.insert(i, layout);
    }
    const QString last = settings.value(QStringLiteral("workspaces/current")).toString();
    for (int i = 0; i < kCount; ++i)
        if (last == key(Workspace(i))) {
            m_current = Workspace(i);
            m_actions[std::size_t(i)]->setChecked(true);
        }
}

void Workspaces::writeSettings(QSettings& settings)
{
    remember();
    for (auto it = m_layouts.cbegin(); it != m_layouts.cend(); ++it)
        settings.setValue(QStringLiteral("workspaces/%1").arg(key(Workspace(it.key()))), it.value());
    settings.setValue(QStringLiteral("workspaces/current"), key(m_current));
}

}  // namespace segstudio::ui::shell
