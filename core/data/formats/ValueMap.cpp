#include "ValueMap.h"

#include "data/labels/DataError.h"
#include "data/labels/DistinctColor.h"

#include <map>
#include <sstream>

namespace segstudio::data {
inline namespace formats {

namespace {

int storedValue(const std::string& text, const std::string& entry)
{
    std::size_t end = 0;
    int value = -1;
    try {
        value = std::stoi(text, &end);
    } catch (const std::exception&) {
        end = 0;
    }
    if (end != text.size() || text.empty() || value < 0 || value > 255)
        throw DataError({}, "--values: '" + entry + "': the stored value must be a whole number from 0 to 255");
    return value;
}

}  // namespace

ValueMap ValueMap::parse(const std::string& text)
{
    ValueMap map;
    map.m_classOf.fill(-1);
    std::vector<LabelClass> classes;
    std::map<std::string, int> idOf;
    std::vector<Rgb> taken;
    std::stringstream entries(text);
    for (std::string entry; std::getline(entries, entry, ',');) {
        const std::size_t equals = entry.find('=');
        if (equals == std::string::npos || equals + 1 == entry.size())
            throw DataError({}, "--values: '" + entry + "' is not VALUE=CLASS (e.g. 0=Membrane,255=Cell)");
        const int value = storedValue(entry.substr(0, equals), entry);
        const std::string name = entry.substr(equals + 1);
        if (map.m_classOf[std::size_t(value)] != -1)
            throw DataError({}, "--values: the value " + std::to_string(value) + " is named twice");
        if (name == "unlabelled") {
            map.m_classOf[std::size_t(value)] = kUnlabelled;
            continue;
        }
        if (!idOf.count(name)) {
            const Rgb colour = distinctColor(taken);
            taken.push_back(colour);
            idOf[name] = int(classes.size());
            classes.push_back({int(classes.size()), name, colour, {}});
        }
        map.m_classOf[std::size_t(value)] = idOf[name];
    }
    if (classes.empty())
        throw DataError({}, "--values names no class (e.g. 0=Membrane,255=Cell)");
    map.m_schema = ClassSchema(classes);
    return map;
}

cv::Mat ValueMap::apply(const cv::Mat& stored, const std::filesystem::path& file) const
{
    CV_Assert(stored.type() == CV_8UC1);
    cv::Mat classes(stored.size(), CV_8UC1);
    for (int y = 0; y < stored.rows; ++y) {
        const std::uint8_t* in = stored.ptr<std::uint8_t>(y);
        std::uint8_t* out = classes.ptr<std::uint8_t>(y);
        for (int x = 0; x < stored.cols; ++x) {
            const int id = m_classOf[in[x]];
            if (id < 0)
                throw DataError(file.string(), "holds the value " + std::to_string(in[x]) + " at (" + std::to_string(x) + ", " +
                                                   std::to_string(y) + "), which --values does not name");
            out[x] = std::uint8_t(id);
        }
    }
    return classes;
}

}  // namespace formats
}  // namespace segstudio::data
