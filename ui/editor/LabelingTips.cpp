#include "LabelingTips.h"

#include <QEvent>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QScrollArea>
#include <QSettings>
#include <QVBoxLayout>
#include <QWheelEvent>

namespace segstudio::ui::editor {

namespace {

QString toolLines(const QList<QAction*>& tools)
{
    QString lines;
    for (const QAction* tool : tools) {
        const QString key = tool->shortcut().toString(QKeySequence::NativeText);
        lines += QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>")
                     .arg(key.toHtmlEscaped(), tool->text().remove(QLatin1Char('&')).toHtmlEscaped());
    }
    return lines;
}

}  // namespace

LabelingTips::LabelingTips(const QList<QAction*>& toolActions, QWidget* canvas)
    : QFrame(canvas), m_text(new QLabel(this))
{
    setObjectName(QStringLiteral("LabelingTips"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setStyleSheet(QStringLiteral("#LabelingTips { background: rgba(250, 250, 245, 235); border: 1px solid #888; border-radius: 6px; }"));
    m_text->setTextFormat(Qt::RichText);
    m_text->setWordWrap(true);
    m_text->setText(tr("<h3>How labeling works</h3>"
                       "<p>Every pixel gets a class: pick one in the <b>Classes</b> panel (or press its key: 1…9, 0, "
                       "then Shift+1… from the 11th class on), then paint with a tool.</p>"
                       "<table>%1</table>"
                       "<p><b>Ctrl+Z</b> / <b>Ctrl+Shift+Z</b> undo and redo every stroke. Scroll to zoom, "
                       "drag with the middle button (or Space + drag) to pan.</p>"
                       "<p>Your labels are safe: they are saved when you switch images, and unsaved strokes "
                       "are kept in a recovery folder, offered back after a crash.</p>")
                        .arg(toolLines(toolActions)));
    auto* gotIt = new QPushButton(tr("Got it"), this);
    gotIt->setObjectName(QStringLiteral("gotIt"));
    connect(gotIt, &QPushButton::clicked, this, &LabelingTips::dismiss);
    // The text scrolls inside the card, so "Got it" stays on screen over a short canvas.
    m_scroll = new QScrollArea(this);
    m_scroll->setWidget(m_text);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setStyleSheet(QStringLiteral("QScrollArea, QScrollArea > QWidget > QWidget { background: transparent; }"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(gotIt, 0, Qt::AlignRight);
    canvas->installEventFilter(this);
    hide();
}

bool LabelingTips::seen()
{
    return QSettings().value(QLatin1String(kSeenKey), false).toBool();
}

void LabelingTips::showOnce()
{
    if (m_offered)
        return;  // once per editor: opening images never reads the settings again
    m_offered = true;
    if (!seen())
        showAgain();
}

void LabelingTips::showAgain()
{
    place();
    show();
    raise();
}

QString LabelingTips::text() const
{
    return m_text->text();
}

void LabelingTips::dismiss()
{
    QSettings().setValue(QLatin1String(kSeenKey), true);
    hide();
    // Hiding the focused button would pass the focus on to the next widget in the chain (the
    // browser's search field), where the first hotkey the user presses would filter the list.
    if (QWidget* canvas = parentWidget())
        canvas->setFocus(Qt::OtherFocusReason);
    emit dismissed();
}

void LabelingTips::place()
{
    // Top left of the canvas, as wide as it allows up to a readable measure.
    // Top left of the canvas, as wide as it allows up to a readable measure, and never taller
    // than the canvas (the text scrolls instead).
    const QWidget* canvas = parentWidget();
    const int width = std::min(440, std::max(200, canvas->width() - 24));
    const QMargins margins = contentsMargins() + layout()->contentsMargins();
    const int scrollBar = style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    const int textHeight = m_text->heightForWidth(width - margins.left() - margins.right() - scrollBar);
    const int natural = textHeight + margins.top() + margins.bottom() + layout()->spacing() +
                        findChild<QPushButton*>(QStringLiteral("gotIt"))->sizeHint().height() + 4;
    resize(width, std::max(std::min(natural, canvas->height() - 24), minimumSizeHint().height()));
    move(12, 12);
}

void LabelingTips::wheelEvent(QWheelEvent* event)
{
    event->accept();  // the text has scrolled as far as it goes: the image behind must not zoom
}

bool LabelingTips::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == parentWidget() && event->type() == QEvent::Resize && isVisible())
        place();
    return QFrame::eventFilter(watched, event);
}

}  // namespace segstudio::ui::editor
