#include "StartPage.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace segstudio::ui::shell {

StartPage::StartPage(QWidget* parent) : QWidget(parent), m_recent(new QListWidget(this))
{
    auto* title = new QLabel(tr("<h1>SegStudio</h1><p>Label pixels, browse datasets, train and inspect "
                                "semantic segmentation models.</p>"),
                             this);
    auto* buttons = new QVBoxLayout;
    auto addButton = [&](const QString& text, const QString& name, void (StartPage::*signal)()) {
        auto* button = new QPushButton(text, this);
        button->setObjectName(name);
        button->setMinimumHeight(36);
        connect(button, &QPushButton::clicked, this, signal);
        buttons->addWidget(button);
    };
    addButton(tr("Open the demo project"), QStringLiteral("openDemo"), &StartPage::demoRequested);
    addButton(tr("New project from a folder of images…"), QStringLiteral("newProject"), &StartPage::newProjectRequested);
    addButton(tr("Import a dataset…"), QStringLiteral("importDataset"), &StartPage::importRequested);
    addButton(tr("Open project…"), QStringLiteral("openProject"), &StartPage::openProjectRequested);
    buttons->addStretch(1);

    m_recent->setObjectName(QStringLiteral("recentProjects"));
    connect(m_recent, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const QString file = item->data(Qt::UserRole).toString();
        if (!file.isEmpty())
            emit recentProjectRequested(file);
    });
    auto* recentColumn = new QVBoxLayout;
    recentColumn->addWidget(new QLabel(tr("<b>Recent projects</b>"), this));
    recentColumn->addWidget(m_recent, 1);

    auto* columns = new QHBoxLayout;
    columns->addLayout(buttons, 1);
    columns->addSpacing(24);
    columns->addLayout(recentColumn, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(48, 32, 48, 32);
    layout->addWidget(title);
    layout->addSpacing(16);
    layout->addLayout(columns, 1);
}

void StartPage::setRecentProjects(const QStringList& files)
{
    m_recent->clear();
    for (const QString& file : files) {
        const QFileInfo info(file);
        auto* item = new QListWidgetItem(QStringLiteral("%1\n%2").arg(info.completeBaseName(), info.absolutePath()), m_recent);
        item->setData(Qt::UserRole, file);
        item->setToolTip(file);
        if (!info.exists())
            item->setForeground(Qt::gray);
    }
    if (files.isEmpty())
        new QListWidgetItem(tr("(none yet)"), m_recent);
}

}  // namespace segstudio::ui::shell
