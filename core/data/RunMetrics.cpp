#include "RunMetrics.h"

#include "DataError.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <system_error>

namespace segstudio::data {

namespace {

std::optional<double> number(const nlohmann::json& object, const char* key)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number())
        return std::nullopt;  // null (NaN), absent, or not a number
    return it->get<double>();
}

}  // namespace

RunMetrics::RunMetrics(std::filesystem::path file) : m_file(std::move(file)) {}

void RunMetrics::reset()
{
    m_offset = 0;
    m_lineNumber = 0;
}

std::optional<MetricsPoint> RunMetrics::parseLine(const std::string& line, const std::string& file,
                                                  std::uint64_t lineNumber)
{
    const auto fail = [&](const std::string& problem) {
        throw DataError(file, "line " + std::to_string(lineNumber) + ": " + problem);
    };
    nlohmann::json object;
    try {
        object = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& error) {
        fail(std::string("not valid JSON (") + error.what() + ")");
    }
    if (!object.is_object())
        fail("not a JSON object");
    const auto kind = object.find("kind");
    if (kind == object.end() || !kind->is_string())
        fail("no \"kind\"");
    MetricsPoint point;
    if (*kind == "train")
        point.kind = MetricsPoint::Kind::Train;
    else if (*kind == "val")
        point.kind = MetricsPoint::Kind::Val;
    else
        return std::nullopt;
    point.epoch = int(number(object, "epoch").value_or(0));
    point.iteration = std::int64_t(number(object, "iteration").value_or(0));
    point.loss = number(object, "loss");
    point.accuracy = number(object, "accuracy");
    point.meanAccuracy = number(object, "mean_accuracy");
    point.meanIoU = number(object, "mean_iou");
    point.learningRate = number(object, "lr");
    point.elapsedSeconds = number(object, "elapsed_s");
    return point;
}

std::vector<MetricsPoint> RunMetrics::poll()
{
    m_restarted = false;
    std::vector<MetricsPoint> points;
    std::error_code error;
    const auto size = std::filesystem::file_size(m_file, error);
    if (error)
        return points;  // not written yet
    if (size < m_offset) {
        reset();
        m_restarted = true;
    }
    if (size == m_offset)
        return points;

    std::ifstream stream(m_file, std::ios::binary);
    if (!stream)
        return points;
    stream.seekg(std::streamoff(m_offset));
    std::string chunk(std::size_t(size - m_offset), '\0');
    stream.read(chunk.data(), std::streamsize(chunk.size()));
    chunk.resize(std::size_t(stream.gcount()));

    std::size_t start = 0;
    for (;;) {
        const auto end = chunk.find('\n', start);
        if (end == std::string::npos)
            break;  // a partial line: wait for its newline
        std::string line = chunk.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const auto lineNumber = m_lineNumber + 1;
        if (line.find_first_not_of(" \t") != std::string::npos) {
            try {
                if (auto point = parseLine(line, m_file.string(), lineNumber))
                    points.push_back(*point);
            } catch (const DataError&) {
                // Hand out the good lines first; the next poll() stops at this line and throws.
                if (points.empty())
                    throw;
                break;
            }
        }
        m_lineNumber = lineNumber;
        m_offset += end + 1 - start;
        start = end + 1;
    }
    return points;
}

}  // namespace segstudio::data
