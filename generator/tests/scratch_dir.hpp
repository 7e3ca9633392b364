// For the unit tests that write files: a directory of their own under the system's temporary
// directory, removed at the end of the test, and a file read whole.
#pragma once
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <system_error>

namespace rrgen::testing {

struct ScratchDir {
  std::filesystem::path path;
  explicit ScratchDir(const std::string& prefix = "rrgen-test-") {
    std::random_device random;
    path = std::filesystem::temp_directory_path() / (prefix + std::to_string(random()));
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace rrgen::testing
