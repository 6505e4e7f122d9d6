// The data side without a display: export, stats, split and info over core/data, so a project
// can be prepared on a training server as in the GUI.
#include "Commands.h"
#include "FiniteNumber.h"
#include "ProgressPrinter.h"

#include "data/labels/DataError.h"
#include "data/formats/ExportFormat.h"
#include "data/project/DatasetSplitter.h"
#include "data/project/DatasetStatistics.h"
#include "data/project/Project.h"
#include "data/project/ProjectLock.h"
#include "pack/PackReader.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

namespace segstudio::cli {

namespace {

// A project the command will save: refused while a SegStudio window edits it (its lock is live),
// since that window would later overwrite this change. The lock is held until the save is done.
struct EditableProject {
    explicit EditableProject(const std::string& file) : lock(file), project(data::Project::load(file))
    {
        const data::ProjectLock::Result locked = lock.acquire();
        if (locked == data::ProjectLock::Result::NotWritable)
            throw data::DataError(file, "cannot be changed: its folder is not writable (" + lock.failure() + ")");
        if (locked != data::ProjectLock::Result::HeldByOther)
            return;
        const auto owner = lock.owner();
        throw data::DataError(file, "is open in SegStudio (pid " + std::to_string(owner ? owner->pid : 0) + " on " +
                                        (owner ? owner->host : std::string("?")) + "); close it there first");
    }

