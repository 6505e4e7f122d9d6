#include "metrics/BoundaryF1.h"

#include <QtTest>

#include <cmath>
#include <random>

using segstudio::metrics::boundaryF1;
using segstudio::metrics::boundaryTolerance;

namespace {

struct Map {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> ids;
    std::uint8_t at(int x, int y) const { return ids[std::size_t(y * width + x)]; }
};

// Random blocky maps: rectangles of random classes painted over a background, some pixels
// unlabelled, so classes have boundaries of every shape and some classes are missing.
Map randomMap(std::mt19937& random, int width, int height, int classes)
{
    Map map{width, height, std::vector<std::uint8_t>(std::size_t(width * height), 0)};
    std::uniform_int_distribution<int> x(0, width - 1), y(0, height - 1), c(0, classes - 1), size(2, 12);
    for (int r = 0; r < 8; ++r) {
        const int x0 = x(random), y0 = y(random), w = size(random), h = size(random), cls = c(random);
        for (int yy = y0; yy < std::min(height, y0 + h); ++yy)
            for (int xx = x0; xx < std::min(width, x0 + w); ++xx)
                map.ids[std::size_t(yy * width + xx)] = std::uint8_t(cls);
    }
    for (int r = 0; r < 20; ++r)
        map.ids[std::size_t(y(random) * width + x(random))] = 255;
    return map;
}

// The reference, computed another way: boundary points listed, every distance tried.
double bruteForceBF(const Map& truth, const Map& predicted, int cls, double tolerance)
{
    const auto inTruth = [&](int x, int y) { return truth.at(x, y) == cls; };
    const auto inPrediction = [&](int x, int y) { return truth.at(x, y) != 255 && predicted.at(x, y) == cls; };
    const auto boundary = [&](const auto& in) {
        std::vector<std::pair<int, int>> points;
        for (int y = 0; y < truth.height; ++y)
            for (int x = 0; x < truth.width; ++x) {
                if (!in(x, y))
                    continue;
                bool edge = false;
                const int dx[] = {1, -1, 0, 0}, dy[] = {0, 0, 1, -1};
                for (int k = 0; k < 4; ++k) {
                    const int nx = x + dx[k], ny = y + dy[k];
                    if (nx >= 0 && ny >= 0 && nx < truth.width && ny < truth.height && !in(nx, ny))
                        edge = true;
                }
                if (edge)
                    points.emplace_back(x, y);
            }
        return points;
    };
    int truthPixels = 0, predictedPixels = 0;
    for (int y = 0; y < truth.height; ++y)
        for (int x = 0; x < truth.width; ++x) {
            truthPixels += inTruth(x, y);
            predictedPixels += inPrediction(x, y);
        }
    if (truthPixels == 0 && predictedPixels == 0)
        return std::nan("");
    if (truthPixels == 0 || predictedPixels == 0)
        return 0.0;
    const auto a = boundary(inPrediction), b = boundary(inTruth);
    if (a.empty() || b.empty())
        return a.size() == b.size() ? 1.0 : 0.0;
    const auto share = [tolerance](const auto& from, const auto& to) {
        int matched = 0;
        for (const auto& [x, y] : from) {
            double best = 1e30;
            for (const auto& [u, v] : to)
                best = std::min(best, std::hypot(double(x - u), double(y - v)));
            matched += best <= tolerance;
        }
        return double(matched) / double(from.size());
    };
    const double precision = share(a, b), recall = share(b, a);
    return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
}

}  // namespace

class TestBoundaryF1 : public QObject {
    Q_OBJECT

private slots:
    void toleranceIsMatlabs()
    {
        QVERIFY(std::abs(boundaryTolerance(480, 360) - 4.5) < 1e-12);  // 0.75 % of 600
    }

    void identicalMapsScoreOne()
    {
        std::mt19937 random(3);
        const Map map = randomMap(random, 40, 30, 4);
        const auto scores = boundaryF1(map.ids.data(), map.ids.data(), 40, 30, 5, 1.0);
        for (int c = 0; c < 5; ++c) {
            const bool present = std::count(map.ids.begin(), map.ids.end(), std::uint8_t(c)) > 0;
            QVERIFY2(present ? scores[std::size_t(c)] == 1.0 : std::isnan(scores[std::size_t(c)]), qPrintable(QString::number(c)));
        }
    }

    void shiftedEdgeWithinAndBeyondTheTolerance()
    {
        // A vertical edge at x = 10 in the truth, at x = 12 in the prediction: boundary pixels two
        // columns apart (plus the neighbours across the edge at distance 1 or 3).
        const int width = 30, height = 10;
        std::vector<std::uint8_t> truth(std::size_t(width * height)), predicted(truth.size());
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                truth[std::size_t(y * width + x)] = x < 10 ? 0 : 1;
                predicted[std::size_t(y * width + x)] = x < 12 ? 0 : 1;
            }
        QCOMPARE(boundaryF1(truth.data(), predicted.data(), width, height, 2, 2.0), std::vector<double>({1.0, 1.0}));
        QCOMPARE(boundaryF1(truth.data(), predicted.data(), width, height, 2, 1.5), std::vector<double>({0.0, 0.0}));
    }

    void classInOnlyOneMapScoresZero()
    {
        const std::uint8_t truth[] = {0, 0, 1, 1};
        const std::uint8_t predicted[] = {0, 0, 0, 0};
        const auto scores = boundaryF1(truth, predicted, 2, 2, 3, 5.0);
        QCOMPARE(scores[1], 0.0);
        QVERIFY(std::isnan(scores[2]));
        QCOMPARE(scores[0], 0.0);  // truth has a boundary for class 0, the prediction none
    }

    void matchesABruteForceReference()
    {
        std::mt19937 random(11);
        for (int trial = 0; trial < 40; ++trial) {
            const int width = 23 + trial % 7, height = 17 + trial % 5, classes = 4;
            const Map truth = randomMap(random, width, height, classes);
            const Map predicted = randomMap(random, width, height, classes);
            const double tolerance = 0.5 + (trial % 6);
            const auto scores = boundaryF1(truth.ids.data(), predicted.ids.data(), width, height, classes, tolerance);
            for (int c = 0; c < classes; ++c) {
                const double expected = bruteForceBF(truth, predicted, c, tolerance);
                const double got = scores[std::size_t(c)];
                QVERIFY2(std::isnan(expected) ? std::isnan(got) : std::abs(got - expected) < 1e-12,
                         qPrintable(QStringLiteral("trial %1 class %2: %3 vs %4").arg(trial).arg(c).arg(got).arg(expected)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestBoundaryF1)
#include "test_BoundaryF1.moc"
