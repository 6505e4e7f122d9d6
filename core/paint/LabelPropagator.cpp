#include "LabelPropagator.h"

#include "SuperpixelMap.h"
#include "data/labels/LabelClass.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <numeric>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace segstudio::paint {

namespace {

// How far (working pixels) DIS's blending of patch flows reaches: MEDIUM's 8 px patches at half
// the working size, so 16 px, half of it either side.
constexpr int kSpreadReach = 8;

// Where each full-size pixel of one axis falls on the flow's working size, with pixel centres
// placed as cv::resize places them: its two working neighbours and the weight of the second.
struct Axis {
    std::vector<int> low;
    std::vector<int> high;
    std::vector<float> weight;

    int nearest(int i) const { return weight[std::size_t(i)] < 0.5f ? low[std::size_t(i)] : high[std::size_t(i)]; }
};

Axis axisOf(int full, int working)
{
    Axis axis;
    axis.low.resize(std::size_t(full));
    axis.high.resize(std::size_t(full));
    axis.weight.resize(std::size_t(full));
    const double step = double(working) / double(full);
    for (int i = 0; i < full; ++i) {
        const double at = std::clamp((i + 0.5) * step - 0.5, 0.0, double(working - 1));
        const int low = int(at);
        axis.low[std::size_t(i)] = low;
        axis.high[std::size_t(i)] = std::min(low + 1, working - 1);
        axis.weight[std::size_t(i)] = float(at - low);
    }
    return axis;
}

// How far each working pixel of the source lies from a boundary between labels, in working
// pixels. A working pixel is on one when any full-size pixel it covers is, so a pole 2 px wide in
// a 4000 px frame still counts at 640 px; the distances are then the working size's (cheap).
cv::Mat clearanceOf(const cv::Mat& labels, cv::Size working)
{
    cv::Mat edges(labels.size(), CV_8UC1, cv::Scalar(0));
    for (int y = 0; y < labels.rows; ++y) {
        const std::uint8_t* row = labels.ptr<std::uint8_t>(y);
        const std::uint8_t* below = y + 1 < labels.rows ? labels.ptr<std::uint8_t>(y + 1) : nullptr;
        std::uint8_t* edge = edges.ptr<std::uint8_t>(y);
        std::uint8_t* edgeBelow = below ? edges.ptr<std::uint8_t>(y + 1) : nullptr;
        for (int x = 0; x < labels.cols; ++x) {
            if (x + 1 < labels.cols && row[x] != row[x + 1])
                edge[x] = edge[x + 1] = 255;
            if (below && row[x] != below[x])
                edge[x] = edgeBelow[x] = 255;
        }
    }
    if (edges.size() != working)
        cv::resize(edges, edges, working, 0, 0, cv::INTER_AREA);  // any edge pixel leaves a trace
    cv::Mat distance;
    cv::distanceTransform(edges == 0, distance, cv::DIST_L2, cv::DIST_MASK_3);  // within a few %: ample
    return distance;
}

// How far the backward flow strays within `reach` working pixels of each pixel (the spread of
// each component, combined): DIS blends the flows of neighbouring patches, so at a motion boundary
// a pixel's estimate can lie anywhere between the two motions around it, however consistent the
// forward and backward flows are with each other.
cv::Mat spreadOf(const cv::Mat& flow, int reach)
{
    const cv::Mat box = cv::getStructuringElement(cv::MORPH_RECT, {2 * reach + 1, 2 * reach + 1});
    cv::Mat highest, lowest;
    cv::dilate(flow, highest, box, {-1, -1}, 1, cv::BORDER_REPLICATE);
    cv::erode(flow, lowest, box, {-1, -1}, 1, cv::BORDER_REPLICATE);
    cv::Mat range = highest - lowest, parts[2], spread;
    cv::split(range, parts);
    cv::magnitude(parts[0], parts[1], spread);
    return spread;
}

// What the flow brings to each pixel of the open frame: the label of the source pixel nearest to
// where it came from (kUnlabelled where the source has none), and `failed` 255 where the flow
// cannot be trusted (`reliable` says no, or it comes from outside the source). The flow is
// interpolated to full size pixel by pixel, so a 12-megapixel frame never holds a 12-megapixel
// flow field.
void carry(const DenseFlow& flow, const cv::Mat& reliable, const cv::Mat& sourceLabels, cv::Mat& carried,
           cv::Mat& failed)
{
    const cv::Size size = sourceLabels.size();
    const cv::Mat& backward = flow.backward();
    const Axis columns = axisOf(size.width, backward.cols), rows = axisOf(size.height, backward.rows);
    const float toImageX = float(size.width) / float(backward.cols);
    const float toImageY = float(size.height) / float(backward.rows);
    carried.create(size, CV_8UC1);
    failed.create(size, CV_8UC1);
    for (int y = 0; y < size.height; ++y) {
        const cv::Vec2f* top = backward.ptr<cv::Vec2f>(rows.low[std::size_t(y)]);
        const cv::Vec2f* bottom = backward.ptr<cv::Vec2f>(rows.high[std::size_t(y)]);
        const float ay = rows.weight[std::size_t(y)];
        const std::uint8_t* trusted = reliable.ptr<std::uint8_t>(rows.nearest(y));
        std::uint8_t* label = carried.ptr<std::uint8_t>(y);
        std::uint8_t* unsure = failed.ptr<std::uint8_t>(y);
        for (int x = 0; x < size.width; ++x) {
            label[x] = data::kUnlabelled;
            unsure[x] = 255;
            if (!trusted[columns.nearest(x)])
                continue;
            const int low = columns.low[std::size_t(x)], high = columns.high[std::size_t(x)];
            const float ax = columns.weight[std::size_t(x)];
            const cv::Vec2f w =
                (top[low] * (1 - ax) + top[high] * ax) * (1 - ay) + (bottom[low] * (1 - ax) + bottom[high] * ax) * ay;
            // Nearest, never interpolated: a label is a category.
            const int sx = cvRound(float(x) + w[0] * toImageX), sy = cvRound(float(y) + w[1] * toImageY);
            if (sx < 0 || sy < 0 || sx >= size.width || sy >= size.height)
                continue;
            label[x] = sourceLabels.ptr<std::uint8_t>(sy)[sx];
            unsure[x] = 0;
        }
    }
}

// The prediction's confidence as 0..255, or empty when every predicted pixel counts.
cv::Mat confidenceOf(const LabelPropagator::Prediction& prediction)
{
    if (prediction.confidence.empty() || prediction.confidence.type() == CV_8UC1)
        return prediction.confidence;
    cv::Mat scaled;
    prediction.confidence.convertTo(scaled, CV_8U, 255.0);
    return scaled;
}

void checkInputs(const cv::Mat& sourceImage, const cv::Mat& sourceLabels, const cv::Mat& targetImage,
                 const cv::Mat& targetLabels, const LabelPropagator::Prediction& prediction)
{
    const cv::Size size = sourceImage.size();
    const auto isMap = [&size](const cv::Mat& m) { return m.type() == CV_8UC1 && m.size() == size; };
    if (targetImage.size() != size || !isMap(sourceLabels) || (!targetLabels.empty() && !isMap(targetLabels)))
        throw std::invalid_argument("propagation needs two frames and label maps of one size");
    if (prediction.classes.empty())
        return;
    const cv::Mat& confidence = prediction.confidence;
    if (!isMap(prediction.classes)
        || (!confidence.empty()
            && (confidence.size() != size || (confidence.type() != CV_8UC1 && confidence.type() != CV_32FC1))))
        throw std::invalid_argument("the prediction is not a class map and confidence of the frame's size");
}

// The working pixels whose flow may carry a label. A pixel's doubt is its forward-backward error
// plus its flow's spread. Where the check passes and the flow is steady (spread at most
// steadySpread), the flow is taken as it is: rounding costs at most a pixel at a boundary. Elsewhere
// (the check failed, or a motion boundary is near) the label is carried only if every source pixel
// within the doubt (plus one for rounding) of where the flow points has the same label.
cv::Mat reliablePixels(const DenseFlow& flow, const cv::Mat& sourceLabels,
                       const LabelPropagator::Parameters& parameters, double steadySpread)
{
    cv::Mat mismatch;
    const cv::Mat checked = flow.consistent(parameters.consistencyAlpha, parameters.consistencyBeta, &mismatch);
    const cv::Mat& backward = flow.backward();
    const cv::Mat spread = spreadOf(backward, kSpreadReach);
    const cv::Mat clearance = parameters.trustUniformLabels ? clearanceOf(sourceLabels, flow.workingSize()) : cv::Mat();
    cv::Mat reliable(backward.size(), CV_8UC1, cv::Scalar(0));
    for (int y = 0; y < backward.rows; ++y) {
        const cv::Vec2f* back = backward.ptr<cv::Vec2f>(y);
        const float* error = mismatch.ptr<float>(y);
        const float* stray = spread.ptr<float>(y);
        const std::uint8_t* passed = checked.ptr<std::uint8_t>(y);
        std::uint8_t* ok = reliable.ptr<std::uint8_t>(y);
        for (int x = 0; x < backward.cols; ++x) {
            if (!std::isfinite(error[x]))  // from outside the source
                continue;
            if (passed[x] && stray[x] <= steadySpread) {
                ok[x] = 255;
                continue;
            }
            if (clearance.empty())
                continue;
            const int sx = std::clamp(cvRound(float(x) + back[x][0]), 0, backward.cols - 1);
            const int sy = std::clamp(cvRound(float(y) + back[x][1]), 0, backward.rows - 1);
            if (clearance.ptr<float>(sy)[sx] > error[x] + stray[x] + 1.0f)
                ok[x] = 255;
        }
    }
    return reliable;
}

// How unsteady a flow may be and still carry: more when a prediction would fill the pixel instead
// and the frames are close in time (Parameters::smallMotion).
double allowedSpread(const DenseFlow& flow, const LabelPropagator::Parameters& parameters, bool predicted)
{
    if (!predicted || parameters.steadySpreadAtSmallMotion <= parameters.steadySpread
        || LabelPropagator::medianMotion(flow) > parameters.smallMotion)
        return parameters.steadySpread;
    return parameters.steadySpreadAtSmallMotion;
}

// Writes what was carried (and, where the flow failed, the sure prediction) into the open frame's
// labels as the guard allows, and counts.
LabelPropagator::Result merge(const cv::Mat& carried, const cv::Mat& failed, const cv::Mat& targetLabels,
                              const WriteGuard& guard, const LabelPropagator::Prediction& prediction,
                              const LabelPropagator::Parameters& parameters)
{
    const int minConfidence = parameters.minConfidence;
    LabelPropagator::Result result;
    result.labels =
        targetLabels.empty() ? cv::Mat(carried.size(), CV_8UC1, cv::Scalar(data::kUnlabelled)) : targetLabels.clone();
    result.review = cv::Mat(carried.size(), CV_8UC1, cv::Scalar(0));
    const bool predicted = !prediction.classes.empty();
    const cv::Mat confidence = predicted ? confidenceOf(prediction) : cv::Mat();
    for (int y = 0; y < result.labels.rows; ++y) {
        std::uint8_t* out = result.labels.ptr<std::uint8_t>(y);
        std::uint8_t* review = result.review.ptr<std::uint8_t>(y);
        const std::uint8_t* label = carried.ptr<std::uint8_t>(y);
        const std::uint8_t* unsure = failed.ptr<std::uint8_t>(y);
        const std::uint8_t* model = predicted ? prediction.classes.ptr<std::uint8_t>(y) : nullptr;
        const std::uint8_t* sure = confidence.empty() ? nullptr : confidence.ptr<std::uint8_t>(y);
        for (int x = 0; x < result.labels.cols; ++x) {
            const std::uint8_t current = out[x];
            const bool modelCounts = model && (!sure || sure[x] >= minConfidence);
            // Only on a pixel the open frame has no label of its own: the model never replaces the user's.
            const bool overruled = model && current == data::kUnlabelled && label[x] != data::kUnlabelled
                                && model[x] != label[x]
                                && model[x] != data::kUnlabelled
                                && (sure ? int(sure[x]) : 255) >= parameters.modelOverrulesAbove;
            if (overruled && guard.allows(current)) {
                out[x] = model[x];
                ++result.overruled;
            } else if (label[x] != data::kUnlabelled && guard.allows(current)) {
                out[x] = label[x];
                ++result.carried;
                if (modelCounts && model[x] != label[x]) {
                    review[x] = 255;
                    ++result.disagree;
                }
            } else if (unsure[x] && model && (sure ? int(sure[x]) : 255) >= parameters.fillAbove
                       && current == data::kUnlabelled && guard.allows(current) && model[x] != data::kUnlabelled) {
                // Only where the flow failed: a pixel the source left unlabelled stays so.
                out[x] = model[x];
                ++result.filledByModel;
            }
            if (out[x] == data::kUnlabelled)
                ++result.unlabelled;
        }
    }
    return result;
}

// Parameters::superpixelVote: the failed pixels of superpixels mostly carried take their
// superpixel's majority carried label (and are carried then: no longer failed).
void voteInSuperpixels(const cv::Mat& targetImage, double share, cv::Mat& carried, cv::Mat& failed)
{
    const SuperpixelMap superpixels = SuperpixelMap::compute(targetImage);
    if (superpixels.empty())
        return;
    const cv::Mat& ids = superpixels.ids();
    std::vector<std::array<int, 256>> votes(std::size_t(superpixels.count()));
    std::vector<int> sizes(votes.size(), 0);
    for (auto& counts : votes)
        counts.fill(0);
    for (int y = 0; y < ids.rows; ++y)
        for (int x = 0; x < ids.cols; ++x) {
            const int id = ids.at<int>(y, x);
            if (id < 0)
                continue;
            ++sizes[std::size_t(id)];
            const std::uint8_t label = carried.at<std::uint8_t>(y, x);
            if (label != data::kUnlabelled)
                ++votes[std::size_t(id)][label];
        }
    std::vector<int> winner(votes.size(), -1);
    for (std::size_t id = 0; id < votes.size(); ++id) {
        const auto best = std::max_element(votes[id].begin(), votes[id].end());
        const int carriedHere = std::accumulate(votes[id].begin(), votes[id].end(), 0);
        if (sizes[id] > 0 && carriedHere >= share * sizes[id] && *best > 0)
            winner[id] = int(best - votes[id].begin());
    }
    for (int y = 0; y < ids.rows; ++y)
        for (int x = 0; x < ids.cols; ++x) {
            const int id = ids.at<int>(y, x);
            if (id < 0 || winner[std::size_t(id)] < 0 || !failed.at<std::uint8_t>(y, x))
                continue;
            carried.at<std::uint8_t>(y, x) = std::uint8_t(winner[std::size_t(id)]);
            failed.at<std::uint8_t>(y, x) = 0;
        }
}

}  // namespace

