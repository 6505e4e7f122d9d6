#include "Commands.h"
#include "ProgressPrinter.h"

#include "data/ClassSchema.h"
#include "data/DataError.h"
#include "data/DatasetImporter.h"

#include <filesystem>
#include <iostream>
#include <memory>

namespace segstudio::cli {

namespace {

struct ImportArguments {
    std::string layout;
    std::string images;  // the dataset folder for segnet
    std::string labels;  // index PNGs or colour masks
    std::string project;
    std::string schema = "camvid";
    int voidValue = -1;  // -1: the layout's usual value (11 for SegNet/CamVid, 255 for index PNGs)
};

data::ClassSchema schemaFrom(const std::string& name)
{
    if (name == "camvid")
        return data::ClassSchema::camVid();
    return data::ClassSchema::loadFile(name);  // DataError names the file
}

data::Project runImport(const ImportArguments& a)
{
    const auto schema = schemaFrom(a.schema);
    auto needLabels = [&] {
        if (a.labels.empty())
            throw data::DataError({}, "import " + a.layout + " needs --labels FOLDER");
    };
    if (a.layout == "segnet")
        return data::DatasetImporter::importSegNetLayout(a.images, a.project, schema, a.voidValue < 0 ? 11 : a.voidValue,
                                                         progressPrinter("importing"));
    if (a.layout == "index-png") {
        needLabels();
        return data::DatasetImporter::importIndexPngs(a.images, a.labels, a.project, schema,
                                                      a.voidValue < 0 ? 255 : a.voidValue, progressPrinter("importing"));
    }
    if (a.layout == "color-masks") {
        needLabels();
        return data::DatasetImporter::importColorMasks(a.images, a.labels, a.project, schema, {{0, 0, 0}}, progressPrinter("importing"));
    }
    if (a.layout == "images")
        return data::DatasetImporter::importImageFolder(a.images, a.project, schema, progressPrinter("importing"));
    throw data::DataError({}, "unknown layout '" + a.layout + "' (use segnet, index-png, color-masks or images)");
}

}  // namespace

void addImportCommand(CLI::App& app, int& exitCode)
{
    auto a = std::make_shared<ImportArguments>();
    auto* command = app.add_subcommand("import", "make a project from a dataset on disk (images stay where they are)");
    command->add_option("layout", a->layout, "segnet | index-png | color-masks | images")->required();
    command->add_option("folder", a->images,
                        "segnet: the dataset folder (train/, trainannot/, ... or train.txt); others: the image folder")
        ->required()
        ->check(CLI::ExistingDirectory);
    command->add_option("--labels", a->labels, "index-png / color-masks: the folder of label images (same stems)")
        ->check(CLI::ExistingDirectory);
    command->add_option("--project,-o", a->project, "project file to create (*.segstudio; must not exist)")->required();
    command->add_option("--schema", a->schema, "class schema: camvid, or a preset JSON file")->capture_default_str();
    command->add_option("--void", a->voidValue, "label value that means unlabelled (default: 11 for segnet, 255 otherwise)");
    command->footer("Examples:\n"
                    "  segstudio-train import segnet ~/data/camvid -o camvid.segstudio\n"
                    "  segstudio-train import index-png voc/JPEGImages --labels voc/SegmentationClass --schema voc.json -o voc.segstudio");
    command->callback([a, &exitCode] {
        if (std::filesystem::exists(a->project))
            throw data::DataError(a->project, "exists already; import never overwrites a project (choose another file)");
        const auto project = runImport(*a);
        std::cout << "imported " << project.size() << " images into " << a->project << " (label maps in "
                  << project.labelRoot().string() << ")" << std::endl;
        exitCode = kExitOk;
    });
}

}  // namespace segstudio::cli
