#pragma once

#include "data/labels/ClassSchema.h"
#include "data/labels/ImageIO.h"
#include "data/project/Project.h"
#include "document/ProjectDocument.h"

#include <QTemporaryDir>

#include <opencv2/imgproc.hpp>

#include <memory>

// A throwaway project for the editor tests: two 64×64 images with coloured shapes and three
// classes, in a temporary folder that disappears with the object, open as a document.
struct EditorTestProject {
    QTemporaryDir dir;
    std::unique_ptr<segstudio::document::ProjectDocument> document;
    const segstudio::data::Project* project = nullptr;  // the document's

    static segstudio::data::ClassSchema threeClasses()
    {
        return segstudio::data::ClassSchema(
            {{0, "road", {128, 64, 128}, "1"}, {1, "car", {64, 0, 128}, "2"}, {2, "tree", {0, 128, 0}, "3"}});
    }

    // schema: another class list (CamVid's 11 classes, for the class keys and the classes panel).
    explicit EditorTestProject(const segstudio::data::ClassSchema& schema = threeClasses())
    {
        using namespace segstudio::data;
        const std::filesystem::path root = dir.path().toStdString();
        Project made(root / "test.segstudio", schema);
        for (int i = 0; i < 2; ++i) {
            cv::Mat rgb(64, 64, CV_8UC3, cv::Scalar(40, 40, 40));
            cv::rectangle(rgb, {10 + i, 10}, {30, 40}, cv::Scalar(220, 30, 30), cv::FILLED);
            const std::filesystem::path image = root / ("image" + std::to_string(i) + ".png");
            writeImageRgb(image, rgb);
            made.addImage(image);
        }
        made.save();
        document = std::make_unique<segstudio::document::ProjectDocument>(std::move(made));
        project = &document->project();
    }
};