double LabelPropagator::medianMotion(const DenseFlow& flow)
{
    const cv::Mat& backward = flow.backward();
    const double toImage = double(flow.imageSize().width) / double(backward.cols);
    std::vector<float> moves;
    for (int y = 0; y < backward.rows; y += 4)
        for (int x = 0; x < backward.cols; x += 4)
            moves.push_back(float(cv::norm(backward.at<cv::Vec2f>(y, x))));
    if (moves.empty())
        return 0.0;
    std::nth_element(moves.begin(), moves.begin() + std::ptrdiff_t(moves.size() / 2), moves.end());
    return double(moves[moves.size() / 2]) * toImage;
}

LabelPropagator::Result LabelPropagator::propagate(const cv::Mat& sourceImage, const cv::Mat& sourceLabels,
                                                   const cv::Mat& targetImage, const cv::Mat& targetLabels,
                                                   const WriteGuard& guard, const Prediction& prediction) const
{
    checkInputs(sourceImage, sourceLabels, targetImage, targetLabels, prediction);
    const DenseFlow flow(targetImage, sourceImage, m_parameters.flow);
    cv::Mat carried, failed;
    const double spread = allowedSpread(flow, m_parameters, !prediction.classes.empty());
    carry(flow, reliablePixels(flow, sourceLabels, m_parameters, spread), sourceLabels, carried, failed);
    if (m_parameters.superpixelVote > 0.0)
        voteInSuperpixels(targetImage, m_parameters.superpixelVote, carried, failed);
    return merge(carried, failed, targetLabels, guard, prediction, m_parameters);
}

}  // namespace segstudio::paint
