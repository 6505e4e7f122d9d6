#include "Checkpoint.h"

#include "run/AtomicFile.h"
#include "EngineError.h"

#include <filesystem>
#include <sstream>

namespace segstudio::engine {

namespace {

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

nlohmann::json readStateFrom(torch::serialize::InputArchive& archive, const std::string& path)
{
    c10::IValue state;
    if (!archive.try_read("state", state) || !state.isString())
        throw EngineError(path + ": checkpoint has no training state");
    try {
        return nlohmann::json::parse(state.toStringRef());
    } catch (const nlohmann::json::exception& error) {
        throw EngineError(path + ": checkpoint state is not valid JSON (" + error.what() + ")");
    }
}

}  // namespace

void Checkpoint::save(const std::string& path, SegmentationModelImpl& model, const torch::optim::Optimizer* optimizer,
                      const nlohmann::json& state)
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
    archive.write("state", c10::IValue(state.dump()));
    archive.write("rng_cpu", at::detail::getDefaultCPUGenerator().get_state());
    // Serialised in memory first: LibTorch's file writer reports a full disk by throwing from its
    // destructor (std::terminate), so the disk is only ever touched by writeFileAtomically.
    std::ostringstream bytes;
    try {
        archive.save_to(bytes);
    } catch (const c10::Error& error) {
        throw EngineError(path + ": cannot serialise the checkpoint (" + error.what_without_backtrace() + ")");
    }
    run::writeFileAtomically(path, bytes.str());
}

nlohmann::json Checkpoint::readState(const std::string& path)
{
    auto archive = openArchive(path, torch::kCPU);
    return readStateFrom(archive, path);
}

nlohmann::json Checkpoint::load(const std::string& path, SegmentationModelImpl& model,
                                torch::optim::Optimizer* optimizer, torch::Device device)
{
    auto archive = openArchive(path, device);
    try {
        torch::serialize::InputArchive modelArchive;
        archive.read("model", modelArchive);
        model.load(modelArchive);
        if (optimizer) {
            torch::serialize::InputArchive optimizerArchive;
            archive.read("optimizer", optimizerArchive);
            optimizer->load(optimizerArchive);
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

}  // namespace segstudio::engine
