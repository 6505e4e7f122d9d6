#include "engine/input/Augmenter.h"

#include "ReferenceAugmenter.h"

#include <QtTest>

#include <random>
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
    void batchedApplyMatchesThePerSampleSteps_data();
    void batchedApplyMatchesThePerSampleSteps();
    void aSampleDoesNotDependOnItsBatch_data();
    void aSampleDoesNotDependOnItsBatch();
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

namespace {

// The option sets both batched tests run through.
void addOptionRows()
{
    QTest::addColumn<bool>("flip");
    QTest::addColumn<int>("translate");
    QTest::addColumn<bool>("scale");  // 0.5-1.5
    QTest::addColumn<int>("cropHeight");
    QTest::addColumn<int>("cropWidth");
    QTest::addColumn<double>("classCrops");
    QTest::addColumn<double>("jitter");
    QTest::newRow("flip") << true << 0 << false << 0 << 0 << 0.0 << 0.0;
    QTest::newRow("translate") << false << 10 << false << 0 << 0 << 0.0 << 0.0;
    QTest::newRow("flip, translate") << true << 10 << false << 0 << 0 << 0.0 << 0.0;
    QTest::newRow("crop") << true << 6 << false << 12 << 20 << 0.0 << 0.0;
    QTest::newRow("crop taller than the samples") << true << 6 << false << 100 << 16 << 0.0 << 0.0;
    QTest::newRow("class-uniform crops") << true << 10 << false << 12 << 20 << 0.7 << 0.0;
    QTest::newRow("scale") << true << 10 << true << 0 << 0 << 0.0 << 0.0;
    QTest::newRow("scale, crop") << true << 10 << true << 12 << 20 << 0.0 << 0.0;
    QTest::newRow("scale, class-uniform crops") << true << 10 << true << 12 << 20 << 0.7 << 0.0;
    QTest::newRow("jitter") << false << 0 << false << 0 << 0 << 0.0 << 0.4;
    QTest::newRow("jitter, flip, translate, crop") << true << 10 << false << 12 << 20 << 0.0 << 0.4;
    QTest::newRow("everything") << true << 10 << true << 12 << 20 << 0.5 << 0.4;
}

AugmentOptions fetchOptions()
{
    QFETCH(bool, flip);
    QFETCH(int, translate);
    QFETCH(bool, scale);
    QFETCH(int, cropHeight);
    QFETCH(int, cropWidth);
    QFETCH(double, classCrops);
    QFETCH(double, jitter);
    AugmentOptions options{flip, translate, scale, 0.5, 1.5};
    options.cropHeight = cropHeight;
    options.cropWidth = cropWidth;
    options.classCrops = classCrops;
    options.colorJitter = jitter;
    return options;
}

// n random samples: images of noise over the whole 0..255 range, labels of 6 classes with about
// one pixel in 7 unlabelled (uint8, on the host, as the class-uniform draw reads them).
std::pair<torch::Tensor, torch::Tensor> randomBatch(std::int64_t n, std::int64_t height, std::int64_t width,
                                                    std::uint64_t seed)
{
    torch::manual_seed(seed);
    auto images = torch::rand({n, 3, height, width}) * 255.0;
    auto labels = torch::randint(0, 7, {n, height, width}, torch::kUInt8);
    labels.masked_fill_(labels.eq(6), 255);
    return {images, labels};
}

// Within float rounding of the per-sample bilinear resize and colour jitter.
bool closeImages(const torch::Tensor& got, const torch::Tensor& expected)
{
    return torch::allclose(got, expected, /*rtol=*/1e-5, /*atol=*/1e-4);
}

double largestDifference(const torch::Tensor& got, const torch::Tensor& expected)
{
    return got.numel() == 0 ? 0.0 : (got - expected).abs().max().item<double>();
}

}  // namespace

void TestAugmenter::batchedApplyMatchesThePerSampleSteps_data()
{
    addOptionRows();
}

