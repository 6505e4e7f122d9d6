#include "RelabelTransaction.h"

#include "DataError.h"
#include "LabelMapIO.h"
#include "Project.h"
#include "run/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <system_error>

namespace segstudio::data {

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

bool keepGoing(const RelabelTransaction::Progress& progress, std::size_t done, std::size_t total)
{
    return !progress || progress(done, total);
}

}  // namespace

RelabelTransaction::RelabelTransaction(fs::path folder) : m_folder(std::move(folder)) {}

fs::path RelabelTransaction::undoRoot(const fs::path& projectFile) { return projectFile.parent_path() / ".segstudio-undo"; }

fs::path RelabelTransaction::beforeOf(const Change& change) const { return m_folder / (change.name + ".before.png"); }
fs::path RelabelTransaction::afterOf(const Change& change) const { return m_folder / (change.name + ".after.png"); }
fs::path RelabelTransaction::mapOf(const Change& change) const { return m_root / change.labelMap; }

RelabelTransaction::Outcome RelabelTransaction::apply(const Project& project, const DatasetRelabeler& relabeler,
                                                      const ClassSchema& before, const ClassSchema& after,
                                                      const Progress& progress)
{
    std::error_code error;
    fs::create_directories(m_folder, error);
    if (error)
        throw DataError(m_folder.string(), "cannot create the backup folder: " + error.message());
    m_root = project.root();
    m_before = before;
    m_after = after;
    m_relabeler = relabeler;
    writeJournal(kPreparing);

    // Phase 1: relabel in memory and keep both versions; the maps themselves are not touched yet.
    Outcome outcome;
    const std::size_t total = project.size();
    for (std::size_t i = 0; i < total; ++i) {
        if (!keepGoing(progress, i, 2 * total)) {
            outcome.stopped = true;
            return outcome;
        }
        const fs::path path = project.labelMapPath(i);
        if (!fs::exists(path, error))
            continue;
        cv::Mat labels = readLabelMap(path, before);
        const std::int64_t pixels = relabeler.apply(labels);
        if (pixels == 0)
            continue;
        Change change{i, fs::relative(path, m_root).generic_string(), backupName(i)};
        run::writeFileAtomically(beforeOf(change), run::readFile(path), run::Durability::Deferred);
        writeLabelMap(afterOf(change), labels, after, run::Durability::Deferred);
        m_changes.push_back(std::move(change));
        outcome.pixels += pixels;
    }
    run::syncFolder(m_folder);
    writeJournal(kChanging);

    // Phase 2: every backup is durable, so each map can now be replaced.
    for (std::size_t n = 0; n < m_changes.size(); ++n) {
        keepGoing(progress, total + n * total / std::max<std::size_t>(m_changes.size(), 1), 2 * total);
        run::writeFileAtomically(mapOf(m_changes[n]), run::readFile(afterOf(m_changes[n])), run::Durability::Deferred);
        outcome.changed.push_back(m_changes[n].index);
    }
    run::syncFolder(m_root);
    keepGoing(progress, 2 * total, 2 * total);
    return outcome;
}

RelabelTransaction::Outcome RelabelTransaction::undo(const Progress& progress)
{
    writeJournal(kChanging);
    Outcome outcome;
    for (std::size_t n = 0; n < m_changes.size(); ++n) {
        keepGoing(progress, n, m_changes.size());
        const Change& change = m_changes[m_changes.size() - 1 - n];
        const std::string now = bytesOf(mapOf(change));
        const std::string before = run::readFile(beforeOf(change));
        if (now == before)
            continue;  // never replaced (a stopped or failed apply)
        if (now != run::readFile(afterOf(change))) {
            outcome.kept.push_back(change.index);  // labelled since: the user's work stays
            continue;
        }
        run::writeFileAtomically(mapOf(change), before, run::Durability::Deferred);
        outcome.changed.push_back(change.index);
    }
    if (!m_root.empty())
        run::syncFolder(m_root);
    keepGoing(progress, m_changes.size(), m_changes.size());
    return outcome;
}

RelabelTransaction::Outcome RelabelTransaction::redo(const Project& project, const Progress& progress)
{
    m_changes.clear();
    return apply(project, m_relabeler, m_before, m_after, progress);
}

void RelabelTransaction::settle() const { writeJournal(kSettled); }

void RelabelTransaction::discard() const
{
    std::error_code error;
    fs::remove_all(m_folder, error);  // only backups: nothing to report if they linger
}

void RelabelTransaction::writeJournal(const std::string& state) const
{
    nlohmann::json maps = nlohmann::json::array();
    for (const Change& change : m_changes)
        maps.push_back({{"index", change.index}, {"labelMap", change.labelMap}, {"backup", change.name}});
    const nlohmann::json journal = {{"state", state}, {"schemaBefore", m_before.toJson()}, {"maps", maps}};
    run::writeFileAtomically(m_folder / kJournalName, journal.dump(1));
}

std::vector<std::string> RelabelTransaction::recoverInterrupted(const fs::path& projectFile)
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
        if (!fs::exists(journalFile, error))
            continue;  // another kind of backup (Accept Prediction): not a relabel
        nlohmann::json journal;
        try {
            journal = nlohmann::json::parse(run::readFile(journalFile));
        } catch (const nlohmann::json::exception& e) {
            throw DataError(journalFile.string(), std::string("unreadable relabel journal: ") + e.what());
        }
        if (journal.value("state", std::string()) == kChanging) {
            RelabelTransaction step(folder);
            step.m_root = projectFile.parent_path();
            step.m_before = ClassSchema::fromJson(journal.at("schemaBefore"), journalFile.string());
            for (const auto& map : journal.at("maps"))
                step.m_changes.push_back({map.at("index").get<std::size_t>(), map.at("labelMap").get<std::string>(),
                                          map.at("backup").get<std::string>()});
            const Outcome rolledBack = step.undo();
            Project project = Project::load(projectFile);
            project.setSchema(step.m_before);
            project.save();
            recovered.push_back(folder.filename().string() + ": " + std::to_string(rolledBack.changed.size()) +
                                " label map(s) and the class list put back as they were before an interrupted merge or delete");
        }
        fs::remove_all(folder, error);
    }
    return recovered;
}

}  // namespace segstudio::data
