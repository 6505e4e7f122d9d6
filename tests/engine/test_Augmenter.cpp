#include "engine/Augmenter.h"

#include <QtTest>

#include <set>

using segstudio::engine::AugmentOptions;
using segstudio::engine::Augmenter;
using segstudio::engine::SampleTransform;

// Image and label must stay aligned pixel for pixel under every random transform.
class TestAugmenter : public QObject {
    Q_OBJECT

private slots:
    void labelsStayAlignedWithImages_data();
    void labelsStayAlignedWithImages();
    void drawIsDeterministicAndBounded();
    void knownShiftMovesContent();
    void cropsAreWindowsOfTheSample();
    void scaledCropsSeeTheWholeScaledImage();
    void scaledLabelsAreNearestNeighbours();
    void colourJitterDrawsBoundedFactors();
    void colourJitterChangesOnlyTheImage();
    void classCropsHoldTheDrawnClass_data();
    void classCropsHoldTheDrawnClass();
    void classCropsLeaveTheOtherDrawsAlone();
};

namespace {

// A pattern where every pixel's colour encodes its label: red = 10 * label + 5, green = label.
std::pair<torch::Tensor, torch::Tensor> patternBatch(int n, int height, int width)
{
    auto labels = torch::remainder(torch::arange(height * width, torch::kLong).view({height, width}) * 7 +
                                       torch::arange(height, torch::kLong).view({height, 1}) * 3,
                                   11)
                      .unsqueeze(0)
                      .repeat({n, 1, 1});
    auto images = torch::stack({labels * 10 + 5, labels, torch::full_like(labels, 200)}, 1).to(torch::kFloat);
    return {images, labels.to(torch::kUInt8)};
}

}  // namespace

void TestAugmenter::labelsStayAlignedWithImages_data()
{
    QTest::addColumn<bool>("flip");
    QTest::addColumn<int>("translate");
    QTest::newRow("flip") << true << 0;
    QTest::newRow("translate") << false << 10;
    QTest::newRow("flip+translate") << true << 10;
}

void TestAugmenter::labelsStayAlignedWithImages()
{
    QFETCH(bool, flip);
    QFETCH(int, translate);
    const Augmenter augmenter(AugmentOptions{flip, translate, false, 1.0, 1.0});
    auto [images, labels] = patternBatch(16, 24, 40);
    const auto transforms = augmenter.draw(16, 123);
    auto [outImages, outLabels] = augmenter.apply(images, labels, transforms);
    QCOMPARE(outImages.sizes(), images.sizes());
    QCOMPARE(outLabels.sizes(), labels.sizes());

    const auto lab = outLabels.to(torch::kLong);
    const auto labelled = lab.ne(255);
    // Labelled pixels: the image pixel under them carries the same label.
    QVERIFY(outImages.select(1, 0).masked_select(labelled).equal((lab.masked_select(labelled) * 10 + 5).to(torch::kFloat)));
    QVERIFY(outImages.select(1, 1).masked_select(labelled).equal(lab.masked_select(labelled).to(torch::kFloat)));
    // Shifted-in pixels: unlabelled and black.
    const auto padding = labelled.logical_not();
    QVERIFY(outImages.select(1, 2).masked_select(padding).eq(0).all().item<bool>());
    QVERIFY(outImages.select(1, 2).masked_select(labelled).eq(200).all().item<bool>());
    if (translate > 0)
        QVERIFY(padding.any().item<bool>());  // some sample did move
    if (flip)
        QVERIFY(!outLabels.equal(labels));
}

void TestAugmenter::drawIsDeterministicAndBounded()
{
    const Augmenter augmenter(AugmentOptions{true, 10, true, 0.5, 2.0});
    const auto a = augmenter.draw(200, 99);
    const auto b = augmenter.draw(200, 99);
    int flips = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].flip, b[i].flip);
        QCOMPARE(a[i].dx, b[i].dx);
        QCOMPARE(a[i].scale, b[i].scale);
        QVERIFY(std::abs(a[i].dx) <= 10 && std::abs(a[i].dy) <= 10);
        QVERIFY(a[i].scale >= 0.5 && a[i].scale <= 2.0);
        flips += a[i].flip;
    }
    QVERIFY(flips > 50 && flips < 150);
}

void TestAugmenter::knownShiftMovesContent()
{
    const Augmenter augmenter(AugmentOptions{false, 10, false, 1.0, 1.0});
    auto [images, labels] = patternBatch(1, 8, 8);
    SampleTransform transform;
    transform.dx = 2;
    transform.dy = -1;
    auto [outImages, outLabels] = augmenter.apply(images, labels, {transform});
    // out[y][x] = in[y + 1][x - 2]
    QCOMPARE(outLabels[0][3][5].item<int>(), labels[0][4][3].item<int>());
    QCOMPARE(outLabels[0][0][1].item<int>(), 255);  // shifted in from the left
    QCOMPARE(outLabels[0][7][4].item<int>(), 255);  // shifted in from below
}