// The batched apply gives what the per-sample steps gave (ReferenceAugmenter.h, the code before
// issue 48): labels exactly, images exactly where only integer steps move them, and within float
// rounding where they are resized or jittered. Random sizes, batch sizes, label types and
// transforms, and a few transforms forced to the edge cases.
void TestAugmenter::batchedApplyMatchesThePerSampleSteps()
{
    const AugmentOptions options = fetchOptions();
    const Augmenter augmenter(options);
    const bool exactImages = !options.scaleCrop && options.colorJitter == 0;
    std::mt19937_64 random(48);
    for (std::uint64_t seed = 0; seed < 16; ++seed) {
        const std::int64_t n = 1 + std::int64_t(random() % 9);
        const std::int64_t height = 16 + std::int64_t(random() % 25), width = 20 + std::int64_t(random() % 37);
        const auto [images, hostLabels] = randomBatch(n, height, width, seed);
        if (seed % 7 == 3)
            hostLabels[n - 1].fill_(255);  // nothing labelled: never anchored
        auto transforms = augmenter.draw(hostLabels, seed);
        if (options.scaleCrop && n > 1 && seed % 4 == 1)
            transforms[0].scale = 1.0;  // an unscaled sample among scaled ones
        if (options.scaleCrop && seed % 4 == 3)
            transforms[std::size_t(n - 1)].scale = 1.001;  // scaled, but back to its own size
        if (options.translate > 0 && seed % 5 == 2)
            transforms[0].dx = 2 * int(width) + 3;  // out of even a 1.5x sample: all fill
        if (options.scaleCrop && seed % 6 == 5)
            transforms[std::size_t(n - 1)].cropX = transforms[std::size_t(n - 1)].cropY = 0.0;
        const auto labels = seed % 3 == 0 ? hostLabels.to(torch::kLong) : hostLabels;

        const auto [gotImages, gotLabels] = augmenter.apply(images, labels, transforms);
        const auto [expectedImages, expectedLabels] =
            segstudio::engine::reference::apply(options, images, labels, transforms);
        const QString where = QStringLiteral("seed %1: %2 samples of %3x%4").arg(seed).arg(n).arg(height).arg(width);
        QCOMPARE(gotLabels.sizes(), expectedLabels.sizes());
        QCOMPARE(gotLabels.scalar_type(), expectedLabels.scalar_type());
        QVERIFY2(torch::equal(gotLabels, expectedLabels), qPrintable(where));
        QCOMPARE(gotImages.sizes(), expectedImages.sizes());
        QCOMPARE(gotImages.scalar_type(), expectedImages.scalar_type());
        const double difference = largestDifference(gotImages, expectedImages);
        QVERIFY2(exactImages ? torch::equal(gotImages, expectedImages) : closeImages(gotImages, expectedImages),
                 qPrintable(QStringLiteral("%1: images differ by up to %2").arg(where).arg(difference)));
    }
}

void TestAugmenter::aSampleDoesNotDependOnItsBatch_data()
{
    addOptionRows();
}

// Sample i of a batch of 8 is what the same sample alone, with the same transform, becomes: the
// maps are per sample, and no operation mixes samples (but the jitter's mean grey, a reduction
// that may round differently over a batch).
void TestAugmenter::aSampleDoesNotDependOnItsBatch()
{
    const AugmentOptions options = fetchOptions();
    const Augmenter augmenter(options);
    for (std::uint64_t seed = 100; seed < 104; ++seed) {
        const auto [images, labels] = randomBatch(8, 30, 44, seed);
        auto transforms = augmenter.draw(labels, seed);
        if (options.scaleCrop)
            transforms[2].scale = 1.0;  // alone, an unscaled sample skips the resize
        const auto [batchImages, batchLabels] = augmenter.apply(images, labels, transforms);
        for (std::int64_t i = 0; i < 8; ++i) {
            const auto [image, label] =
                augmenter.apply(images.narrow(0, i, 1), labels.narrow(0, i, 1), {transforms[std::size_t(i)]});
            const QString where = QStringLiteral("seed %1, sample %2").arg(seed).arg(i);
            QVERIFY2(torch::equal(label[0], batchLabels[i]), qPrintable(where));
            const bool same = options.colorJitter > 0 ? closeImages(image[0], batchImages[i])
                                                      : torch::equal(image[0], batchImages[i]);
            QVERIFY2(same, qPrintable(QStringLiteral("%1: images differ by up to %2")
                                          .arg(where)
                                          .arg(largestDifference(image[0], batchImages[i]))));
        }
    }
}

QTEST_GUILESS_MAIN(TestAugmenter)
#include "test_Augmenter.moc"
