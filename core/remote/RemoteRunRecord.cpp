#include "RemoteRunRecord.h"

#include "run/AtomicFile.h"
#include "run/FileError.h"

#include <stdexcept>

namespace segstudio::remote {

std::filesystem::path RemoteRunRecord::fileIn(const std::filesystem::path& localRunDir)
{
    return localRunDir / "remote.json";
}

void RemoteRunRecord::write(const std::filesystem::path& localRunDir) const
{
    const nlohmann::json json = {{"target", target.toJson()}, {"remoteRunDir", remoteRunDir}, {"pid", pid}, {"jobId", jobId}};
    run::writeFileAtomically(fileIn(localRunDir), json.dump(2) + "\n");
}

std::optional<RemoteRunRecord> RemoteRunRecord::read(const std::filesystem::path& localRunDir)
{
    const auto file = fileIn(localRunDir);
    std::error_code error;
    if (!std::filesystem::exists(file, error))
        return std::nullopt;
    const auto json = nlohmann::json::parse(run::readFile(file), nullptr, /*allow_exceptions=*/false);
    if (!json.is_object())
        throw run::FileError(file.string(), "not a remote run record (truncated or not JSON)");
    try {
        RemoteRunRecord record;
        record.target = RemoteTarget::fromJson(json.at("target"));
        record.remoteRunDir = json.at("remoteRunDir").get<std::string>();
        record.pid = json.value("pid", 0LL);
        record.jobId = json.value("jobId", std::string());
        if (record.remoteRunDir.empty())
            throw std::invalid_argument("no run folder on the far side");
        return record;
    } catch (const std::exception& problem) {
        throw run::FileError(file.string(), std::string("not a remote run record: ") + problem.what());
    }
}

std::string RemoteRunRecord::handle() const
{
    if (target.kind == RemoteTarget::Kind::Slurm)
        return "SLURM job " + (jobId.empty() ? std::string("(not submitted)") : jobId) + " via " + target.destination();
    return "pid " + std::to_string(pid) + " on " + target.destination();
}

}  // namespace segstudio::remote