void TestAugmenter::cropsAreWindowsOfTheSample()
{
    // Flip, translation and a 10x16 crop of 24x40 samples; a crop taller than the image keeps its height.
    AugmentOptions options{true, 4, false, 1.0, 1.0};
    options.cropHeight = 10;
    options.cropWidth = 16;
    const Augmenter augmenter(options);
    auto [images, labels] = patternBatch(32, 24, 40);
    const auto transforms = augmenter.draw(32, 7);
    auto [outImages, outLabels] = augmenter.apply(images, labels, transforms);
    QCOMPARE(outImages.sizes(), (torch::IntArrayRef{32, 3, 10, 16}));
    QCOMPARE(outLabels.sizes(), (torch::IntArrayRef{32, 10, 16}));
    const auto lab = outLabels.to(torch::kLong);
    const auto labelled = lab.ne(255);
    QVERIFY(outImages.select(1, 0).masked_select(labelled).equal((lab.masked_select(labelled) * 10 + 5).to(torch::kFloat)));
    // Each crop is the window of the uncropped transform at the drawn offset, and offsets vary.
    auto uncropped = transforms;
    AugmentOptions whole = options;
    whole.cropHeight = whole.cropWidth = 0;
    auto [fullImages, fullLabels] = Augmenter(whole).apply(images, labels, uncropped);
    std::set<std::pair<std::int64_t, std::int64_t>> offsets;
    for (std::size_t i = 0; i < transforms.size(); ++i) {
        const auto top = std::min<std::int64_t>(24 - 10, std::int64_t(transforms[i].windowY * (24 - 10 + 1)));
        const auto left = std::min<std::int64_t>(40 - 16, std::int64_t(transforms[i].windowX * (40 - 16 + 1)));
        QVERIFY(outLabels[std::int64_t(i)].equal(fullLabels[std::int64_t(i)].narrow(0, top, 10).narrow(1, left, 16)));
        offsets.insert({top, left});
    }
    QVERIFY(offsets.size() > 16);

    options.cropHeight = 100;  // taller than the samples: whole height, cropped width
    const auto tall = Augmenter(options).apply(images, labels, transforms);
    QCOMPARE(tall.first.sizes(), (torch::IntArrayRef{32, 3, 24, 16}));
}

// Scale 0.5..2 before a half-size crop: outputs have the crop's size, image content lies exactly
// under labelled pixels, and a sample shrunk to the crop's size is seen whole, without padding.
void TestAugmenter::scaledCropsSeeTheWholeScaledImage()
{
    AugmentOptions options{false, 0, true, 0.5, 2.0};
    options.cropHeight = 12;
    options.cropWidth = 20;
    const Augmenter augmenter(options);
    auto [images, labels] = patternBatch(32, 24, 40);
    auto transforms = augmenter.draw(32, 11);
    transforms[0].scale = 0.5;  // exactly the crop's size: the window is the whole scaled sample
    transforms[1].scale = 2.0;  // 48x80: a 12x20 window of it, no padding anywhere
    auto [outImages, outLabels] = augmenter.apply(images, labels, transforms);
    QCOMPARE(outImages.sizes(), (torch::IntArrayRef{32, 3, 12, 20}));
    QCOMPARE(outLabels.sizes(), (torch::IntArrayRef{32, 12, 20}));
    const auto lab = outLabels.to(torch::kLong);
    const auto labelled = lab.ne(255);
    // Bilinear images blend neighbours, so the constant channel tells content (200, up to float
    // rounding) from padding (0).
    QVERIFY((outImages.select(1, 2).masked_select(labelled) - 200).abs().lt(1e-3).all().item<bool>());
    // Before this, a 0.5x sample was padded back to 24x40 and the window mostly padding.
    QVERIFY(labelled.all().item<bool>());
    QVERIFY(labelled[0].all().item<bool>());
    QVERIFY(labelled[1].all().item<bool>());
    // Nearest-neighbour labels at half size: every second row and column of the original.
    QVERIFY(outLabels[0].equal(labels[0].slice(0, 0, 24, 2).slice(1, 0, 40, 2)) ||
            outLabels[0].equal(labels[0].slice(0, 1, 24, 2).slice(1, 1, 40, 2)));
}