    data::ProjectLock lock;
    data::Project project;
};

void addExport(CLI::App& app, int& exitCode)
{
    struct Args {
        std::string project, out, format = "index-png";
        data::ExportOptions options;
    };
    auto a = std::make_shared<Args>();
    auto* command = app.add_subcommand("export", "write a project's label maps for other tools (index PNGs, colour masks, COCO, Cityscapes, labelme, CVAT)");
    command->add_option("project,--project,-P", a->project, "project file")->required()->check(CLI::ExistingFile);
    command->add_option("--out,-o", a->out, "folder to write into")->required();
    command->add_option("--format", a->format, "index-png | color-masks | coco | cityscapes | labelme | cvat")->capture_default_str();
    command->add_option("--tolerance", a->options.labelmeTolerance, "labelme: how far (pixels) a simplified polygon may leave the region's edge")
        ->capture_default_str()
        ->check(FiniteNumber(0.0, 5.0));
    command->add_option("--background", a->options.cocoBackground,
                        "coco: a class left out of the categories and annotations, the ground between the objects "
                        "(read back with import coco --background)");
    command->footer("Examples:\n  segstudio-train export -P camvid.segstudio -o camvid-export --format color-masks\n"
                    "  segstudio-train export camvid.segstudio -o camvid-coco --format coco\n"
                    "  (read back: segstudio-train import coco camvid-coco/annotations.json --images <project folder> -o again.segstudio)");
    command->callback([a, &exitCode] {
        const auto project = data::Project::load(a->project);
        const auto format = data::exportFormatNamed(a->format);
        if (!format)
            throw data::DataError({}, "unknown format '" + a->format + "' (use index-png, color-masks, coco, cityscapes, labelme or cvat)");
        const std::size_t count = data::exportLabels(*format, project, a->out, progressPrinter("exporting"), a->options);
        std::cout << "exported " << count << " label maps and the class list into " << a->out << std::endl;
        exitCode = kExitOk;
    });
}

void addStats(CLI::App& app, int& exitCode)
{
    struct Args {
        std::string project, split = "train";
        bool json = false;
    };
    auto a = std::make_shared<Args>();
    auto* command = app.add_subcommand("stats", "class pixel counts and class-balancing weights of a split");
    command->add_option("project,--project,-P", a->project, "project file")->required()->check(CLI::ExistingFile);
    command->add_option("--split,-s", a->split, "train | val | test | all")->capture_default_str();
    command->add_flag("--json", a->json, "one JSON object on stdout");
    command->footer("Example:\n  segstudio-train stats -P camvid.segstudio -s train");
    command->callback([a, &exitCode] {
        const auto project = data::Project::load(a->project);
        std::vector<std::size_t> indices;
        if (a->split != "all") {
            const auto split = data::splitFromString(a->split);
            if (!split)
                throw data::DataError({}, "unknown split '" + a->split + "' (use train, val, test or all)");
            indices = project.indicesOf(*split);
            if (indices.empty())
                throw data::DataError(a->project, "has no " + a->split + " images");
        }
        const auto stats = data::DatasetStatistics::ofProject(project, indices, progressPrinter("reading"));
        const int maxId = project.schema().maxId();
        const auto median = stats.medianFrequencyWeights(maxId);
        const auto inverse = stats.inverseFrequencyWeights(maxId);
        nlohmann::json classes = nlohmann::json::array();
        std::uint64_t labelled = 0;
        for (const auto& c : project.schema().classes())
            labelled += stats.classPixels(c.id);
        for (const auto& c : project.schema().classes())
            classes.push_back({{"id", c.id}, {"name", c.name}, {"pixels", stats.classPixels(c.id)},
                               {"share", labelled ? double(stats.classPixels(c.id)) / double(labelled) : 0.0},
                               {"images", stats.imagesContaining(c.id)}, {"median_frequency_weight", median.at(c.id)},
                               {"inverse_frequency_weight", inverse.at(c.id)}});
        if (a->json) {
            std::cout << nlohmann::json{{"split", a->split}, {"label_maps", stats.labelMapCount()},
                                        {"unlabelled_pixels", stats.unlabelledPixels()}, {"classes", classes}}
                             .dump(2)
                      << std::endl;
        } else {
            std::printf("%zu label maps (%s); unlabelled pixels: %llu\n", std::size_t(stats.labelMapCount()), a->split.c_str(),
                        static_cast<unsigned long long>(stats.unlabelledPixels()));
            std::printf("%4s  %-16s %14s %8s %7s %10s %10s\n", "id", "class", "pixels", "share", "images", "median-w",
                        "inverse-w");
            for (const auto& c : classes)
                std::printf("%4d  %-16s %14llu %7.2f%% %7llu %10.4f %10.4f\n", c["id"].get<int>(),
                            c["name"].get<std::string>().c_str(), static_cast<unsigned long long>(c["pixels"].get<std::uint64_t>()),
                            100.0 * c["share"].get<double>(), static_cast<unsigned long long>(c["images"].get<std::uint64_t>()),
                            c["median_frequency_weight"].get<double>(), c["inverse_frequency_weight"].get<double>());
        }
        exitCode = kExitOk;
    });
}

std::vector<std::string> readList(const std::string& file)
{
    std::ifstream in(file);
    if (!in)
        throw data::DataError(file, "cannot open the image list");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.pop_back();
        if (!line.empty() && line[0] != '#')
            lines.push_back(line.substr(0, line.find(' ')));  // SegNet's pair lists: image first
    }
    return lines;
}

void assignFromLists(data::Project& project, const std::map<data::Split, std::string>& lists)
{
    for (std::size_t i = 0; i < project.size(); ++i)
        project.setSplit(i, data::Split::Unassigned);
    for (const auto& [split, file] : lists) {
        for (const auto& image : readList(file)) {
            auto index = project.indexOf(image);
            if (!index)  // a path as listed elsewhere: match the file name
                for (std::size_t i = 0; i < project.size() && !index; ++i)
                    if (project.imagePath(i).filename() == std::filesystem::path(image).filename())
                        index = i;
            if (!index)
                throw data::DataError(file, "lists '" + image + "', which is not an image of the project");
            project.setSplit(*index, split);
        }
    }
}

void addSplit(CLI::App& app, int& exitCode)
{
    struct Args {
        std::string project, trainList, valList, testList;
        double train = 0.6, val = 0.2, test = 0.2;
        std::uint64_t seed = 0;
    };
    auto a = std::make_shared<Args>();
    auto* command = app.add_subcommand("split", "assign train/val/test: seeded random fractions, or from image lists");
    command->add_option("project,--project,-P", a->project, "project file (saved in place)")->required()->check(CLI::ExistingFile);
    // Fractions, so finite and in [0, 1]: CLI11 reads "inf" and "nan" as numbers, and an infinite
    // share made the splitter divide infinity by infinity.
    command->add_option("--train", a->train, "fraction for training")
        ->capture_default_str()
        ->check(FiniteNumber(0.0, 1.0));
    command->add_option("--val", a->val, "fraction for validation")
        ->capture_default_str()
        ->check(FiniteNumber(0.0, 1.0));
    command->add_option("--test", a->test, "fraction for testing")
        ->capture_default_str()
        ->check(FiniteNumber(0.0, 1.0));
    command->add_option("--seed", a->seed, "random seed (the same seed gives the same split)")->capture_default_str();
    command->add_option("--train-list", a->trainList, "file listing the training images, one a line")->check(CLI::ExistingFile);
    command->add_option("--val-list", a->valList, "file listing the validation images")->check(CLI::ExistingFile);
    command->add_option("--test-list", a->testList, "file listing the test images")->check(CLI::ExistingFile);
    command->footer("Examples:\n  segstudio-train split -P my.segstudio --train 0.7 --val 0.15 --test 0.15 --seed 3\n"
                    "  segstudio-train split -P camvid.segstudio --train-list train.txt --val-list val.txt");
    command->callback([a, &exitCode] {
        EditableProject editable(a->project);
        std::map<data::Split, std::string> lists;
        if (!a->trainList.empty())
            lists[data::Split::Train] = a->trainList;
        if (!a->valList.empty())
            lists[data::Split::Val] = a->valList;
        if (!a->testList.empty())
            lists[data::Split::Test] = a->testList;
        if (!lists.empty()) {
            assignFromLists(editable.project, lists);
        } else {
            if (a->train < 0 || a->val < 0 || a->test < 0 || !(a->train + a->val + a->test > 0))
                throw data::DataError({}, "split fractions must be >= 0 and not all 0");
            data::DatasetSplitter::apply(editable.project, {a->train, a->val, a->test}, a->seed);
        }
        editable.project.save();
        std::cout << "split " << a->project << ": " << editable.project.indicesOf(data::Split::Train).size() << " train, "
                  << editable.project.indicesOf(data::Split::Val).size() << " val, "
                  << editable.project.indicesOf(data::Split::Test).size() << " test, "
                  << editable.project.indicesOf(data::Split::Unassigned).size() << " unassigned" << std::endl;
        exitCode = kExitOk;
    });
}

bool startsLikeAPack(const std::string& file)
{
    std::ifstream in(file, std::ios::binary);
    char magic[sizeof(pack::kPackMagic)] = {};
    return in.read(magic, sizeof(magic)) && std::equal(magic, magic + sizeof(magic), pack::kPackMagic);
}

// `info` on a .pack said "not a valid project file (truncated or not JSON)" (issue 65.4): what it
// holds instead, its checksum verified.
void describePack(const std::string& file, bool json)
{
    const pack::PackReader pack(file);  // PackError naming the file when it is damaged
    nlohmann::json classes = nlohmann::json::array();
    for (std::size_t id = 0; id < pack.spec().classes.size(); ++id)
        classes.push_back({{"id", id}, {"name", pack.spec().classes[id].name}, {"pixels", pack.spec().classes[id].pixelCount}});
    if (json) {
        std::cout << nlohmann::json{{"pack", file}, {"images", pack.size()}, {"height", pack.spec().height},
                                    {"width", pack.spec().width}, {"channels", pack.spec().channels}, {"classes", classes},
                                    {"checksum", "verified"}}
                         .dump(2)
                  << std::endl;
        return;
    }
    std::cout << file << ": a training pack, " << pack.size() << " images of " << pack.spec().height << "x" << pack.spec().width
              << " (" << pack.spec().channels << " channels), " << pack.spec().classes.size() << " classes, checksum verified\n"
              << "  classes (labelled pixels):";
    for (const auto& c : classes)
        std::cout << " " << c["id"].get<int>() << "=" << c["name"].get<std::string>() << " (" << c["pixels"].get<std::uint64_t>() << ")";
    std::cout << std::endl;
}

void addInfo(CLI::App& app, int& exitCode)
{
    struct Args {
        std::string project;
        bool json = false;
    };
    auto a = std::make_shared<Args>();
    auto* command = app.add_subcommand("info", "a project's images, splits, label status and classes (or what a pack holds)");
    command->add_option("project,--project,-P", a->project, "project file, or a .pack")->required()->check(CLI::ExistingFile);
    command->add_flag("--json", a->json, "one JSON object on stdout");
    command->footer("Example:\n  segstudio-train info camvid.segstudio");
    command->callback([a, &exitCode] {
        if (startsLikeAPack(a->project)) {
            describePack(a->project, a->json);
            exitCode = kExitOk;
            return;
        }
        const auto project = data::Project::load(a->project);
        std::map<std::string, std::map<std::string, int>> counts;  // split -> status -> images
        for (const auto& entry : project.entries())
            ++counts[data::toString(entry.split)][data::toString(entry.status)];
        nlohmann::json classes = nlohmann::json::array();
        for (const auto& c : project.schema().classes())
            classes.push_back({{"id", c.id}, {"name", c.name}});
        if (a->json) {
            std::cout << nlohmann::json{{"project", a->project}, {"images", project.size()}, {"splits", counts},
                                        {"classes", classes}}
                             .dump(2)
                      << std::endl;
        } else {
            std::cout << a->project << ": " << project.size() << " images, " << project.schema().size() << " classes\n";
            for (const auto& [split, statuses] : counts) {
                std::cout << "  " << split << ":";
                for (const auto& [status, n] : statuses)
                    std::cout << " " << n << " " << status;
                std::cout << '\n';
            }
            std::cout << "  classes:";
            for (const auto& c : project.schema().classes())
                std::cout << " " << c.id << "=" << c.name;
            std::cout << std::endl;
        }
        exitCode = kExitOk;
    });
}

}  // namespace

void addDataCommands(CLI::App& app, int& exitCode)
{
    addExport(app, exitCode);
    addStats(app, exitCode);
    addSplit(app, exitCode);
    addInfo(app, exitCode);
}

}  // namespace segstudio::cli
