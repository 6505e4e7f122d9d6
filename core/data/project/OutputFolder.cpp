#include "OutputFolder.h"

#include "ProjectFolders.h"
#include "data/labels/DataError.h"
#include "run/FileFingerprint.h"
#include "run/AppendOnlyFile.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace segstudio::data {
inline namespace project {

namespace fs = std::filesystem;
using nlohmann::json;

OutputFolder::~OutputFolder()
{
    giveBackUnwritten();
}

namespace {

fs::path absoluteFolder(const fs::path& folder, const std::string& what)
{
    if (folder.empty())
        throw DataError({}, "no output folder given for the " + what + " (the path is empty)");
    return fs::absolute(folder).lexically_normal();
}

}  // namespace

OutputFolder::OutputFolder(const fs::path& folder, const Project* project, const std::string& what)
    : m_folder(absoluteFolder(folder, what)), m_claim(m_folder / ".segstudio-outputs")
{
    if (project)
        refuseProjectFolders(*project, m_folder, what + " go into a folder of their own");
    std::error_code error;
    if (fs::exists(m_folder, error) && !fs::is_directory(m_folder, error))
        throw DataError(m_folder.string(), "is a file, not a folder: the " + what + " need a folder");
    fs::create_directories(m_folder, error);
    if (error)
        throw DataError(m_folder.string(), "cannot create the folder: " + error.message());
    claim(what);
    readLedger();
}

void OutputFolder::claim(const std::string& what)
{
    using Result = ProjectLock::Result;
    const Result result = m_claim.acquire();
    if (result == Result::HeldByOther)
        throw DataError(m_folder.string(), "another command is writing " + what + " into it (" + m_claim.holderText() + ")");
    if (result == Result::NotWritable)
        throw DataError(m_folder.string(), "cannot be written: " + m_claim.failure());
}

void OutputFolder::readLedger()
{
    std::ifstream in(m_folder / kLedger);
    std::string line;
    while (std::getline(in, line)) {
        const json entry = json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (!entry.is_object() || !entry.contains("file") || !entry["file"].is_string())
            continue;  // (a line torn by a kill mid-append)
        if (entry.value("released", false)) {
            m_ledger.erase(entry["file"].get<std::string>());
            continue;
        }
        const auto fingerprint = entry.find("fingerprint");
        m_ledger[entry["file"]] = fingerprint != entry.end() && fingerprint->is_string()
                                      ? std::optional<std::string>(fingerprint->get<std::string>())
                                      : std::nullopt;
    }
}

void OutputFolder::adopt(const std::vector<std::string>& names)
{
    for (const std::string& name : names)
        append(name, run::fileFingerprint(m_folder / name));
}

bool OutputFolder::isFree(const std::string& name) const
{
    const fs::path file = m_folder / name;
    std::error_code error;
    if (!fs::exists(fs::symlink_status(file, error)))
        return true;
    const auto recorded = m_ledger.find(name);
    if (recorded == m_ledger.end())
        return false;
    return !recorded->second || *recorded->second == run::fileFingerprint(file);
}

void OutputFolder::requireFree(const std::vector<std::string>& names) const
{
    for (const std::string& name : names) {
        const auto reserved = m_reserved.find(name);
        if (reserved == m_reserved.end())
            continue;  // (written already, or pending from a killed command: this folder's own)
        const std::string now = run::fileFingerprint(m_folder / name);
        if (!now.empty() && now != reserved->second.value_or(std::string()))
            throw DataError((m_folder / name).string(),
                            "appeared or changed while the command ran: never replaced (move it away and run it again)");
    }
}

void OutputFolder::reserve(const std::vector<std::string>& names)
{
    std::vector<std::string> taken;
    for (const std::string& name : names)
        if (!isFree(name))
            taken.push_back(name);
    if (!taken.empty()) {
        const std::string others = taken.size() > 1 ? " (and " + std::to_string(taken.size() - 1) + " more)" : "";
        throw DataError((m_folder / taken.front()).string(),
                        "exists and was not written here by SegStudio, or was changed since" + others +
                            ": never replaced; write into a new or empty folder, or move the file(s) away");
    }
    for (const std::string& name : names) {
        const auto recorded = m_ledger.find(name);
        if (recorded != m_ledger.end() && !recorded->second)
            continue;  // pending already
        m_reserved.emplace(name, recorded != m_ledger.end() ? recorded->second : std::nullopt);
        append(name, std::nullopt);
    }
}

// A name reserved but never written keeps what the ledger said of it before (a file of an
// earlier command stays checkable), or is released when it had no record.
void OutputFolder::giveBackUnwritten() noexcept
{
    try {
        for (const auto& [name, before] : m_reserved) {
            if (before) {
                append(name, before);
                continue;
            }
            if (m_ledgerFile)
                m_ledgerFile->appendLine(json{{"file", name}, {"released", true}}.dump(-1, ' ', false, json::error_handler_t::replace));
        }
    } catch (...) {
        // (a full disk: the names stay pending, taken as this folder's own by the next command)
    }
    m_reserved.clear();
}

void OutputFolder::written(const std::string& name)
{
    append(name, run::fileFingerprint(m_folder / name));
    m_reserved.erase(name);
}

void OutputFolder::written(const std::vector<std::string>& names)
{
    for (const std::string& name : names) {
        std::error_code error;
        if (fs::exists(m_folder / name, error))
            written(name);
    }
}

void OutputFolder::append(const std::string& name, const std::optional<std::string>& fingerprint)
{
    json entry = {{"file", name}};
    if (fingerprint)
        entry["fingerprint"] = *fingerprint;
    if (!m_ledgerFile)
        m_ledgerFile = std::make_unique<run::AppendOnlyFile>((m_folder / kLedger).string());
    m_ledgerFile->appendLine(entry.dump(-1, ' ', false, json::error_handler_t::replace));
    m_ledger[name] = fingerprint;
}

}  // namespace project
}  // namespace segstudio::data
