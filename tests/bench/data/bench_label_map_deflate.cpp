// The label map encoder against zlib on real maps: time per map and bytes, and a check that zlib
// inflates every map back. Usage: bench_label_map_deflate 'GLOB' (e.g. CamVid's trainannot/*.png).
#include "data/labels/LabelMapDeflate.h"
#include "data/labels/LabelMapIO.h"

#include <chrono>
#include <cstdio>
#include <glob.h>
#include <vector>
#include <zlib.h>

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// What libpng wrote before: zlib level 3 with the run-length strategy.
std::size_t zlibSize(std::vector<unsigned char>& raw, std::vector<unsigned char>& out)
{
    z_stream stream{};
    deflateInit2(&stream, 3, Z_DEFLATED, 15, 8, Z_RLE);
    stream.next_in = raw.data();
    stream.avail_in = uInt(raw.size());
    stream.next_out = out.data();
    stream.avail_out = uInt(out.size());
    deflate(&stream, Z_FINISH);
    const std::size_t size = stream.total_out;
    deflateEnd(&stream);
    return size;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s 'LABEL-MAP-GLOB'\n", argv[0]);
        return 2;
    }
    // Any index is accepted: the maps are read for their indices (palette PNGs are not expanded).
    segstudio::data::ClassSchema anyIndex;
    for (int id = 0; id < segstudio::data::kUnlabelled; ++id)
        anyIndex.add({id, std::to_string(id), {0, 0, 0}, ""});
    glob_t files{};
    glob(argv[1], 0, nullptr, &files);
    std::size_t zlibBytes = 0, ourBytes = 0, wrong = 0;
    double zlibMs = 0, ourMs = 0;
    for (std::size_t f = 0; f < files.gl_pathc; ++f) {
        const cv::Mat labels = segstudio::data::readLabelMap(files.gl_pathv[f], anyIndex);
        std::vector<unsigned char> raw;
        for (int y = 0; y < labels.rows; ++y) {
            raw.push_back(0);
            raw.insert(raw.end(), labels.ptr<unsigned char>(y), labels.ptr<unsigned char>(y) + labels.cols);
        }
        std::vector<unsigned char> out(raw.size() * 2);
        auto start = Clock::now();
        zlibBytes += zlibSize(raw, out);
        zlibMs += millisecondsSince(start);
        start = Clock::now();
        const std::vector<unsigned char> ours = segstudio::data::deflateLabelRows(raw.data(), raw.size(), std::size_t(labels.cols) + 1);
        ourMs += millisecondsSince(start);
        ourBytes += ours.size();
        std::vector<unsigned char> back(raw.size());
        uLongf backSize = uLongf(back.size());
        if (uncompress(back.data(), &backSize, ours.data(), uLong(ours.size())) != Z_OK || back != raw)
            ++wrong;
    }
    const double count = double(files.gl_pathc);
    std::printf("%zu maps: zlib Z_RLE level 3 %.3f ms/map, %zu bytes; LabelMapDeflate %.3f ms/map, %zu bytes; %zu not inflated back\n",
                files.gl_pathc, zlibMs / count, zlibBytes, ourMs / count, ourBytes, wrong);
    globfree(&files);
    return wrong == 0 ? 0 : 1;
}
