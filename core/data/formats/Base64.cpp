#include "Base64.h"

#include <array>
#include <cctype>

namespace segstudio::data {
inline namespace formats {

std::optional<std::string> decodeBase64(const std::string& text)
{
    static const std::array<int, 256> value = [] {
        std::array<int, 256> table{};
        table.fill(-1);
        const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (std::size_t i = 0; i < alphabet.size(); ++i)
            table[static_cast<unsigned char>(alphabet[i])] = int(i);
        return table;
    }();
    std::string bytes;
    bytes.reserve(text.size() * 3 / 4);
    unsigned buffer = 0;
    int bits = 0;
    for (const char c : text) {
        if (c == '=')
            break;
        if (std::isspace(static_cast<unsigned char>(c)))
            continue;
        const int v = value[static_cast<unsigned char>(c)];
        if (v < 0)
            return std::nullopt;
        buffer = (buffer << 6) | unsigned(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes.push_back(char((buffer >> bits) & 0xff));
        }
    }
    return bytes;
}

}  // namespace formats
}  // namespace segstudio::data
