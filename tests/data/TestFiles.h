#pragma once

// Helpers shared by the core/data tests: temp folders and small files built on the fly.

#include "data/labels/ClassSchema.h"
#include "data/labels/DataError.h"

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <functional>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <string>
#include <vector>

namespace segstudio::test {

inline std::filesystem::path path(const QTemporaryDir& dir, const char* name)
{
    return std::filesystem::path(dir.path().toStdString()) / name;
}

inline void writeBytes(const std::filesystem::path& file, const std::string& bytes)
{
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << bytes;
}

inline std::string readBytes(const std::filesystem::path& file)
{
    std::ifstream stream(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(stream), {});
}

inline data::ClassSchema threeClasses()
{
    return data::ClassSchema({{0, "road", {128, 64, 128}, "1"}, {1, "car", {64, 0, 128}, "2"}, {2, "sky", {128, 128, 128}, ""}});
}

// A label map whose pixel value is (x + 2y) mod classes, with a band of unlabelled pixels.
inline cv::Mat patternLabels(int rows, int cols, int classes)
{
    cv::Mat labels(rows, cols, CV_8UC1);
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x)
            labels.at<std::uint8_t>(y, x) = y == rows / 2 ? 255 : std::uint8_t((x + 2 * y) % classes);
    return labels;
}

inline bool sameMat(const cv::Mat& a, const cv::Mat& b)
{
    return a.size() == b.size() && a.type() == b.type() && cv::countNonZero(a.reshape(1) != b.reshape(1)) == 0;
}

// Runs action, which must throw DataError naming `file` with a message containing `expected`.
inline void expectDataError(const std::function<void()>& action, const std::filesystem::path& file, const QString& expected)
{
    try {
        action();
        QFAIL("bad input was accepted");
    } catch (const data::DataError& error) {
        QVERIFY2(QString::fromStdString(error.what()).contains(expected), error.what());
        QCOMPARE(QString::fromStdString(error.file()), QString::fromStdString(file.string()));
    }
}

// A PNG of `size` as base64, encoded by hand (the tests must not share the importer's decoder).
inline std::string pngAsBase64(cv::Size size)
{
    std::vector<unsigned char> png;
    cv::imencode(".png", cv::Mat(size, CV_8UC3, cv::Scalar(1, 2, 3)), png);
    static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string encoded;
    for (std::size_t i = 0; i < png.size(); i += 3) {
        const unsigned n = (png[i] << 16) | ((i + 1 < png.size() ? png[i + 1] : 0) << 8) | (i + 2 < png.size() ? png[i + 2] : 0);
        encoded += alphabet[(n >> 18) & 63];
        encoded += alphabet[(n >> 12) & 63];
        encoded += i + 1 < png.size() ? alphabet[(n >> 6) & 63] : '=';
        encoded += i + 2 < png.size() ? alphabet[n & 63] : '=';
    }
    return encoded;
}

inline std::filesystem::path camVidDir() { return SEGSTUDIO_CAMVID_DIR; }
inline bool haveCamVid() { return std::filesystem::exists(camVidDir() / "train.txt"); }

}  // namespace segstudio::test