// A scaled label map is the nearest-neighbour resize by pixel centres that torch calls
// nearest-exact, value for value (an index gather now, no longer F::interpolate through float,
// which warned on every sample in LibTorch 1.13).
void TestAugmenter::scaledLabelsAreNearestNeighbours()
{
    const Augmenter augmenter(AugmentOptions{false, 0, true, 0.5, 2.0});
    auto [images, labels] = patternBatch(3, 24, 40);
    auto transforms = augmenter.draw(3, 5);
    const double scales[] = {0.5, 0.75, 0.6};  // 12x20, 18x30, 14x24 (rounded 14.4x24)
    for (std::size_t i = 0; i < 3; ++i) {
        transforms[i].scale = scales[i];
        transforms[i].cropX = transforms[i].cropY = 0.0;  // the shrunk sample at the top left, padded after
    }
    const auto outLabels = augmenter.apply(images, labels, transforms).second;
    namespace F = torch::nn::functional;
    for (std::int64_t i = 0; i < 3; ++i) {
        const std::int64_t h = std::llround(24 * scales[i]), w = std::llround(40 * scales[i]);
        const auto expected = F::interpolate(labels[i].unsqueeze(0).unsqueeze(0).to(torch::kFloat),
                                             F::InterpolateFuncOptions().size(std::vector<std::int64_t>{h, w}).mode(torch::kNearestExact))
                                  .squeeze(0)
                                  .squeeze(0)
                                  .to(torch::kUInt8);
        const auto got = outLabels[i];
        QVERIFY(torch::equal(got.narrow(0, 0, h).narrow(1, 0, w), expected));
        QCOMPARE(got.narrow(0, h, 24 - h).eq(255).all().item<bool>(), true);  // the padding is unlabelled
        QCOMPARE(got.narrow(1, w, 40 - w).eq(255).all().item<bool>(), true);
        QCOMPARE(got.scalar_type(), labels.scalar_type());
    }
}


void TestAugmenter::colourJitterDrawsBoundedFactors()
{
    AugmentOptions options{false, 0, false, 1.0, 1.0};
    QVERIFY(!Augmenter(options).enabled());
    options.colorJitter = 0.3;
    const Augmenter augmenter(options);
    QVERIFY(augmenter.enabled());
    const auto a = augmenter.draw(200, 7);
    const auto b = augmenter.draw(200, 7);
    std::set<double> distinct;
    for (std::size_t i = 0; i < a.size(); ++i) {
        for (double factor : {a[i].brightness, a[i].contrast, a[i].saturation}) {
            QVERIFY(factor >= 0.7 && factor <= 1.3);
            distinct.insert(factor);
        }
        QCOMPARE(a[i].brightness, b[i].brightness);
        QCOMPARE(a[i].saturation, b[i].saturation);
        QCOMPARE(a[i].flip, false);
        QCOMPARE(a[i].dx, 0);
    }
    QVERIFY(distinct.size() > 500);  // three independent draws per sample
}

void TestAugmenter::colourJitterChangesOnlyTheImage()
{
    AugmentOptions options{false, 0, false, 1.0, 1.0};
    options.colorJitter = 0.5;
    const Augmenter augmenter(options);
    auto [images, labels] = patternBatch(1, 6, 8);
    const auto input = images[0];
    const auto luma = 0.299 * input[0] + 0.587 * input[1] + 0.114 * input[2];

    SampleTransform brighter;
    brighter.brightness = 1.5;
    auto [bright, brightLabels] = augmenter.apply(images, labels, {brighter});
    QVERIFY(torch::allclose(bright[0], (input * 1.5).clamp(0, 255)));
    QCOMPARE(bright[0][2][0][0].item<float>(), 255.0f);  // 200 x 1.5, clamped
    QVERIFY(torch::equal(brightLabels, labels));

    SampleTransform flat;
    flat.contrast = 0.0;  // every pixel becomes the image's mean grey
    auto [grey, greyLabels] = augmenter.apply(images, labels, {flat});
    QVERIFY(torch::allclose(grey[0], torch::full_like(input, luma.mean().item<float>()), 1e-4, 1e-3));
    QVERIFY(torch::equal(greyLabels, labels));

    SampleTransform colourless;
    colourless.saturation = 0.0;  // every channel becomes the pixel's luma
    auto [mono, monoLabels] = augmenter.apply(images, labels, {colourless});
    for (int channel = 0; channel < 3; ++channel)
        QVERIFY(torch::allclose(mono[0][channel], luma, 1e-4, 1e-3));
    QVERIFY(torch::equal(monoLabels, labels));

    SampleTransform unchanged;
    QVERIFY(torch::allclose(augmenter.apply(images, labels, {unchanged}).first, images));
}

