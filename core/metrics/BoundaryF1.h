#pragma once

#include <cstdint>
#include <vector>

namespace segstudio::metrics {

// The distance within which a predicted boundary pixel matches a true one (and back): 0.75 % of
// the image diagonal, MATLAB's default for bfscore and evaluateSemanticSegmentation.
double boundaryTolerance(int width, int height);

// The boundary F1 (BF) score of each class in one image (Csurka et al., BMVC 2013): the class's
// boundary in the prediction and in the truth; precision = share of predicted boundary pixels
// within `tolerance` pixels (Euclidean) of a true boundary pixel, recall the other way round,
// BF = 2PR / (P + R).
// - A class's boundary: its pixels with a 4-neighbour (inside the image) of another value; the
//   image border is no boundary. Pixels unlabelled in the truth (any id >= classes) belong to no
//   class, in the prediction too, so they neither score nor count.
// - NaN for a class in neither the truth nor the prediction (left out of means); 0 for a class in
//   only one of them; 1 when the class fills every labelled pixel of both (no boundary to miss).
// truth and predicted: width*height class ids, row-major.
std::vector<double> boundaryF1(const std::uint8_t* truth, const std::uint8_t* predicted, int width, int height, int classes,
                               double tolerance);

}  // namespace segstudio::metrics
