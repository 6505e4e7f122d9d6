#include "Commands.h"
#include "ProgressPrinter.h"

#include "data/labels/ClassSchema.h"
#include "data/labels/DataError.h"
#include "data/formats/CocoImporter.h"
#include "data/formats/DatasetImporter.h"
#include "data/formats/LabelmeImporter.h"
#include "data/formats/RasterFormatImporter.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

namespace segstudio::cli {

namespace {

struct ImportArguments {
    std::string layout;
    std::string images;  // the dataset folder (segnet, cityscapes, ...), the image folder, or COCO's JSON
    std::string labels;  // index PNGs or colour masks; labelme: labels.txt
    std::string cocoImages;
    std::string panopticMasks;
    std::string background;
    std::string split = "unassigned";
    std::string project;
    std::string schema = "camvid";
    std::string values;  // index-png: VALUE=CLASS,... for masks that store other numbers than class ids
    int voidValue = -1;  // -1: the layout's usual value (11 for SegNet/CamVid, 255 for index PNGs)
};

data::Split splitOf(const std::string& name)
{
    const auto split = data::splitFromString(name);
    if (!split)
        throw data::DataError({}, "--split must be train, val, test or unassigned, not '" + name + "'");
    return *split;
}

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
    if (a.layout == "index-png" && !a.values.empty()) {
        needLabels();
        return data::DatasetImporter::importValueMappedPngs(a.images, a.labels, a.project, data::ValueMap::parse(a.values),
                                                            progressPrinter("importing"));
    }
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
    throw data::DataError({}, "unknown layout '" + a.layout +
                                  "' (use segnet, index-png, color-masks, images, coco, labelme, cityscapes, mapillary or cvat)");
}

// The formats that bring their own classes (the --schema option is not theirs).
std::optional<data::Project> runFormatImport(const ImportArguments& a)
{
    const auto progress = progressPrinter("importing");
    if (a.layout == "coco") {
        if (a.cocoImages.empty())
            throw data::DataError(a.images, "import coco needs --images FOLDER (where the file_name fields are)");
        return data::CocoImporter::import({a.images, a.cocoImages, a.panopticMasks, a.background, splitOf(a.split)}, a.project, progress);
    }
    if (a.layout == "labelme") {
        data::LabelmeImportSummary summary;
        auto project = data::LabelmeImporter::import({a.images, a.labels, splitOf(a.split)}, a.project, progress, &summary);
        if (summary.ignoredShapes > 0)
            std::cout << "ignored " << summary.ignoredShapes << " shape(s) that are not drawn (masks, unknown shape types)"
                      << std::endl;
        if (summary.embeddedImages > 0)
            std::cout << "wrote " << summary.embeddedImages << " embedded image(s) into "
                      << std::filesystem::path(a.project).stem().string() << ".images/" << std::endl;
        return project;
    }
    if (a.layout == "cityscapes")
        return data::RasterFormatImporter::importCityscapes(a.images, a.project, progress);
    if (a.layout == "mapillary")
        return data::RasterFormatImporter::importMapillary(a.images, a.project, progress);
    if (a.layout == "cvat")
        return data::RasterFormatImporter::importCvatMasks(a.images, a.project, a.cocoImages, progress);
    return std::nullopt;
}

}  // namespace

void addImportCommand(CLI::App& app, int& exitCode)
{
    auto a = std::make_shared<ImportArguments>();
    auto* command = app.add_subcommand("import", "make a project from a dataset on disk (images stay where they are)");
    command->add_option("layout", a->layout, "segnet | index-png | color-masks | images | coco | labelme | cityscapes | mapillary | cvat")
        ->required();
    command->add_option("folder", a->images,
                        "segnet, cityscapes, mapillary, cvat: the dataset folder; coco: the annotation JSON; "
                        "labelme: the folder of JSON files; others: the image folder")
        ->required()
        ->check(CLI::ExistingPath);
    command->add_option("--labels", a->labels,
                        "index-png / color-masks: the folder of label images (same stems); labelme: labels.txt (optional)")
        ->check(CLI::ExistingPath);
    command->add_option("--images", a->cocoImages, "coco: the folder file_name is relative to; cvat: images when not in JPEGImages/")
        ->check(CLI::ExistingDirectory);
    command->add_option("--panoptic-masks", a->panopticMasks, "coco panoptic: the PNG folder (default: beside the JSON, named after it)")
        ->check(CLI::ExistingDirectory);
    command->add_option("--background", a->background, "coco: a class for pixels no annotation covers (default: unlabelled)");
    command->add_option("--split", a->split, "coco, labelme: the split of every image (train, val, test, unassigned)");
    command->add_option("--project,-o", a->project, "project file to create (*.segstudio; must not exist)")->required();
    command->add_option("--schema", a->schema, "class schema: camvid, or a preset JSON file")->capture_default_str();
    command->add_option("--void", a->voidValue, "label value that means unlabelled (default: 11 for segnet, 255 otherwise)");
    command->add_option("--values", a->values,
                        "index-png: masks that store other numbers than class ids, VALUE=CLASS for each (e.g. binary masks: "
                        "0=Membrane,255=Cell; a value named unlabelled stays unlabelled); the classes replace --schema");
    command->footer("Examples:\n"
                    "  segstudio-train import segnet ~/data/camvid -o camvid.segstudio\n"
                    "  segstudio-train import index-png voc/JPEGImages --labels voc/SegmentationClass --schema voc.json -o voc.segstudio\n"
                    "  segstudio-train import index-png em/images --labels em/masks --values 0=Membrane,255=Cell -o em.segstudio\n"
                    "  segstudio-train import coco annotations/instances_val2017.json --images val2017 --split val -o coco.segstudio\n"
                    "  segstudio-train import labelme ~/labelme-set --labels labels.txt -o mine.segstudio\n"
                    "  segstudio-train import cityscapes ~/data/cityscapes -o cityscapes.segstudio");
    command->callback([a, &exitCode] {
        if (std::filesystem::exists(a->project))
            throw data::DataError(a->project, "exists already; import never overwrites a project (choose another file)");
        auto imported = runFormatImport(*a);
        const auto project = imported ? *imported : runImport(*a);
        std::cout << "imported " << project.size() << " images into " << a->project << " (label maps in "
                  << project.labelRoot().string() << ")" << std::endl;
        exitCode = kExitOk;
    });
}

}  // namespace segstudio::cli
