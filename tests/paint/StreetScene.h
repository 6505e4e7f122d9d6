#pragma once

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstdint>

namespace segstudio::painttest {

// A street-like scene larger than a frame, for tests of labels carried by optical flow: a texture
// of random grey blocks with noise, and coloured rectangles on it (cars, signs), themselves
// textured so the flow has something to follow everywhere. Labels: 0 for the background, i for
// the i-th rectangle. The same scene for the same size, every time.
struct Scene {
    cv::Mat rgb;
    cv::Mat labels;
};

inline Scene makeScene(cv::Size size)
{
    cv::RNG rng(51);
    cv::Mat blocks(size.height / 8 + 1, size.width / 8 + 1, CV_8UC3);
    rng.fill(blocks, cv::RNG::UNIFORM, 30, 220);
    cv::Mat texture;
    cv::resize(blocks, texture, {blocks.cols * 8, blocks.rows * 8}, 0, 0, cv::INTER_NEAREST);
    texture = texture(cv::Rect({0, 0}, size)).clone();
    cv::Mat noise(size, CV_16SC3);
    rng.fill(noise, cv::RNG::NORMAL, 0, 14);
    cv::Mat textured;
    texture.convertTo(textured, CV_16SC3);
    textured += noise;
    textured.convertTo(texture, CV_8UC3);
    cv::GaussianBlur(texture, texture, {3, 3}, 0.8);

    Scene scene{texture.clone(), cv::Mat(size, CV_8UC1, cv::Scalar(0))};
    const cv::Rect objects[] = {
        {60, 70, 90, 50}, {200, 40, 40, 110}, {120, 160, 140, 60}, {30, 200, 50, 60}, {250, 180, 60, 30}};
    const cv::Scalar colours[] = {{220, 40, 40}, {40, 200, 60}, {50, 60, 230}, {230, 210, 40}, {200, 60, 200}};
    int id = 1;
    for (const cv::Rect& object : objects) {
        cv::Mat area = scene.rgb(object);
        cv::addWeighted(area, 0.45, cv::Mat(object.size(), CV_8UC3, colours[id - 1]), 0.55, 0, area);
        scene.labels(object).setTo(id++);
    }
    return scene;
}

// A model's prediction of a frame as the prediction cache keeps it, sure of every pixel, wrong
// in one way: it calls class `from` class `to` (a model on a sequence it never saw). Scores at
// half the frame's size, -ln p x 16 a class.
struct WrongModel {
    cv::Mat classes, confidence, entropy, scores;
};

inline WrongModel wrongModel(const cv::Mat& truth, int from, int to, int classCount)
{
    WrongModel model;
    model.classes = truth.clone();
    model.classes.setTo(to, truth == from);
    model.confidence = cv::Mat(truth.size(), CV_8UC1, cv::Scalar(250));
    model.entropy = cv::Mat(truth.size(), CV_8UC1, cv::Scalar(5));
    cv::Mat small;
    cv::resize(model.classes, small, truth.size() / 2, 0, 0, cv::INTER_NEAREST);
    model.scores = cv::Mat(small.size(), CV_8UC(classCount));
    model.scores.reshape(1).setTo(74);
    for (int y = 0; y < small.rows; ++y)
        for (int x = 0; x < small.cols; ++x)
            model.scores.ptr<std::uint8_t>(y)[x * classCount + small.at<std::uint8_t>(y, x)] = 2;
    return model;
}

// Whether `expected` holds `label` in the 3x3 neighbourhood of (x, y): a carried label within one
// pixel of where the shapes really are is right.
inline bool nearlyRight(const cv::Mat& expected, int x, int y, std::uint8_t label)
{
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            const int ex = x + dx, ey = y + dy;
            if (ex >= 0 && ey >= 0 && ex < expected.cols && ey < expected.rows && expected.at<std::uint8_t>(ey, ex) == label)
                return true;
        }
    return false;
}

// Whether the 3x3 neighbourhood of (x, y) holds one label only (away from every boundary).
inline bool awayFromBoundaries(const cv::Mat& truth, int x, int y)
{
    const std::uint8_t label = truth.at<std::uint8_t>(y, x);
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            const int ex = std::clamp(x + dx, 0, truth.cols - 1), ey = std::clamp(y + dy, 0, truth.rows - 1);
            if (truth.at<std::uint8_t>(ey, ex) != label)
                return false;
        }
    return true;
}

}  // namespace segstudio::painttest
