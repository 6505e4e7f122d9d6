#include "LabelDocument.h"

#include "PaintLabels.h"

#include "paint/RegionMask.h"
#include "paint/WriteGuard.h"

#include <QUndoStack>

#include <opencv2/core.hpp>

namespace segstudio::ui::editor {

namespace {

QRect toQRect(const cv::Rect& rect) { return QRect(rect.x, rect.y, rect.width, rect.height); }

}  // namespace

LabelDocument::LabelDocument(std::string imageKey, cv::Mat rgb, cv::Mat labels, QObject* parent)
    : QObject(parent), m_imageKey(std::move(imageKey)), m_image(std::move(rgb)), m_labels(std::move(labels)),
      m_undoStack(new QUndoStack(this))
{
    CV_Assert(m_labels.type() == CV_8UC1 && (m_image.empty() || m_image.size() == m_labels.size()));
    // 200 levels of tiled, run-length-coded patches stay far below 100 MB even on 12 MP maps.
    m_undoStack->setUndoLimit(200);
    connect(m_undoStack, &QUndoStack::cleanChanged, this, &LabelDocument::emitModifiedIfChanged);
    connect(m_undoStack, &QUndoStack::indexChanged, this, &LabelDocument::emitModifiedIfChanged);
}

LabelDocument::~LabelDocument() = default;

void LabelDocument::beginEdit()
{
    if (m_recorder.active())
        endEdit(tr("Edit"));
    m_recorder.begin(m_labels);
}

cv::Mat& LabelDocument::touch(const cv::Rect& rect)
{
    m_recorder.touch(m_labels, rect);
    return m_labels;
}

void LabelDocument::notifyChanged(const cv::Rect& rect)
{
    if (!rect.empty())
        emit labelsChanged(toQRect(rect));
}

void LabelDocument::endEdit(const QString& text)
{
    if (!m_recorder.active())
        return;
    paint::LabelPatch patch = m_recorder.finish(m_labels);
    if (patch.empty())
        return;
    // push() calls redo(), which re-applies the "after" tiles the stroke already wrote: harmless.
    m_undoStack->push(new PaintLabels(this, std::move(patch), text));
}

void LabelDocument::cancelEdit()
{
    if (!m_recorder.active())
        return;
    m_recorder.restore(m_labels);
    emit labelsChanged(QRect(0, 0, m_labels.cols, m_labels.rows));
}

std::int64_t LabelDocument::paintRegion(const paint::RegionMask& region, std::uint8_t value,
                                        const paint::WriteGuard& guard, const QString& text)
{
    if (region.empty())
        return 0;
    beginEdit();
    const std::int64_t changed = region.paint(touch(region.bounds), value, guard);
    notifyChanged(region.bounds);
    endEdit(text);
    return changed;
}

void LabelDocument::applyPatch(const paint::LabelPatch& patch, bool after)
{
    if (after)
        patch.applyAfter(m_labels);
    else
        patch.applyBefore(m_labels);
    notifyChanged(patch.bounds());
}

void LabelDocument::replaceLabels(const cv::Mat& labels, const QString& text)
{
    CV_Assert(labels.type() == m_labels.type() && labels.size() == m_labels.size());
    const cv::Rect all(0, 0, m_labels.cols, m_labels.rows);
    beginEdit();
    labels.copyTo(touch(all));
    notifyChanged(all);
    endEdit(text);
}

void LabelDocument::remapClasses(quint64 step, const std::array<std::uint8_t, 256>& table)
{
    if (m_recorder.active())
        endEdit(tr("Edit"));
    m_labelsBeforeRemap.emplace(step, m_labels.clone());
    cv::LUT(m_labels, cv::Mat(1, 256, CV_8UC1, const_cast<std::uint8_t*>(table.data())), m_labels);
    for (int i = 0; i < m_undoStack->count(); ++i) {
        if (auto* paint = dynamic_cast<PaintLabels*>(const_cast<QUndoCommand*>(m_undoStack->command(i))))
            paint->remap(step, table);
    }
    emit labelsChanged(QRect(0, 0, m_labels.cols, m_labels.rows));
}

bool LabelDocument::unremapClasses(quint64 step)
{
    const auto kept = m_labelsBeforeRemap.find(step);
    if (kept == m_labelsBeforeRemap.end())
        return false;
    if (m_recorder.active())
        endEdit(tr("Edit"));
    kept->second.copyTo(m_labels);
    m_labelsBeforeRemap.erase(kept);
    for (int i = 0; i < m_undoStack->count(); ++i) {
        if (auto* paint = dynamic_cast<PaintLabels*>(const_cast<QUndoCommand*>(m_undoStack->command(i))))
            paint->unremap(step);
    }
    emit labelsChanged(QRect(0, 0, m_labels.cols, m_labels.rows));
    return true;
}

bool LabelDocument::isModified() const { return !m_undoStack->isClean(); }

void LabelDocument::markSaved()
{
    m_undoStack->setClean();
    emitModifiedIfChanged();
}

void LabelDocument::revertToSaved()
{
    if (m_recorder.active())
        cancelEdit();
    if (m_undoStack->cleanIndex() >= 0)
        m_undoStack->setIndex(m_undoStack->cleanIndex());
    m_undoStack->clear();
    m_undoStack->setClean();
    emit labelsChanged(QRect(0, 0, m_labels.cols, m_labels.rows));
    emitModifiedIfChanged();
}

void LabelDocument::emitModifiedIfChanged()
{
    const bool modified = isModified();
    if (modified == m_lastModified)
        return;
    m_lastModified = modified;
    emit modifiedChanged(modified);
}

}  // namespace segstudio::ui::editor
