#include "Checkpoint.h"

#include "engine/runtime/EngineError.h"
#include "MemoryReadAdapter.h"
#include "pack/PackFormat.h"
#include "run/AtomicFile.h"

#include <caffe2/serialize/inline_container.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace segstudio::engine {
inline namespace models {

namespace {

constexpr const char* kChecksumKey = "checksum";
const std::string kAverageKey = "weight_average.";  // + index: one tensor per key
constexpr const char* kAverageCountKey = "weight_average_count";

// A tensor storage: "data/<n>" as the reader names it (without the "archive/" of the zip).
bool isStorage(const std::string& record)
{
    return record.rfind("data/", 0) == 0;
}

// FNV-1a over every tensor storage of a serialised checkpoint (in name order, each with its name)
// and the JSON state. LibTorch's reader does not check the zip's own CRC-32s, so without this a
// flipped byte inside a weight tensor loads as a valid model.
std::string storageChecksum(caffe2::serialize::PyTorchStreamReader& reader, const std::string& stateText)
{
    auto names = reader.getAllRecords();
    std::sort(names.begin(), names.end());
    std::uint64_t hash = pack::fnv1a64(stateText.data(), stateText.size());
    for (const auto& name : names) {
        if (!isStorage(name))
            continue;  // pickles, versions and ids: they change when the checksum itself is added
        hash = pack::fnv1a64(name.data(), name.size(), hash);
        const auto record = reader.getRecord(name);
        hash = pack::fnv1a64(std::get<0>(record).get(), std::get<1>(record), hash);
    }
    char text[32];
    std::snprintf(text, sizeof text, "fnv1a64:%016" PRIx64, hash);
    return text;
}

std::string serialise(torch::serialize::OutputArchive& archive, const std::string& path)
{
    // In memory: LibTorch's file writer reports a full disk by throwing from its destructor
    // (std::terminate), so the disk is only ever touched by writeFileAtomically.
    std::ostringstream bytes;
    try {
        archive.save_to(bytes);
    } catch (const c10::Error& error) {
        throw EngineError(path + ": cannot serialise the checkpoint (" + error.what_without_backtrace() + ")");
    }
    return std::move(bytes).str();
}

torch::serialize::InputArchive openArchive(const std::string& path, torch::Device device)
{
    if (!std::filesystem::exists(path))
        throw EngineError(path + ": checkpoint not found");
    torch::serialize::InputArchive archive;
    try {
        archive.load_from(path, device);
    } catch (const c10::Error& error) {
        throw EngineError(path + ": not a readable checkpoint (" + error.what_without_backtrace() + ")");
    }
    return archive;
}

std::string readStateText(torch::serialize::InputArchive& archive, const std::string& path)
{
    c10::IValue state;
    if (!archive.try_read("state", state) || !state.isString())
        throw EngineError(path + ": checkpoint has no training state");
    return state.toStringRef();
}

nlohmann::json readStateFrom(torch::serialize::InputArchive& archive, const std::string& path)
{
    try {
        return nlohmann::json::parse(readStateText(archive, path));
    } catch (const nlohmann::json::exception& error) {
        throw EngineError(path + ": checkpoint state is not valid JSON (" + error.what() + ")");
    }
}

void verifyChecksum(torch::serialize::InputArchive& archive, const std::string& path)
{
    c10::IValue stored;
    if (!archive.try_read(kChecksumKey, stored) || !stored.isString())
        return;  // written before checkpoints had one: loads as it always did
    std::string actual;
    try {
        caffe2::serialize::PyTorchStreamReader reader(path);
        actual = storageChecksum(reader, readStateText(archive, path));
    } catch (const c10::Error& error) {
        throw EngineError(path + ": not a readable checkpoint (" + error.what_without_backtrace() + ")");
    }
    if (actual != stored.toStringRef())
        throw EngineError(path + ": checkpoint is corrupt (its tensors do not match the checksum written with them); "
                                 "use another checkpoint or train again");
}

void readModel(torch::serialize::InputArchive& archive, SegmentationModelImpl& model)
{
    torch::serialize::InputArchive modelArchive;
    archive.read("model", modelArchive);
    model.load(modelArchive);
}

}  // namespace

void Checkpoint::save(const std::string& path, SegmentationModelImpl& model, const torch::optim::Optimizer* optimizer,
                      const nlohmann::json& state, const std::vector<torch::Tensor>* average,
                      const torch::Tensor* cpuRngState)
{
    torch::serialize::OutputArchive archive;
    torch::serialize::OutputArchive modelArchive;
    model.save(modelArchive);
    archive.write("model", modelArchive);
    if (optimizer) {
        torch::serialize::OutputArchive optimizerArchive;
        optimizer->save(optimizerArchive);
        archive.write("optimizer", optimizerArchive);
    }
    if (average) {  // flat keys: the same archive calls in LibTorch 1.13 and 2.x
        archive.write(kAverageCountKey, c10::IValue(std::int64_t(average->size())));
        for (std::size_t i = 0; i < average->size(); ++i)
            archive.write(kAverageKey + std::to_string(i), (*average)[i], /*is_buffer=*/true);
    }
    const std::string stateText = state.dump();
    archive.write("state", c10::IValue(stateText));
    archive.write("rng_cpu", cpuRngState ? *cpuRngState : at::detail::getDefaultCPUGenerator().get_state());
    // The checksum is taken over the storages as serialised, then written as one more string:
    // a string adds no storage, so the second serialisation holds the same storages.
    std::string checksum;
    {
        const std::string bytes = serialise(archive, path);
        caffe2::serialize::PyTorchStreamReader reader(std::make_shared<MemoryReadAdapter>(bytes));
        checksum = storageChecksum(reader, stateText);
    }
    archive.write(kChecksumKey, c10::IValue(checksum));
    run::writeFileAtomically(path, serialise(archive, path));
}

nlohmann::json Checkpoint::readState(const std::string& path)
{
    auto archive = openArchive(path, torch::kCPU);
    return readStateFrom(archive, path);
}

nlohmann::json Checkpoint::load(const std::string& path, SegmentationModelImpl& model,
                                torch::optim::Optimizer* optimizer, torch::Device device, std::vector<torch::Tensor>* average)
{
    auto archive = openArchive(path, device);
    verifyChecksum(archive, path);
    try {
        readModel(archive, model);
        if (optimizer) {
            torch::serialize::InputArchive optimizerArchive;
            archive.read("optimizer", optimizerArchive);
            optimizer->load(optimizerArchive);
        }
        c10::IValue count;
        if (average && archive.try_read(kAverageCountKey, count)) {
            average->resize(std::size_t(count.toInt()));
            for (std::size_t i = 0; i < average->size(); ++i)
                archive.read(kAverageKey + std::to_string(i), (*average)[i], /*is_buffer=*/true);
        }
        torch::Tensor rng;
        if (archive.try_read("rng_cpu", rng))
        {
            at::Generator generator = at::detail::getDefaultCPUGenerator();  // a handle to the global one
            generator.set_state(rng.to(torch::kCPU));
        }
    } catch (const c10::Error& error) {
        throw EngineError(path + ": checkpoint does not match the model (" + error.what_without_backtrace() + ")");
    }
    return readStateFrom(archive, path);
}

nlohmann::json Checkpoint::loadWeights(const std::string& path, SegmentationModelImpl& model, torch::Device device)
{
    auto archive = openArchive(path, device);
    verifyChecksum(archive, path);
    try {
        readModel(archive, model);
    } catch (const c10::Error& error) {
        throw EngineError(path + ": checkpoint does not match the model (" + error.what_without_backtrace() + ")");
    }
    return readStateFrom(archive, path);
}

}  // namespace models
}  // namespace segstudio::engine
