#pragma once

#include <caffe2/serialize/read_adapter_interface.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace segstudio::engine {
inline namespace models {

// Lets caffe2's PyTorchStreamReader read a checkpoint serialised in memory without copying it
// (an istringstream would copy a checkpoint of hundreds of megabytes once more).
// Requirements: bytes outlives the adapter and every reader using it.
class MemoryReadAdapter : public caffe2::serialize::ReadAdapterInterface {
public:
    explicit MemoryReadAdapter(const std::string& bytes) : m_bytes(bytes) {}

    size_t size() const override { return m_bytes.size(); }

    size_t read(uint64_t pos, void* buf, size_t n, const char* /*what*/ = "") const override
    {
        if (pos >= m_bytes.size())
            return 0;
        const size_t count = std::min<size_t>(n, m_bytes.size() - size_t(pos));
        std::memcpy(buf, m_bytes.data() + pos, count);
        return count;
    }

private:
    const std::string& m_bytes;
};

}  // namespace models
}  // namespace segstudio::engine
