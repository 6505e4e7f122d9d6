#include "ClassSchema.h"

#include "run/AtomicFile.h"
#include "DataError.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

namespace segstudio::data {
inline namespace labels {

extern const char* const kCamVidPresetJson;  // generated from resources/presets/camvid.json

namespace {

std::string colorToHex(const Rgb& color)
{
    char text[8];
    std::snprintf(text, sizeof(text), "#%02X%02X%02X", color.r, color.g, color.b);
    return text;
}

Rgb colorFromHex(const std::string& text, const std::string& file)
{
    unsigned r = 0, g = 0, b = 0;
    if (text.size() != 7 || text[0] != '#' || std::sscanf(text.c_str() + 1, "%02x%02x%02x", &r, &g, &b) != 3)
        throw DataError(file, "colour '" + text + "' is not of the form #RRGGBB");
    return {std::uint8_t(r), std::uint8_t(g), std::uint8_t(b)};
}

}  // namespace

ClassSchema::ClassSchema(std::vector<LabelClass> classes) : m_classes(std::move(classes))
{
    validate({});
}

ClassSchema ClassSchema::camVid()
{
    static const ClassSchema preset = fromJson(nlohmann::json::parse(kCamVidPresetJson), "camvid preset");
    return preset;
}

ClassSchema ClassSchema::fromJson(const nlohmann::json& json, const std::string& file)
{
    const nlohmann::json& list = json.is_object() && json.contains("classes") ? json.at("classes") : json;
    if (!list.is_array())
        throw DataError(file, "the class schema must be a list of classes");
    ClassSchema schema;
    for (const nlohmann::json& item : list) {
        if (!item.is_object() || !item.contains("id") || !item.contains("name") || !item.contains("color"))
            throw DataError(file, "every class needs an id, a name and a color: " + item.dump());
        if (!item.at("id").is_number_integer() || !item.at("name").is_string() || !item.at("color").is_string())
            throw DataError(file, "class fields have the wrong type: " + item.dump());
        LabelClass labelClass;
        labelClass.id = item.at("id").get<int>();
        labelClass.name = item.at("name").get<std::string>();
        labelClass.color = colorFromHex(item.at("color").get<std::string>(), file);
        labelClass.hotkey = item.value("hotkey", std::string());
        schema.m_classes.push_back(std::move(labelClass));
    }
    schema.validate(file);
    return schema;
}

ClassSchema ClassSchema::loadFile(const std::string& path)
{
    const std::string text = run::readFile(path);
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& error) {
        throw DataError(path, std::string("not valid JSON: ") + error.what());
    }
    return fromJson(json, path);
}

nlohmann::json ClassSchema::toJson() const
{
    nlohmann::json list = nlohmann::json::array();
    for (const LabelClass& labelClass : m_classes)
        list.push_back({{"id", labelClass.id},
                        {"name", labelClass.name},
                        {"color", colorToHex(labelClass.color)},
                        {"hotkey", labelClass.hotkey}});
    return list;
}

const LabelClass* ClassSchema::find(int id) const
{
    const auto it = std::find_if(m_classes.begin(), m_classes.end(), [id](const LabelClass& c) { return c.id == id; });
    return it == m_classes.end() ? nullptr : &*it;
}

std::optional<int> ClassSchema::idOfColor(const Rgb& color) const
{
    for (const LabelClass& labelClass : m_classes)
        if (labelClass.color == color)
            return labelClass.id;
    return std::nullopt;
}

std::optional<int> ClassSchema::idOfName(const std::string& name) const
{
    for (const LabelClass& labelClass : m_classes)
        if (labelClass.name == name)
            return labelClass.id;
    return std::nullopt;
}

int ClassSchema::maxId() const
{
    int result = -1;
    for (const LabelClass& labelClass : m_classes)
        result = std::max(result, labelClass.id);
    return result;
}

int ClassSchema::nextFreeId() const
{
    for (int id = 0; id < kUnlabelled; ++id)
        if (!contains(id))
            return id;
    throw DataError({}, "the schema already has 255 classes");
}

void ClassSchema::add(LabelClass labelClass)
{
    m_classes.push_back(std::move(labelClass));
    try {
        validate({});
    } catch (...) {
        m_classes.pop_back();
        throw;
    }
}

void ClassSchema::remove(int id)
{
    m_classes.erase(std::remove_if(m_classes.begin(), m_classes.end(), [id](const LabelClass& c) { return c.id == id; }),
                    m_classes.end());
}

void ClassSchema::update(const LabelClass& labelClass)
{
    auto it = std::find_if(m_classes.begin(), m_classes.end(), [&](const LabelClass& c) { return c.id == labelClass.id; });
    if (it == m_classes.end())
        throw DataError({}, "no class with id " + std::to_string(labelClass.id));
    const LabelClass previous = *it;
    *it = labelClass;
    try {
        validate({});
    } catch (...) {
        *it = previous;
        throw;
    }
}

std::vector<Rgb> ClassSchema::palette() const
{
    std::vector<Rgb> colors(256, Rgb{0, 0, 0});
    for (const LabelClass& labelClass : m_classes)
        colors[labelClass.id] = labelClass.color;
    return colors;
}

void ClassSchema::validate(const std::string& file) const
{
    std::set<int> ids;
    std::set<std::string> names;
    for (const LabelClass& labelClass : m_classes) {
        if (labelClass.id < 0 || labelClass.id >= kUnlabelled)
            throw DataError(file, "class '" + labelClass.name + "' has id " + std::to_string(labelClass.id)
                                      + "; ids must be 0..254 (255 means unlabelled)");
        if (labelClass.name.empty())
            throw DataError(file, "class " + std::to_string(labelClass.id) + " has no name");
        if (!ids.insert(labelClass.id).second)
            throw DataError(file, "class id " + std::to_string(labelClass.id) + " is used twice");
        if (!names.insert(labelClass.name).second)
            throw DataError(file, "class name '" + labelClass.name + "' is used twice");
    }
}

}  // namespace labels
}  // namespace segstudio::data
