#pragma once

#include "data/labels/ClassSchema.h"

#include <filesystem>
#include <opencv2/core.hpp>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::data {
inline namespace project { class Project; }

inline namespace project {
// The predictions of one checkpoint, kept on disk so that showing them again costs a PNG read:
// <run>/predictions/<checkpoint name>/ holds, per image (named by keyOf), <key>.png (class ids, palette),
// <key>_confidence.png (highest softmax probability x 255) and <key>_entropy.png (normalised
// entropy x 255), <key>_scores.png (every class's score at the model's size, the class channels side by
// side in one grey image), as `segstudio-train predict --confidence` writes them, and stamp.json naming the
// checkpoint's size and modification time. Training on (a rewritten best.pt) makes the folder
// stale: prepare() empties it, so a prediction of an older model is never shown as this one's.
// The stamp also names how the model was adapted to the images, if it was (`predict --adapt-norm`):
// a writer that predicts another way empties the folder too, so it holds one way's predictions;
// readers take whichever the writers last prepared (isCurrent() looks at the checkpoint only).
// An adapting writer may keep the adaptation there too (adaptation.pt, `predict --keep-adaptation`).
// Requirements: I/O on the calling thread; call it off the GUI thread.
class PredictionCache {
public:
    struct Entry {
        cv::Mat classes;     // CV_8UC1 class ids
        cv::Mat confidence;  // CV_8UC1, 0..255
        cv::Mat entropy;     // CV_8UC1, 0..255
        // Every class's score at the model's working size (engine::Predictor::Prediction::scores):
        // CV_8UC(classes), -ln(probability) x 16 per channel; empty in caches written before it.
        cv::Mat scores;
    };

    // adaptation: how the writer's predictions adapt the model (empty: as trained); only prepare() reads it.
    PredictionCache(const std::filesystem::path& runDir, std::filesystem::path checkpoint, std::string adaptation = {});

    const std::filesystem::path& folder() const { return m_folder; }
    const std::filesystem::path& checkpoint() const { return m_checkpoint; }
    // Creates the folder, emptying it first when its stamp names another state of the checkpoint
    // or another adaptation. Throws DataError naming the checkpoint when it is missing.
    void prepare() const;
    bool isCurrent() const;  // the stamp matches the checkpoint as it is now (whatever the adaptation)
    std::string adaptationInUse() const;  // the stamp's adaptation (empty: as trained, or no stamp)

    // The name of an image's files in the cache: its label map's stem, unique in the project even
    // when two images share a file name in different folders.
    static std::string keyOf(const Project& project, std::size_t index);

    std::filesystem::path classesFile(const std::string& stem) const { return classesFileIn(m_folder, stem); }
    std::filesystem::path confidenceFile(const std::string& stem) const { return confidenceFileIn(m_folder, stem); }
    std::filesystem::path entropyFile(const std::string& stem) const { return entropyFileIn(m_folder, stem); }
    static std::filesystem::path classesFileIn(const std::filesystem::path& folder, const std::string& stem);
    static std::filesystem::path confidenceFileIn(const std::filesystem::path& folder, const std::string& stem);
    static std::filesystem::path entropyFileIn(const std::filesystem::path& folder, const std::string& stem);
    static std::filesystem::path scoresFileIn(const std::filesystem::path& folder, const std::string& stem);
    // Writes one image's maps into folder under these names (`predict --confidence` and
    // `evaluate --predictions` fill caches this way): scores, confidence and entropy first, so the class
    // map's arrival marks a complete entry. Deferred durability: a cache is cheap to redo.
    // The names writeEntry() gives one image's files, relative to its folder.
    static std::vector<std::string> entryFileNames(const std::string& stem);
    static void writeEntry(const std::filesystem::path& folder, const std::string& stem, const Entry& entry,
                           const ClassSchema& schema);
    bool contains(const std::string& stem) const;
    // nullopt when the image was not predicted (or the cache is stale); DataError naming the
    // file when a cached file is corrupt or not of the image's size.
    std::optional<Entry> load(const std::string& stem, const ClassSchema& schema, cv::Size imageSize) const;
    // The same from any folder `predict --confidence` filled (no stamp involved).
    static Entry readEntry(const std::filesystem::path& folder, const std::string& stem, const ClassSchema& schema,
                           cv::Size imageSize);

private:
    std::string stamp() const;  // the checkpoint's size and time, and the adaptation; empty: no checkpoint
    static cv::Mat readScores(const std::filesystem::path& folder, const std::string& stem, int classes);

    std::filesystem::path m_checkpoint;
    std::filesystem::path m_folder;
    std::string m_adaptation;
};

}  // namespace project
}  // namespace segstudio::data