namespace {

// Road (0) everywhere but a 3x3 sign (6) in each 48x96 sample, at a place that varies with the
// sample, far enough from the edges that a shift of 10 pixels keeps it in.
std::pair<torch::Tensor, torch::Tensor> rareSignBatch(int n)
{
    auto labels = torch::zeros({n, 48, 96}, torch::kUInt8);
    for (int i = 0; i < n; ++i) {
        const int top = 12 + (i * 5) % 22, left = 12 + (i * 23) % 69;
        labels[i].slice(0, top, top + 3).slice(1, left, left + 3).fill_(6);
    }
    auto images = torch::stack({labels * 10 + 5, labels, torch::full_like(labels, 200)}, 1).to(torch::kFloat);
    return {images, labels};
}

}  // namespace

void TestAugmenter::classCropsHoldTheDrawnClass_data()
{
    QTest::addColumn<bool>("scale");
    QTest::newRow("flip, translate") << false;
    QTest::newRow("flip, translate, scale 0.8-1.5") << true;
}

// Every anchored crop holds the class at its anchor, however the sample was flipped, shifted or
// scaled first; so about half the crops hold the 9-pixel sign (two classes per sample), where
// random 12x20 crops seldom do.
void TestAugmenter::classCropsHoldTheDrawnClass()
{
    QFETCH(bool, scale);
    AugmentOptions options{true, 10, scale, 0.8, 1.5};
    options.cropHeight = 12;
    options.cropWidth = 20;
    const int n = 64;
    auto [images, labels] = rareSignBatch(n);
    struct Count {
        int anchoredOnSign = 0;
        int holdingSign = 0;
        QString problem;  // the first anchored crop without its anchor's class
    };
    auto countSigns = [&](const Augmenter& augmenter) {
        const auto transforms = augmenter.draw(labels, 21);
        const auto out = augmenter.apply(images, labels.to(torch::kLong), transforms).second;
        Count count;
        for (int i = 0; i < n; ++i) {
            const auto& t = transforms[std::size_t(i)];
            const bool holds = out[i].eq(6).any().item<bool>();
            count.holdingSign += holds;
            if (!t.anchored)
                continue;
            const int anchorClass = labels[i][std::int64_t(t.anchorY)][std::int64_t(t.anchorX)].item<int>();
            count.anchoredOnSign += anchorClass == 6;
            if (count.problem.isEmpty() && !out[i].eq(anchorClass).any().item<bool>())
                count.problem = QStringLiteral("sample %1: anchored on class %2, its crop holds none").arg(i).arg(anchorClass);
        }
        return count;
    };
    const Count random = countSigns(Augmenter(options));
    QCOMPARE(random.anchoredOnSign, 0);
    options.classCrops = 1.0;
    const Count anchored = countSigns(Augmenter(options));
    QVERIFY2(anchored.problem.isEmpty(), qPrintable(anchored.problem));
    // 1 class in 2: about half the crops anchored on the sign, and each of them holds it.
    QVERIFY2(anchored.anchoredOnSign >= n / 4 && anchored.anchoredOnSign <= 3 * n / 4,
             qPrintable(QString::number(anchored.anchoredOnSign)));
    QVERIFY2(anchored.holdingSign >= anchored.anchoredOnSign && anchored.holdingSign > 2 * random.holdingSign,
             qPrintable(QStringLiteral("%1 crops hold the sign, %2 of random ones").arg(anchored.holdingSign).arg(random.holdingSign)));
}
// Anchors come from their own random stream: the flips, shifts and windows are those of a run
// without class crops, which a resumed run of either kind redraws exactly.
void TestAugmenter::classCropsLeaveTheOtherDrawsAlone()
{
    AugmentOptions options{true, 10, false, 1.0, 1.0};
    options.cropHeight = 12;
    options.cropWidth = 20;
    const auto plain = Augmenter(options).draw(16, 5);
    options.classCrops = 0.5;
    const Augmenter augmenter(options);
    auto labels = rareSignBatch(16).second;
    labels[3].fill_(255);  // nothing labelled: never anchored
    const auto withAnchors = augmenter.draw(labels, 5);
    QCOMPARE(augmenter.draw(labels, 5).size(), withAnchors.size());
    int anchored = 0;
    for (std::size_t i = 0; i < plain.size(); ++i) {
        QCOMPARE(withAnchors[i].flip, plain[i].flip);
        QCOMPARE(withAnchors[i].dx, plain[i].dx);
        QCOMPARE(withAnchors[i].windowX, plain[i].windowX);
        QCOMPARE(withAnchors[i].windowY, plain[i].windowY);
        QCOMPARE(augmenter.draw(labels, 5)[i].anchorX, withAnchors[i].anchorX);
        anchored += withAnchors[i].anchored;
    }
    QVERIFY(!withAnchors[3].anchored);
    QVERIFY2(anchored >= 3 && anchored <= 13, qPrintable(QString::number(anchored)));
}

QTEST_GUILESS_MAIN(TestAugmenter)
#include "test_Augmenter.moc"
