#pragma once

#include "TrainConfig.h"
#include "pack/PackReader.h"

#include <memory>
#include <string>
#include <vector>

namespace segstudio::engine {
inline namespace training {

// The packs a run trains and validates on, opened and checked against its configuration before
// any training, and the class weights its loss takes from the training pack's header.
// Requirements: the pack files stay in place while it is alive (they are memory-mapped).
// Guarantees: the constructor refuses, with an EngineError naming the file and the problem, a
// damaged pack (header, size, checksum), a training pack without classes or records, a class
// count other than the configuration's (when it names one) or the validation pack's, images
// smaller than the crop, and fewer records than one batch on each of the world's ranks; the
// weights are config.classWeighting's (empty: unweighted) and never all zero.
class TrainingPacks {
public:
    TrainingPacks(const TrainConfig& config, int world);

    const pack::PackReader& train() const { return *m_train; }
    const pack::PackReader* validation() const { return m_validation.get(); }  // null: no validation
    int classes() const { return int(m_classNames.size()); }
    const std::vector<std::string>& classNames() const { return m_classNames; }  // in class-id order
    const std::vector<double>& classWeights() const { return m_classWeights; }

private:
    void open(const TrainConfig& config);
    void check(const TrainConfig& config, int world) const;
    void computeClassWeights(const TrainConfig& config);

    std::unique_ptr<pack::PackReader> m_train;
    std::unique_ptr<pack::PackReader> m_validation;
    std::vector<std::string> m_classNames;
    std::vector<double> m_classWeights;
};

}  // namespace training
}  // namespace segstudio::engine
