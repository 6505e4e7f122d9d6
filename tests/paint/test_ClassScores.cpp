// The prediction cache's class scores (-ln p in 1/16 nat steps, one byte a class), read and written
// by paint::ClassScores for the smart click, the corrector and the pixel classifier alike.
#include "paint/ClassScores.h"

#include <QtTest>

#include <cmath>

using segstudio::paint::ClassScores;

class TestClassScores : public QObject {
    Q_OBJECT

private slots:
    void aProbabilitySurvivesTheRoundTripWithinHalfAStep()
    {
        for (const double p : {1.0, 0.9, 0.5, 0.1, 0.01, 1e-4}) {
            const double back = ClassScores::toProbability(ClassScores::fromProbability(p));
            QVERIFY2(std::abs(std::log(back) - std::log(p)) <= 0.5 / ClassScores::kStepsPerNat + 1e-9,
                     qPrintable(QString("p %1 came back as %2").arg(p).arg(back)));
        }
    }

    void anImpossibleClassSaturatesAtTheLastStep()
    {
        QCOMPARE(int(ClassScores::fromProbability(0.0)), 255);
        QCOMPARE(int(ClassScores::fromProbability(1e-30)), 255);
        QCOMPARE(int(ClassScores::fromProbability(1.0)), 0);
    }

    void theBestProbabilityIsTheSmallestScoresOwn()
    {
        // Two pixels, three classes: sure of class 1; torn between 0 and 2.
        cv::Mat scores(1, 2, CV_8UC3);
        scores.at<cv::Vec3b>(0, 0) = {200, 0, 90};
        scores.at<cv::Vec3b>(0, 1) = {11, 250, 11};
        const cv::Mat best = ClassScores::bestProbability(scores);
        QCOMPARE(best.type(), CV_32FC1);
        QCOMPARE(best.size(), scores.size());
        QCOMPARE(best.at<float>(0, 0), 1.0f);
        QVERIFY(std::abs(best.at<float>(0, 1) - float(std::exp(-11.0 / 16.0))) < 1e-6f);
        // Another quantisation is honoured.
        QVERIFY(std::abs(ClassScores::bestProbability(scores, 8.0).at<float>(0, 1) - float(std::exp(-11.0 / 8.0))) < 1e-6f);
    }

    void theMostLikelyClassIsTheSmallestScoresChannel()
    {
        cv::Mat scores(1, 2, CV_8UC3);
        scores.at<cv::Vec3b>(0, 0) = {200, 0, 90};
        scores.at<cv::Vec3b>(0, 1) = {11, 250, 11};  // a tie: the first
        const cv::Mat classes = ClassScores::mostLikely(scores);
        QCOMPARE(classes.type(), CV_8UC1);
        QCOMPARE(int(classes.at<std::uint8_t>(0, 0)), 1);
        QCOMPARE(int(classes.at<std::uint8_t>(0, 1)), 0);
    }
};

QTEST_GUILESS_MAIN(TestClassScores)
#include "test_ClassScores.moc"
