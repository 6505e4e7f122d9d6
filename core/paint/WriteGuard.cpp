#include "WriteGuard.h"

#include "data/labels/LabelClass.h"

namespace segstudio::paint {

WriteGuard::WriteGuard() { rebuild(); }

void WriteGuard::setOnlyUnlabelled(bool on)
{
    m_onlyUnlabelled = on;
    rebuild();
}

void WriteGuard::setProtected(int classId, bool isProtected)
{
    if (classId < 0 || classId >= 256)
        return;
    m_protected.set(static_cast<std::size_t>(classId), isProtected);
    rebuild();
}

void WriteGuard::rebuild()
{
    for (int v = 0; v < 256; ++v) {
        const bool writable = m_onlyUnlabelled ? v == data::kUnlabelled : !m_protected.test(static_cast<std::size_t>(v));
        m_table[static_cast<std::size_t>(v)] = writable ? 1 : 0;
    }
}

}  // namespace segstudio::paint
