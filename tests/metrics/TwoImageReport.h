#pragma once

#include "metrics/EvaluationReport.h"

namespace segstudio::test {

// Two 2x2 images worked out by hand (tests/metrics/test_EvaluationReport.cpp has the arithmetic):
// a is perfect on sky/road; in b, one road pixel is predicted car and one pixel is unlabelled.
inline metrics::EvaluationReport twoImageReport()
{
    metrics::EvaluationReport report({"sky", "road", "car"});
    const std::uint8_t aTruth[] = {0, 0, 1, 1}, aPredicted[] = {0, 0, 1, 1};
    const std::uint8_t bTruth[] = {1, 1, 2, 255}, bPredicted[] = {1, 2, 2, 0};
    report.addImage("a.png", aTruth, aPredicted, 2, 2);
    report.addImage("b.png", bTruth, bPredicted, 2, 2);
    return report;
}

}  // namespace segstudio::test
