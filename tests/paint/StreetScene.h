#pragma once

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

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

}  // namespace segstudio::painttest
