#pragma once

#include "ModelCatalog.h"
#include "SegmentationModel.h"

#include <functional>
#include <map>
#include <memory>

namespace segstudio::engine {

using ModelFactory = std::function<std::shared_ptr<SegmentationModelImpl>(int classes)>;

// Models by name, so the trainer, the CLI and checkpoints refer to a model by a string and new
// architectures are added with one add() call. The built-in SegNet variants are registered on
// first use.
// Requirements: add() before training starts (not thread-safe against concurrent create()).
class ModelRegistry {
public:
    static ModelRegistry& instance();

    void add(const std::string& name, const std::string& description, ModelFactory factory);
    // Throws EngineError listing the known names for an unknown one.
    std::shared_ptr<SegmentationModelImpl> create(const std::string& name, int classes) const;
    bool contains(const std::string& name) const { return m_entries.count(name) > 0; }
    std::vector<ModelInfo> models() const;

private:
    ModelRegistry();

    struct Entry {
        std::string description;
        ModelFactory factory;
    };
    std::map<std::string, Entry> m_entries;
};

}  // namespace segstudio::engine
