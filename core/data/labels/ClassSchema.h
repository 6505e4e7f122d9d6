#pragma once

#include "LabelClass.h"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::data {
inline namespace labels {

// The classes of a project: ids 0..254 with names, colours and hotkeys; 255 is reserved for
// unlabelled pixels. Ids are unique but need not be contiguous (a deleted class leaves a gap).
class ClassSchema {
public:
    ClassSchema() = default;
    explicit ClassSchema(std::vector<LabelClass> classes);  // throws DataError on a bad table

    static ClassSchema camVid();                              // the 11-class CamVid/SegNet preset
    static ClassSchema fromJson(const nlohmann::json& json, const std::string& file = {});
    static ClassSchema loadFile(const std::string& path);     // a preset file (resources/presets)
    nlohmann::json toJson() const;

    const std::vector<LabelClass>& classes() const { return m_classes; }
    std::size_t size() const { return m_classes.size(); }
    bool empty() const { return m_classes.empty(); }
    bool contains(int id) const { return find(id) != nullptr; }
    const LabelClass* find(int id) const;
    std::optional<int> idOfColor(const Rgb& color) const;
    std::optional<int> idOfName(const std::string& name) const;
    int maxId() const;  // -1 for an empty schema
    int nextFreeId() const;

    void add(LabelClass labelClass);
    void remove(int id);
    void update(const LabelClass& labelClass);  // by id

    // The 256-entry palette written into label-map PNGs: class colours, black elsewhere.
    std::vector<Rgb> palette() const;

    bool operator==(const ClassSchema& other) const { return m_classes == other.m_classes; }

private:
    void validate(const std::string& file) const;

    std::vector<LabelClass> m_classes;
};

}  // namespace labels
}  // namespace segstudio::data
