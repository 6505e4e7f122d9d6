#pragma once

#include "ModelCatalog.h"
#include "SegmentationModel.h"

#include <functional>
#include <map>
#include <memory>

namespace segstudio::engine {
inline namespace models {

using ModelFactory = std::function<std::shared_ptr<SegmentationModelImpl>(int classes)>;

// Models by name, so the trainer, the CLI and checkpoints refer to a model by a string and new
// architectures are added with one add() call. The built-in SegNet variants are registered on
// first use.
// Requirements: add() before training starts (not thread-safe against concurrent create()).
class ModelRegistry {
public:
    static ModelRegistry& instance();

    // bf16OnCpu: the model trains under bf16 autocast on a CPU (every op it uses has a bf16 CPU
    // kernel with a backward in LibTorch 1.13; MobileNetV2's ReLU6 has none), so --amp auto may pick it.
    void add(const std::string& name, const std::string& description, ModelFactory factory, bool bf16OnCpu = false);
    // Throws EngineError listing the known names for an unknown one.
    std::shared_ptr<SegmentationModelImpl> create(const std::string& name, int classes) const;
    bool contains(const std::string& name) const { return m_entries.count(name) > 0; }
    bool trainsInBf16OnCpu(const std::string& name) const;
    std::vector<ModelInfo> models() const;

private:
    ModelRegistry();

    struct Entry {
        std::string description;
        ModelFactory factory;
        bool bf16OnCpu = false;
    };
    std::map<std::string, Entry> m_entries;
};

}  // namespace models
}  // namespace segstudio::engine
