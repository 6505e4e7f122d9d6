#include "WindowDocks.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QUndoView>

namespace segstudio::ui::shell {

namespace {

QDockWidget* dockOf(QMainWindow& window, const QString& title, const QString& name, QWidget* widget)
{
    auto* dock = new QDockWidget(title, &window);
    dock->setObjectName(name);
    dock->setWidget(widget);
    return dock;
}

}  // namespace

WindowDocks::WindowDocks(QMainWindow& window, const Contents& contents)
{
    auto* history = new QUndoView(contents.history, &window);
    history->setEmptyLabel(QMainWindow::tr("<opened>"));
    history->setObjectName(QStringLiteral("historyView"));
    m_docks.browser = dockOf(window, QMainWindow::tr("Dataset"), QStringLiteral("browserDock"), contents.browser);
    m_docks.classes = dockOf(window, QMainWindow::tr("Classes"), QStringLiteral("classesDock"), contents.classes);
    m_docks.history = dockOf(window, QMainWindow::tr("History"), QStringLiteral("historyDock"), history);
    m_docks.training = dockOf(window, QMainWindow::tr("Training"), QStringLiteral("trainingDock"), contents.training);
    m_docks.predictions =
        dockOf(window, QMainWindow::tr("Predictions"), QStringLiteral("predictionsDock"), contents.predictions);
    // The report scrolls inside its view (and puts the matrix below the table when narrow).
    m_docks.evaluation = dockOf(window, QMainWindow::tr("Evaluation"), QStringLiteral("evaluationDock"), contents.evaluation);
    window.addDockWidget(Qt::LeftDockWidgetArea, m_docks.browser);
    window.addDockWidget(Qt::RightDockWidgetArea, m_docks.classes);
    window.tabifyDockWidget(m_docks.classes, m_docks.history);
    window.addDockWidget(Qt::BottomDockWidgetArea, m_docks.training);
    window.tabifyDockWidget(m_docks.training, m_docks.predictions);
    window.addDockWidget(Qt::RightDockWidgetArea, m_docks.evaluation);
}

QList<QAction*> WindowDocks::toggleActions() const
{
    QList<QAction*> actions;
    for (QDockWidget* dock : {m_docks.browser, m_docks.classes, m_docks.history, m_docks.training, m_docks.predictions,
                              m_docks.evaluation})
        actions << dock->toggleViewAction();
    return actions;
}

void WindowDocks::setLabelsBusy(bool busy)
{
    m_docks.browser->widget()->setEnabled(!busy);
    m_docks.classes->widget()->setEnabled(!busy);
}

}  // namespace segstudio::ui::shell
