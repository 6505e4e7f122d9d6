#include "ReadOnlyBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>

ReadOnlyBanner::ReadOnlyBanner(QWidget* parent) : QFrame(parent), m_text(new QLabel(this))
{
    setObjectName(QStringLiteral("readOnlyBanner"));
    setAutoFillBackground(true);
    QPalette colours = palette();
    colours.setColor(QPalette::Window, QColor(255, 236, 179));  // a warning's amber, readable in both themes
    colours.setColor(QPalette::WindowText, QColor(60, 40, 0));
    setPalette(colours);
    auto* icon = new QLabel(this);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    hide();
}

void ReadOnlyBanner::showReason(const QString& reason)
{
    m_text->setText(reason);
    setVisible(!reason.isEmpty());
}

QString ReadOnlyBanner::text() const { return isVisible() ? m_text->text() : QString(); }
