#include "ReadOnlyBanner.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>

ReadOnlyBanner::ReadOnlyBanner(QWidget* parent) : QToolBar(parent), m_text(new QLabel(this))
{
    setObjectName(QStringLiteral("readOnlyBanner"));
    setWindowTitle(tr("Read-only"));
    setMovable(false);
    setFloatable(false);
    toggleViewAction()->setVisible(false);  // not a bar to hide from the tool bars' menu
    setAutoFillBackground(true);
    QPalette colours = palette();
    colours.setColor(QPalette::Window, QColor(255, 236, 179));  // a warning's amber, readable in both themes
    colours.setColor(QPalette::WindowText, QColor(60, 40, 0));
    setPalette(colours);
    auto* strip = new QWidget(this);
    auto* icon = new QLabel(strip);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
    m_text->setParent(strip);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // One line: a wrapping label in a tool bar asks for the height of many (the bar grew to four).
    m_text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* layout = new QHBoxLayout(strip);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(icon, 0, Qt::AlignVCenter);
    layout->addWidget(m_text, 1);
    addWidget(strip);
    hide();
}

void ReadOnlyBanner::showReason(const QString& reason)
{
    m_reason = reason;
    m_text->setText(reason);
    m_text->setToolTip(reason);  // whole, where a narrow window cuts the line
    setVisible(!reason.isEmpty());
}

void ReadOnlyBanner::setVisible(bool /*visible*/) { QToolBar::setVisible(!m_reason.isEmpty()); }

QString ReadOnlyBanner::text() const { return isVisible() ? m_text->text() : QString(); }
