#pragma once

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>

// A synthetic street for the smart click tests: background class 3 (road), two patches the
// model was unsure of (a 60x40 pavement patch, class 4, and a 30x20 car, class 8), and the
// model's scores as the prediction cache keeps them (-ln p x 16 per class, CV_8UC(11)): sure of
// road outside the patches, leaning road (0.55) over the patch's true class (0.35) inside, so
// the accepted prediction is all road and each patch needs one click.
struct SmartClickScene {
    static constexpr int kClasses = 11, kPole = 2, kRoad = 3, kPavement = 4, kCar = 8;
    static inline const cv::Rect kPavementRect{30, 20, 60, 40};
    static inline const cv::Rect kCarRect{120, 70, 30, 20};
    static inline const cv::Size kSize{180, 120};

    cv::Mat rgb;
    cv::Mat truth;
    cv::Mat predicted;
    cv::Mat scores;

    static std::uint8_t nll(double p) { return std::uint8_t(std::lround(std::min(255.0, -std::log(p) * 16.0))); }

    static cv::Mat scoresWith(cv::Size size, double scale)
    {
        cv::Mat scores(size, CV_8UC(kClasses));
        for (int y = 0; y < size.height; ++y)
            for (int x = 0; x < size.width; ++x) {
                const cv::Point imagePixel(int((x + 0.5) / scale), int((y + 0.5) / scale));
                int unsure = -1;
                if (kPavementRect.contains(imagePixel))
                    unsure = kPavement;
                else if (kCarRect.contains(imagePixel))
                    unsure = kCar;
                auto* out = scores.ptr<std::uint8_t>(y) + x * kClasses;
                for (int c = 0; c < kClasses; ++c)
                    out[c] = nll(unsure < 0 ? (c == kRoad ? 0.9 : 0.01) : c == kRoad ? 0.55 : c == unsure ? 0.35 : 0.011);
            }
        return scores;
    }

    explicit SmartClickScene(double scoreScale = 1.0)
    {
        rgb = cv::Mat(kSize, CV_8UC3, cv::Scalar(90, 90, 95));
        rgb(kPavementRect).setTo(cv::Scalar(170, 150, 120));
        rgb(kCarRect).setTo(cv::Scalar(200, 30, 30));
        truth = cv::Mat(kSize, CV_8UC1, cv::Scalar(kRoad));
        truth(kPavementRect).setTo(kPavement);
        truth(kCarRect).setTo(kCar);
        predicted = cv::Mat(kSize, CV_8UC1, cv::Scalar(kRoad));
        scores = scoresWith({int(kSize.width * scoreScale), int(kSize.height * scoreScale)}, scoreScale);
    }
};
