#pragma once

#include <optional>
#include <string>

namespace segstudio::data {
inline namespace formats {

// RFC 4648 base64 (padding optional, whitespace skipped), as labelme embeds images; nullopt for a
// character outside the alphabet.
std::optional<std::string> decodeBase64(const std::string& text);

}  // namespace formats
}  // namespace segstudio::data
