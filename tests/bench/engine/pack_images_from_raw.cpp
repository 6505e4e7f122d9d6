// The far side of camvid_jpeg_copy.py: a pack whose labels and class table come from a skeleton
// (the original pack with its image block zeroed, so its checksum no longer holds) and whose images
// come from a raw HWC RGB block, written by core/pack's own writer so the result is checksummed and
// the trainer accepts it like any other pack.
//   pack_images_from_raw SKELETON.pack IMAGES.rgb OUT.pack
#include "pack/PackError.h"
#include "pack/PackReader.h"
#include "pack/PackWriter.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace segstudio::pack;

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s SKELETON.pack IMAGES.rgb OUT.pack\n", argv[0]);
        return 2;
    }
    const std::string skeletonPath = argv[1], imagesPath = argv[2], outPath = argv[3];
    try {
        const PackReader skeleton(skeletonPath, /*verifyChecksum=*/false);
        const std::size_t imageBytes = skeleton.spec().imageBytes();
        const std::uintmax_t expected = skeleton.size() * imageBytes;
        const std::uintmax_t actual = std::filesystem::file_size(imagesPath);
        if (actual != expected)
            throw PackError(imagesPath, std::to_string(actual) + " bytes, the skeleton's " +
                                            std::to_string(skeleton.size()) + " images need " + std::to_string(expected));
        std::ifstream images(imagesPath, std::ios::binary);
        PackWriter writer(outPath, skeleton.spec(), skeleton.size());
        std::vector<char> image(imageBytes);
        for (std::size_t n = 0; n < skeleton.size(); ++n) {
            if (!images.read(image.data(), std::streamsize(imageBytes)))
                throw PackError(imagesPath, "read failed at image " + std::to_string(n));
            writer.write(n, reinterpret_cast<const std::uint8_t*>(image.data()), skeleton.label(n));
        }
        writer.finish();
        std::printf("%s: %zu images %ux%u, %zu classes\n", outPath.c_str(), skeleton.size(), skeleton.spec().height,
                    skeleton.spec().width, skeleton.spec().classes.size());
    } catch (const std::exception& error) {  // PackError and filesystem errors both name the file
        std::fprintf(stderr, "pack_images_from_raw: %s\n", error.what());
        return 1;
    }
    return 0;
}
