#include "AtomicWrite.h"

#include "EngineError.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace segstudio::engine {

void writeFileAtomically(const std::string& path, const std::string& content)
{
    const std::string temp = path + ".tmp";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw EngineError(path + ": cannot write (" + std::strerror(errno) + ")");
        out << content;
        out.flush();
        if (!out)
            throw EngineError(path + ": write failed (disk full?)");
    }
    replaceFile(temp, path);
}

void replaceFile(const std::string& tempPath, const std::string& path)
{
    std::error_code error;
    std::filesystem::rename(tempPath, path, error);
    if (error) {
        const std::string reason = error.message();
        std::filesystem::remove(tempPath, error);
        throw EngineError(path + ": cannot replace the file (" + reason + ")");
    }
}

}  // namespace segstudio::engine
