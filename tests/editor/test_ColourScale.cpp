#include "paint/ColourScale.h"

#include <QTest>

#include <cstdint>

using segstudio::paint::ColourScale;

namespace {

int red(std::uint32_t c) { return int(c >> 16 & 0xff); }
int green(std::uint32_t c) { return int(c >> 8 & 0xff); }
int blue(std::uint32_t c) { return int(c & 0xff); }
// Rec. 601 luma: Turbo rises in lightness to green-yellow, then falls to dark red.
double luma(std::uint32_t c) { return 0.299 * red(c) + 0.587 * green(c) + 0.114 * blue(c); }

}  // namespace

// The one heat-map scale (issue 26): the editor's layers and the report's confusion matrix.
class TestColourScale : public QObject {
    Q_OBJECT

private slots:
    void turboRunsFromDarkBlueThroughGreenToDarkRed()
    {
        const std::uint32_t low = ColourScale::turbo(0.0);
        const std::uint32_t middle = ColourScale::turbo(0.5);
        const std::uint32_t high = ColourScale::turbo(1.0);
        QCOMPARE(low >> 24, 0xffu);  // opaque, QRgb's layout
        const std::uint32_t cold = ColourScale::turbo(0.15);
        QVERIFY(blue(cold) > red(cold) && blue(cold) > green(cold));
        QVERIFY(green(middle) > red(middle) && green(middle) > blue(middle));
        QVERIFY(red(high) > green(high) && red(high) > blue(high));
        QVERIFY(luma(low) < 80 && luma(high) < 80 && luma(middle) > 150);
        QCOMPARE(ColourScale::turbo(-3.0), low);  // clamped
        QCOMPARE(ColourScale::turbo(7.0), high);
    }

    void theTableIsTheScale()
    {
        const auto& table = ColourScale::turboTable();
        for (int v : {0, 1, 64, 128, 200, 255})
            QCOMPARE(table[std::size_t(v)], ColourScale::turbo(v / 255.0));
    }
};

QTEST_APPLESS_MAIN(TestColourScale)
#include "test_ColourScale.moc"
