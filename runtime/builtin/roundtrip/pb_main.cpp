// rrgen-roundtrip-pb: the protobuf fixtures of a folder in k8s.io/api's testdata layout through
// rr::builtin's protobuf codecs (pb_check.hpp); each .pb is compared with its .json sibling.
//   rrgen-roundtrip-pb [--verbose] DIR
// Prints each failure (with --verbose every fixture), then
//   roundtrip: N passed, M failed, K skipped
// Exit status: 0 when nothing failed, 1 when something did, 2 on a usage error or unreadable DIR.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "pb_check.hpp"

std::span<const rr::KindCodec> rr_builtin_types_kinds() noexcept;

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "apps.v1.Deployment" -> "apps/v1|Deployment"; "core.v1.Pod" -> "v1|Pod".
std::string kind_key(const std::string& stem) {
  const auto kind_dot = stem.rfind('.');
  if (kind_dot == std::string::npos || kind_dot == 0) return {};
  const auto version_dot = stem.rfind('.', kind_dot - 1);
  if (version_dot == std::string::npos) return {};
  const std::string group = stem.substr(0, version_dot);
  const std::string version = stem.substr(version_dot + 1, kind_dot - version_dot - 1);
  return (group == "core" ? version : group + "/" + version) + "|" + stem.substr(kind_dot + 1);
}

}  // namespace

int main(int argc, char** argv) {
  bool verbose = false;
  std::vector<std::string> dirs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--verbose") verbose = true;
    else if (!a.empty() && a[0] == '-') {
      std::cerr << "usage: rrgen-roundtrip-pb [--verbose] DIR\n";
      return a == "--help" || a == "-h" ? 0 : 2;
    } else dirs.push_back(a);
  }
  if (dirs.size() != 1) {
    std::cerr << "rrgen-roundtrip-pb: give one folder of fixtures\n";
    return 2;
  }
  std::map<std::string, const rr::KindCodec*> codecs;
  for (const auto& c : rr_builtin_types_kinds()) codecs[std::string(c.api_version) + "|" + std::string(c.kind)] = &c;
  std::vector<std::filesystem::path> files;
  try {
    for (const auto& e : std::filesystem::directory_iterator(dirs.front()))
      if (e.is_regular_file() && e.path().extension() == ".pb") files.push_back(e.path());
  } catch (const std::exception& e) {
    std::cerr << "rrgen-roundtrip-pb: " << e.what() << "\n";
    return 2;
  }
  std::sort(files.begin(), files.end());
  std::size_t passed = 0, failed = 0, skipped = 0;
  for (const auto& path : files) {
    const std::string file = path.filename().string();
    const auto codec = codecs.find(kind_key(path.stem().string()));
    if (codec == codecs.end()) {
      ++skipped;
      if (verbose) std::cout << "skipped: " << file << ": not served by this API\n";
      continue;
    }
    std::optional<std::string> json;
    if (auto p = std::filesystem::path(path).replace_extension(".json"); std::filesystem::exists(p)) {
      try {
        json = codec->second->reencode(read_file(p));
      } catch (const std::exception&) {
        // the JSON form's own check reports it; compare the bytes only
      }
    }
    const rr::roundtrip::PbResult r = rr::roundtrip::check_pb_fixture(*codec->second, read_file(path),
                                                                      json ? &*json : nullptr);
    ++(r.passed ? passed : failed);
    if (!r.passed || verbose)
      std::cout << (r.passed ? "passed: " : "FAILED: ") << file << (r.detail.empty() ? "" : ": " + r.detail) << "\n";
  }
  std::cout << "roundtrip: " << passed << " passed, " << failed << " failed, " << skipped << " skipped\n";
  return failed ? 1 : 0;
}
