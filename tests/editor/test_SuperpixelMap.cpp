#include "paint/GrabCutSegmenter.h"
#include "paint/SuperpixelMap.h"

#include <QtTest>

#include <opencv2/imgproc.hpp>

#include <set>

using segstudio::paint::GrabCutSegmenter;
using segstudio::paint::SuperpixelMap;

// SLIC on a two-colour image must not cross the colour edge, cover the image with connected ids,
// and give roughly the requested number of regions. GrabCut (which the same tool family uses)
// must find a bright square from a loose rectangle.
class TestSuperpixelMap : public QObject {
    Q_OBJECT

private slots:
    void respectsColourEdges()
    {
        cv::Mat rgb(64, 64, CV_8UC3, cv::Scalar(30, 30, 200));
        cv::circle(rgb, {30, 34}, 17, cv::Scalar(230, 220, 20), cv::FILLED);
        const SuperpixelMap map = SuperpixelMap::compute(rgb, 12, 10.0);
        QCOMPARE(map.ids().size(), rgb.size());
        QVERIFY(map.count() >= 12 && map.count() <= 60);
        for (int id = 0; id < map.count(); ++id) {
            cv::Mat mask = map.ids() == id;
            QVERIFY2(cv::countNonZero(mask) > 0, "ids are contiguous 0..count-1");
            cv::Mat components;
            QCOMPARE(cv::connectedComponents(mask, components, 4), 2);  // background + one piece
            std::set<int> colours;
            for (int y = 0; y < rgb.rows; ++y)
                for (int x = 0; x < rgb.cols; ++x)
                    if (mask.at<uchar>(y, x))
                        colours.insert(rgb.at<cv::Vec3b>(y, x)[0]);
            QVERIFY2(colours.size() == 1, "a superpixel straddles the circle's edge");
        }
        const auto region = map.region({map.idAt({30, 34})});
        QVERIFY(region.bounds.contains({30, 34}));
    }

    void grabCutFindsSquare()
    {
        cv::Mat rgb(64, 64, CV_8UC3);
        cv::randu(rgb, cv::Scalar::all(0), cv::Scalar::all(60));
        cv::Mat noise(20, 20, CV_8UC3);
        cv::randu(noise, cv::Scalar::all(200), cv::Scalar::all(255));
        noise.copyTo(rgb(cv::Rect(22, 20, 20, 20)));
        const auto region = GrabCutSegmenter::fromRect(rgb, cv::Rect(15, 14, 34, 33));
        QVERIFY(!region.empty());
        cv::Mat full = cv::Mat::zeros(rgb.size(), CV_8UC1);
        region.mask.copyTo(full(region.bounds));
        cv::Mat truth = cv::Mat::zeros(rgb.size(), CV_8UC1);
        truth(cv::Rect(22, 20, 20, 20)).setTo(255);
        const int wrong = cv::countNonZero(full != truth);
        QVERIFY2(wrong < 20, qPrintable(QString::number(wrong)));
        QVERIFY(GrabCutSegmenter::fromRect(rgb, cv::Rect(3, 3, 1, 1)).empty());
    }
};

QTEST_APPLESS_MAIN(TestSuperpixelMap)
#include "test_SuperpixelMap.moc"
