#pragma once

// Small projects for the UI tests, written into a temp folder: tiny images with known label maps,
// so labelled fractions and classes present are known exactly.

#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/Project.h"

#include <QString>
#include <QStringList>
#include <initializer_list>
#include <filesystem>
#include <string>
#include <vector>

namespace segstudio::test {

struct ImageSpec {
    std::string name;  // file name under images/
    data::Split split = data::Split::Unassigned;
    data::LabelStatus status = data::LabelStatus::Unlabelled;
    std::vector<int> classes;  // one horizontal band each; none = no label map
    int unlabelledBands = 0;   // extra bands of unlabelled pixels after the class bands
};

inline data::ClassSchema threeClasses()
{
    return data::ClassSchema({{0, "road", {128, 64, 128}, "1"}, {1, "car", {64, 0, 128}, "2"}, {2, "sky", {70, 130, 180}, ""}});
}

// QT_NO_CAST_FROM_ASCII is on for everything linking the UI: spell string lists through this.
inline QStringList strings(std::initializer_list<const char*> items)
{
    QStringList list;
    for (const char* item : items)
        list << QString::fromUtf8(item);
    return list;
}

constexpr int kImageWidth = 40;
constexpr int kImageHeight = 30;

// Bands split the rows evenly, so a spec with 2 classes and 2 unlabelled bands is 50 % labelled.
inline cv::Mat bandLabels(const ImageSpec& spec)
{
    const int bands = int(spec.classes.size()) + spec.unlabelledBands;
    cv::Mat labels(kImageHeight, kImageWidth, CV_8UC1, cv::Scalar(data::kUnlabelled));
    for (int y = 0; y < kImageHeight; ++y) {
        const int band = y * bands / kImageHeight;
        if (band < int(spec.classes.size()))
            labels.row(y).setTo(spec.classes[std::size_t(band)]);
    }
    return labels;
}

inline data::Project writeProject(const QString& dir, const std::vector<ImageSpec>& specs,
                                  const data::ClassSchema& schema = threeClasses())
{
    const std::filesystem::path root = dir.toStdString();
    data::Project project(root / "test.segstudio", schema);
    int seed = 0;
    for (const ImageSpec& spec : specs) {
        cv::Mat image(kImageHeight, kImageWidth, CV_8UC3, cv::Scalar(40 + 20 * (seed % 10), 90, 200 - 15 * (seed % 10)));
        ++seed;
        const auto file = root / "images" / spec.name;
        std::filesystem::create_directories(file.parent_path());
        data::writeImageRgb(file, image);
        const std::size_t index = project.addImage(file, spec.split);
        project.setStatus(index, spec.status);
        if (!spec.classes.empty()) {
            std::filesystem::create_directories(project.labelMapPath(index).parent_path());
            data::writeLabelMap(project.labelMapPath(index), bandLabels(spec), schema);
        }
    }
    project.save();
    return project;
}

}  // namespace segstudio::test
