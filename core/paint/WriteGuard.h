#pragma once

#include <array>
#include <bitset>
#include <cstdint>

namespace segstudio::paint {

// Which existing label values an edit may overwrite: the editor's lock options ("paint only into
// unlabelled pixels", "protect these classes") as a 256-entry table, so the inner loops of every
// fill and brush pay one lookup per pixel.
// Guarantees: allows(v) is true for every value unless a lock says otherwise.
class WriteGuard {
public:
    WriteGuard();

    void setOnlyUnlabelled(bool on);
    void setProtected(int classId, bool isProtected);
    bool onlyUnlabelled() const { return m_onlyUnlabelled; }
    bool isProtected(int classId) const { return classId >= 0 && classId < 256 && m_protected.test(classId); }

    bool allows(std::uint8_t current) const { return m_table[current] != 0; }
    const std::array<std::uint8_t, 256>& table() const { return m_table; }

private:
    void rebuild();

    bool m_onlyUnlabelled = false;
    std::bitset<256> m_protected;
    std::array<std::uint8_t, 256> m_table{};
};

}  // namespace segstudio::paint
