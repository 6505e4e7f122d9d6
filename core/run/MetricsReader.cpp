#include "MetricsReader.h"

#include "FileError.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <sys/stat.h>

namespace segstudio::run {

MetricsReader::MetricsReader(std::filesystem::path file) : m_file(std::move(file)) {}

void MetricsReader::reset()
{
    m_offset = 0;
    m_lineNumber = 0;
    m_atEnd = true;
}

std::vector<std::string> MetricsReader::takeWarnings()
{
    std::vector<std::string> warnings;
    warnings.swap(m_warnings);
    return warnings;
}

std::optional<MetricsRecord> MetricsReader::parseLine(const std::string& line, const std::string& file,
                                                      std::uint64_t lineNumber)
{
    const auto fail = [&](const std::string& problem) {
        throw FileError(file, "line " + std::to_string(lineNumber) + ": " + problem);
    };
    nlohmann::json object;
    try {
        object = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& error) {
        fail(std::string("not valid JSON (") + error.what() + ")");
    }
    try {
        return recordFromJson(object);
    } catch (const std::invalid_argument& error) {
        fail(error.what());
    }
    return std::nullopt;
}

bool MetricsReader::fileWasReplaced(std::uint64_t size, std::uint64_t inode) const
{
    return size < m_offset || (m_inode != 0 && inode != m_inode);
}

std::vector<MetricsRecord> MetricsReader::poll(std::size_t maxBytes)
{
    m_restarted = false;
    std::vector<MetricsRecord> records;
    struct stat info {};
    if (::stat(m_file.c_str(), &info) != 0)
        return records;  // not written yet
    const auto size = std::uint64_t(info.st_size);
    if (fileWasReplaced(size, std::uint64_t(info.st_ino))) {
        reset();
        m_restarted = true;
    }
    m_inode = std::uint64_t(info.st_ino);
    m_atEnd = size == m_offset;
    if (m_atEnd)
        return records;

    std::ifstream stream(m_file, std::ios::binary);
    if (!stream)
        return records;
    stream.seekg(std::streamoff(m_offset));
    std::string chunk;
    std::size_t want = std::max<std::size_t>(maxBytes, 1);
    // Read at least one whole line: a line longer than maxBytes doubles the read.
    for (;;) {
        chunk.resize(std::size_t(std::min<std::uint64_t>(want, size - m_offset)));
        stream.clear();
        stream.seekg(std::streamoff(m_offset));
        stream.read(chunk.data(), std::streamsize(chunk.size()));
        chunk.resize(std::size_t(stream.gcount()));
        if (chunk.find('\n') != std::string::npos || m_offset + chunk.size() >= size)
            break;
        want *= 2;
    }

    // Whatever this chunk leaves unread at the end of the file is a line still being written.
    const bool chunkReachesTheEnd = m_offset + chunk.size() >= size;
    std::size_t start = 0;
    for (;;) {
        const auto end = chunk.find('\n', start);
        if (end == std::string::npos)
            break;  // a partial line: wait for its newline (or the next chunk)
        std::string line = chunk.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        ++m_lineNumber;
        if (line.find_first_not_of(" \t") != std::string::npos) {
            try {
                if (auto record = parseLine(line, m_file.string(), m_lineNumber))
                    records.push_back(std::move(*record));
            } catch (const FileError& error) {
                m_warnings.push_back(std::string(error.what()) + "; skipped");
            }
        }
        m_offset += end + 1 - start;
        start = end + 1;
    }
    m_atEnd = chunkReachesTheEnd;
    return records;
}

std::vector<MetricsRecord> MetricsReader::readAll(const std::filesystem::path& file, std::vector<std::string>* warnings)
{
    MetricsReader reader(file);
    std::vector<MetricsRecord> records;
    do {
        auto more = reader.poll();
        records.insert(records.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    } while (!reader.atEnd());
    if (warnings)
        *warnings = reader.takeWarnings();
    return records;
}

}  // namespace segstudio::run
