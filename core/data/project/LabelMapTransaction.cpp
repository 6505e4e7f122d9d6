#include "LabelMapTransaction.h"

#include "data/labels/DataError.h"
#include "data/labels/LabelMapIO.h"
#include "Project.h"
#include "run/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <system_error>

namespace segstudio::data {
inline namespace project {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPreparing = "preparing";  // backups being written; no map touched yet
constexpr const char* kChanging = "changing";    // maps being replaced; a crash rolls back
constexpr const char* kSettled = "settled";      // maps and project file agree

// The bytes of a file, empty when it does not exist.
std::string bytesOf(const fs::path& file)
{
    std::error_code error;
    return fs::exists(file, error) ? run::readFile(file) : std::string();
}

std::string backupName(std::size_t index)
{
    char name[32];
    std::snprintf(name, sizeof name, "%06zu", index);
    return name;
}

void tell(const LabelMapTransaction::Progress& progress, std::size_t done, std::size_t total)
{
    if (progress)
        progress(done, total);
}

}  // namespace

LabelMapTransaction::LabelMapTransaction(fs::path folder, fs::path projectRoot, ClassSchema schemaBefore)
    : m_folder(std::move(folder)), m_root(std::move(projectRoot)), m_before(std::move(schemaBefore))
{
}

fs::path LabelMapTransaction::undoRoot(const fs::path& projectFile) { return projectFile.parent_path() / ".segstudio-undo"; }

fs::path LabelMapTransaction::beforeOf(const Change& change) const { return m_folder / (change.name + ".before.png"); }
fs::path LabelMapTransaction::afterOf(const Change& change) const { return m_folder / (change.name + ".after.png"); }
fs::path LabelMapTransaction::mapOf(const Change& change) const { return m_root / change.labelMap; }

std::string LabelMapTransaction::beforeBytes(const Change& change) const
{
    return change.created ? std::string() : run::readFile(beforeOf(change));
}

void LabelMapTransaction::begin()
{
    std::error_code error;
    fs::create_directories(m_folder, error);
    if (error)
        throw DataError(m_folder.string(), "cannot create the backup folder: " + error.message());
    m_changes.clear();
    writeJournal(kPreparing);
}

void LabelMapTransaction::stage(std::size_t index, const fs::path& labelMap, const cv::Mat& labels, const ClassSchema& palette)
{
    std::error_code error;
    Change change{index, fs::relative(labelMap, m_root).generic_string(), backupName(index), !fs::exists(labelMap, error)};
    if (!change.created)
        run::writeFileAtomically(beforeOf(change), run::readFile(labelMap), run::Durability::Deferred);
    writeLabelMap(afterOf(change), labels, palette, run::Durability::Deferred);
    m_changes.push_back(std::move(change));
}

LabelMapTransaction::Outcome LabelMapTransaction::commit(const Progress& progress)
{
    run::syncFolder(m_folder);
    writeJournal(kChanging);
    Outcome outcome;
    try {
        for (std::size_t n = 0; n < m_changes.size(); ++n) {
            tell(progress, n, m_changes.size());
            const Change& change = m_changes[n];
            std::error_code error;
            fs::create_directories(mapOf(change).parent_path(), error);  // a failure shows in the write
            run::writeFileAtomically(mapOf(change), run::readFile(afterOf(change)), run::Durability::Deferred);
            outcome.changed.push_back(change.index);
        }
        run::syncFolder(m_root);
    } catch (const std::exception&) {
        // What was replaced goes back. All back: maps and project agree again (the project file
        // was never changed). A map that cannot be put back leaves the journal "changing".
        if (undo().failed.empty())
            settle();
        throw;
    }
    tell(progress, m_changes.size(), m_changes.size());
    return outcome;
}

void LabelMapTransaction::restore(const Change& change, const std::string& bytes) const
{
    if (!change.created) {
        run::writeFileAtomically(mapOf(change), bytes, run::Durability::Deferred);
        return;
    }
    std::error_code error;
    fs::remove(mapOf(change), error);
    if (error)
        throw DataError(mapOf(change).string(), "cannot remove: " + error.message());
}

LabelMapTransaction::Outcome LabelMapTransaction::undo(const Progress& progress)
{
    writeJournal(kChanging);
    Outcome outcome;
    for (std::size_t n = 0; n < m_changes.size(); ++n) {
        tell(progress, n, m_changes.size());
        const Change& change = m_changes[m_changes.size() - 1 - n];
        try {
            const std::string now = bytesOf(mapOf(change));
            const std::string before = beforeBytes(change);
            if (now == before)
                continue;  // never replaced (a stopped or failed step), or already back
            if (now != run::readFile(afterOf(change))) {
                outcome.kept.push_back(change.index);  // labelled since: the user's work stays
                continue;
            }
            restore(change, before);
            outcome.changed.push_back(change.index);
        } catch (const std::exception& e) {
            outcome.failed.push_back({change.index, e.what()});  // the others are still tried
        }
    }
    try {
        run::syncFolder(m_root);
    } catch (const std::exception& e) {
        outcome.failed.push_back({m_changes.empty() ? 0 : m_changes.front().index, e.what()});
    }
    tell(progress, m_changes.size(), m_changes.size());
    return outcome;
}

LabelMapTransaction::Outcome LabelMapTransaction::reapply(const Progress& progress)
{
    writeJournal(kChanging);
    Outcome outcome;
    for (std::size_t n = 0; n < m_changes.size(); ++n) {
        tell(progress, n, m_changes.size());
        const Change& change = m_changes[n];
        try {
            if (bytesOf(mapOf(change)) != beforeBytes(change)) {
                outcome.kept.push_back(change.index);
                continue;
            }
            run::writeFileAtomically(mapOf(change), run::readFile(afterOf(change)), run::Durability::Deferred);
            outcome.changed.push_back(change.index);
        } catch (const std::exception& e) {
            outcome.failed.push_back({change.index, e.what()});
        }
    }
    run::syncFolder(m_root);
    tell(progress, m_changes.size(), m_changes.size());
    return outcome;
}

void LabelMapTransaction::settle() { writeJournal(kSettled); }

bool LabelMapTransaction::discard() const
{
    if (m_state == kChanging)
        return false;  // maps and project may disagree: recovery on the next open needs the backups
    std::error_code error;
    fs::remove_all(m_folder, error);  // only backups: nothing to report if they linger
    return true;
}

void LabelMapTransaction::writeJournal(const std::string& state)
{
    nlohmann::json maps = nlohmann::json::array();
    for (const Change& change : m_changes)
        maps.push_back({{"index", change.index}, {"labelMap", change.labelMap}, {"backup", change.name},
                        {"created", change.created}});
    const nlohmann::json journal = {{"state", state}, {"schemaBefore", m_before.toJson()}, {"maps", maps}};
    run::writeFileAtomically(m_folder / kJournalName, journal.dump(1));
    m_state = state;
}

std::vector<std::string> LabelMapTransaction::recoverInterrupted(const fs::path& projectFile)
{
    std::vector<std::string> recovered;
    const fs::path root = undoRoot(projectFile);
    std::error_code error;
    if (!fs::is_directory(root, error))
        return recovered;
    std::vector<fs::path> folders;
    for (const fs::directory_entry& entry : fs::directory_iterator(root, error))
        folders.push_back(entry.path());
    for (const fs::path& folder : folders) {
        const fs::path journalFile = folder / kJournalName;
        nlohmann::json journal;
        if (fs::exists(journalFile, error)) {
            try {
                journal = nlohmann::json::parse(run::readFile(journalFile));
            } catch (const nlohmann::json::exception& e) {
                throw DataError(journalFile.string(), std::string("unreadable label-map journal: ") + e.what());
            }
        }
        if (journal.value("state", std::string()) == kChanging) {
            LabelMapTransaction step(folder, projectFile.parent_path(),
                                     ClassSchema::fromJson(journal.at("schemaBefore"), journalFile.string()));
            for (const auto& map : journal.at("maps"))
                step.m_changes.push_back({map.at("index").get<std::size_t>(), map.at("labelMap").get<std::string>(),
                                          map.at("backup").get<std::string>(), map.value("created", false)});
            const Outcome rolledBack = step.undo();
            if (!rolledBack.failed.empty()) {
                recovered.push_back(folder.filename().string() + ": " + std::to_string(rolledBack.failed.size()) +
                                    " label map(s) could not be put back yet (first: " + rolledBack.failed.front().message +
                                    "); their backups are kept in " + folder.string() + " and the next open tries again");
                continue;
            }
            Project project = Project::load(projectFile);
            project.setSchema(step.m_before);
            project.save();
            recovered.push_back(folder.filename().string() + ": " + std::to_string(rolledBack.changed.size()) +
                                " label map(s) and the class list put back as they were before an unfinished change");
        }
        fs::remove_all(folder, error);  // a settled step, or an older session's undo backups
    }
    return recovered;
}

}  // namespace project
}  // namespace segstudio::data
