// Issue 62.1: a pixel classifier that learns a new kind of image from a few strokes. Made on a
// grey image where only texture tells the classes apart (the same mean brightness inside and
// outside the cells), and a colour one, each labelled by two short strokes.
#include "paint/PixelClassifier.h"
#include "data/labels/LabelClass.h"

#include <QtTest>

#include <opencv2/imgproc.hpp>

using segstudio::paint::PixelClassifier;
using segstudio::paint::PixelFeatures;

namespace {

// Grey "cells": discs of fine stripes on a smooth ground of the same mean grey, and their truth.
void texturedCells(cv::Size size, cv::Mat& rgb, cv::Mat& truth)
{
    cv::Mat grey(size, CV_8UC1, cv::Scalar(128));
    truth = cv::Mat(size, CV_8UC1, cv::Scalar(0));
    for (int cy = 30; cy < size.height; cy += 70)
        for (int cx = 30; cx < size.width; cx += 70)
            cv::circle(truth, {cx, cy}, 22, cv::Scalar(1), cv::FILLED);
    for (int y = 0; y < size.height; ++y)
        for (int x = 0; x < size.width; ++x)
            if (truth.at<std::uint8_t>(y, x) == 1)
                grey.at<std::uint8_t>(y, x) = (x / 2) % 2 ? 188 : 68;
    cv::Mat noise(size, CV_8UC1);
    cv::randn(noise, 0, 6);
    grey += noise;
    cv::cvtColor(grey, rgb, cv::COLOR_GRAY2RGB);
}

double accuracy(const cv::Mat& predicted, const cv::Mat& truth)
{
    return double(cv::countNonZero(predicted == truth)) / double(truth.total());
}

}  // namespace

class TestPixelClassifier : public QObject {
    Q_OBJECT

private slots:
    void featuresDescribeEveryPixel()
    {
        cv::Mat rgb, truth;
        texturedCells({140, 100}, rgb, truth);
        const PixelFeatures features(rgb);
        QCOMPARE(PixelFeatures::count(), 45);
        QCOMPARE(features.rows().rows, 140 * 100);
        QCOMPARE(features.rows().cols, 45);
        QCOMPARE(features.rows().type(), CV_32F);
        QVERIFY(cv::checkRange(features.rows()));  // no NaN nor infinity
        QCOMPARE(features.rowOf(139, 99), 140 * 100 - 1);
    }

    // Two strokes, one in a cell, one on the ground: the whole image to more than 90 % (the
    // brightness alone is the same inside and out: the texture features decide).
    void twoStrokesLabelATexturedImage()
    {
        cv::Mat rgb, truth;
        texturedCells({420, 280}, rgb, truth);
        cv::Mat strokes(truth.size(), CV_8UC1, cv::Scalar(segstudio::data::kUnlabelled));
        cv::line(strokes, {20, 30}, {40, 30}, cv::Scalar(1), 3);    // across the first cell
        cv::line(strokes, {55, 10}, {55, 270}, cv::Scalar(0), 3);   // down the ground between cells
        PixelClassifier classifier;
        const PixelFeatures features(rgb);
        classifier.setExamples("a.png", features, strokes);
        QCOMPARE(classifier.classCount(), 2);
        QVERIFY(classifier.train());
        const auto prediction = classifier.predict(features, 11);
        QCOMPARE(prediction.classes.size(), truth.size());
        const double correct = accuracy(prediction.classes, truth);
        QVERIFY2(correct > 0.9, qPrintable(QString::number(correct)));
        QVERIFY(cv::mean(prediction.confidence)[0] > 128);
        // Scores as a network's, for Smart Click: every class a channel, the winner's the lowest.
        QCOMPARE(prediction.scores.channels(), 11);
        QCOMPARE(prediction.scores.size(), features.workingSize());
        const cv::Vec<std::uint8_t, 11> inCell = prediction.scores.at<cv::Vec<std::uint8_t, 11>>(30, 30);
        QVERIFY(inCell[1] < inCell[0] && inCell[5] >= inCell[0]);  // class 5 was never seen: the floor
        QCOMPARE(prediction.entropy.size(), truth.size());
    }

    // One class is nothing to learn; an image's examples are replaced, not added, when it is
    // labelled again; a large photo is described at the working size and predicted at its own.
    void examplesPerImageAndLargeImages()
    {
        cv::Mat rgb, truth;
        texturedCells({2100, 1400}, rgb, truth);
        const PixelFeatures features(rgb);
        QCOMPARE(features.workingSize(), cv::Size(1024, 683));
        PixelClassifier classifier;
        cv::Mat ground(truth.size(), CV_8UC1, cv::Scalar(segstudio::data::kUnlabelled));
        cv::line(ground, {55, 10}, {55, 1300}, cv::Scalar(0), 5);
        classifier.setExamples("big.png", features, ground);
        QVERIFY(!classifier.train());
        QVERIFY(!classifier.isTrained());
        const std::size_t groundOnly = classifier.exampleCount();
        classifier.setExamples("big.png", features, truth);  // the whole map now
        QCOMPARE(classifier.classCount(), 2);
        QVERIFY(classifier.exampleCount() > groundOnly);
        QVERIFY(classifier.exampleCount() <= 2 * 600);
        QVERIFY(classifier.train());
        const auto prediction = classifier.predict(features, 11);
        QCOMPARE(prediction.classes.size(), truth.size());
        QVERIFY(accuracy(prediction.classes, truth) > 0.9);
        classifier.removeExamples("big.png");
        QCOMPARE(classifier.exampleCount(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestPixelClassifier)
#include "test_PixelClassifier.moc"
