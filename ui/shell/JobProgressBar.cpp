#include "JobProgressBar.h"

#include "document/ProjectDocument.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace segstudio::ui::shell {

JobProgressBar::JobProgressBar(QWidget* parent)
    : QWidget(parent), m_label(new QLabel(this)), m_bar(new QProgressBar(this)), m_cancel(new QPushButton(tr("Cancel"), this))
{
    setObjectName(QStringLiteral("jobProgress"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    m_bar->setMaximumWidth(180);
    m_cancel->setToolTip(tr("Stop and put every label map back as it was"));
    hide();
}

void JobProgressBar::setDocument(document::ProjectDocument* document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    hide();
    if (!document)
        return;
    connect(document, &document::ProjectDocument::busyChanged, this, &QWidget::setVisible);
    connect(document, &document::ProjectDocument::jobProgress, this, &JobProgressBar::showProgress);
    connect(m_cancel, &QPushButton::clicked, document, &document::ProjectDocument::cancelJob, Qt::UniqueConnection);
}

void JobProgressBar::showProgress(const QString& label, std::size_t done, std::size_t total)
{
    m_label->setText(label + QStringLiteral("…"));
    m_bar->setRange(0, int(std::max<std::size_t>(total, 1)));
    m_bar->setValue(int(std::min(done, total)));
    m_cancel->setVisible(m_document && m_document->jobCancellable());
}

}  // namespace segstudio::ui::shell
