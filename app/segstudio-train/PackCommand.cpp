#include "Commands.h"
#include "ImageSide.h"
#include "PackCommand.h"
#include "ProgressPrinter.h"
#include "WholeNumber.h"

#include "data/labels/DataError.h"
#include "data/project/DatasetPacker.h"
#include "data/project/DefaultPackSize.h"
#include "data/project/ProjectLock.h"
#include "data/project/Project.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>

namespace segstudio::cli {

namespace {

struct PackArguments {
    std::string project;
    std::string split = "train";
    std::string out;
    int height = 0;  // 0: the images' own size (DefaultPackSize), as the Train dialog packs
    int width = 0;
    bool all = false;
};

// The size the user gave; where a side is left out, the images' own (their most common size with
// its long side at most 480, as the Train dialog packs), the other side following its aspect. A
// square microscopy set was packed at CamVid's 360x480 before, and distorted.
cv::Size packSize(const data::Project& project, int height, int width)
{
    if (height > 0 && width > 0)
        return {width, height};
    const cv::Size own = height > 0 || width > 0 ? data::mostCommonImageSize(project) : data::defaultPackSize(project);
    if (own.empty())
        throw data::DataError(project.file().string(), "no image could be read to choose the pack's size: give --height and --width");
    const auto even = [](double side) { return std::max(2, int(std::lround(side / 2.0)) * 2); };
    if (height > 0)
        return {even(double(own.width) * height / own.height), height};
    if (width > 0)
        return {width, even(double(own.height) * width / own.width)};
    std::cout << "packing at " << own.height << "x" << own.width << ": the images' own size"
              << (own == data::mostCommonImageSize(project) ? "" : ", long side at most 480") << std::endl;
    return own;
}

}  // namespace

std::size_t packSplit(const data::Project& project, data::Split split, const std::filesystem::path& out, int height,
                      int width, bool labelledOnly)
{
    data::PackOptions options;
    options.height = height;
    options.width = width;
    options.labelledOnly = labelledOnly;
    const bool terminal = ::isatty(STDOUT_FILENO) == 1;
    const auto progress = progressPrinter("packing", std::cout, terminal);
    // On a terminal the summary below overwrites the last progress; in a log (and for the GUI,
    // which reads "packing N/N" as the end of a split) the last progress line is written too.
    const std::size_t count = data::DatasetPacker::pack(project, split, out, options, [&](std::size_t done, std::size_t total) {
        if (done < total || !terminal)
            progress(done, total);
    });
    std::cout << (terminal ? "\r" : "") << "packed " << count << " " << data::toString(split) << " images (" << height << "x" << width
              << ") into " << out.string() << std::endl;
    return count;
}

void addPackCommand(CLI::App& app, int& exitCode)
{
    auto args = std::make_shared<PackArguments>();
    auto* command = app.add_subcommand("pack", "turn a project's split into a training pack (fixed-size, memory-mappable)");
    command->add_option("project,--project,-P", args->project, "project file (*.segstudio)")->required()->check(CLI::ExistingFile);
    command->add_option("--split,-s", args->split, "train | val | test")->capture_default_str();
    command->add_option("--out,-o", args->out, "pack file to write")->required();
    command->add_option("--height", args->height,
                        "pack image height (images are resized; default: the images' own size, their long side at most 480, "
                        "as the Train dialog packs)")
        ->check(WholeNumber(1, kMaxImageSide));
    command->add_option("--width", args->width, "pack image width (default: as --height says)")
        ->check(WholeNumber(1, kMaxImageSide));
    command->add_flag("--all", args->all, "include images not marked labelled (their unlabelled pixels are ignored)");
    command->footer("Example:\n  segstudio-train pack -P camvid.segstudio -s train -o camvid-train.pack");
    command->callback([args, &exitCode] {
        const auto split = data::splitFromString(args->split);
        if (!split)
            throw data::DataError({}, "unknown split '" + args->split + "' (use train, val or test)");
        // The output is claimed for the whole command, before the project is read (issue 65.4):
        // a second pack to it that starts while this one runs is refused, naming this one, even
        // when this one has already renamed its partial file into place.
        data::ProjectLock claim(args->out);
        if (claim.acquire() == data::ProjectLock::Result::HeldByOther)
            throw data::DataError(args->out, "another pack is writing it (" + claim.holderText() + "); wait for it to finish");
        const auto project = data::Project::load(args->project);
        const cv::Size size = packSize(project, args->height, args->width);
        packSplit(project, *split, args->out, size.height, size.width, !args->all);
        exitCode = kExitOk;
    });
}

}  // namespace segstudio::cli
