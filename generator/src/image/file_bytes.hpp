// A whole file as bytes: what the image is made of (executables, libraries, the CA bundle).
#pragma once
#include <optional>
#include <string>

namespace rrgen::image {

// nullopt when the file cannot be opened or read.
std::optional<std::string> read_file_bytes(const std::string& path);

}  // namespace rrgen::image
