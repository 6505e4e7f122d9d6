// Import + statistics over CamVid (468 images): images per second for each stage.
// Usage: bench_import_statistics [CAMVID_DIR] [REPEATS]

#include "data/formats/DatasetImporter.h"
#include "data/project/DatasetStatistics.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

using namespace segstudio;
namespace fs = std::filesystem;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv)
{
    const fs::path camvid = argc > 1 ? argv[1] : SEGSTUDIO_CAMVID_DIR;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
    if (!fs::exists(camvid / "train.txt")) {
        std::fprintf(stderr, "CamVid not found at %s\n", camvid.c_str());
        return 1;
    }
    const fs::path work = fs::temp_directory_path() / "segstudio-bench-import";
    double bestImport = 1e9, bestStats = 1e9;
    std::size_t images = 0;
    for (int r = 0; r < repeats; ++r) {
        fs::remove_all(work);
        auto start = std::chrono::steady_clock::now();
        const data::Project project = data::DatasetImporter::importSegNetLayout(camvid, work / "camvid.segstudio");
        bestImport = std::min(bestImport, secondsSince(start));
        start = std::chrono::steady_clock::now();
        const data::DatasetStatistics statistics = data::DatasetStatistics::ofProject(project);
        bestStats = std::min(bestStats, secondsSince(start));
        images = project.size();
        if (statistics.labelMapCount() != images)
            return 2;
    }
    fs::remove_all(work);
    std::printf("images: %zu (best of %d)\n", images, repeats);
    std::printf("import (decode image + annotation, check, write palette PNG): %.2f s, %.1f images/s\n", bestImport,
                double(images) / bestImport);
    std::printf("statistics (read label maps, histogram): %.2f s, %.1f images/s\n", bestStats, double(images) / bestStats);
    std::printf("import + statistics: %.1f images/s\n", double(images) / (bestImport + bestStats));
    return 0;
}
