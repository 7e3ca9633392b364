// Kubernetes' JSON round-trip fixtures (k8s.io/api testdata/HEAD, RRGEN_K8S_FIXTURES) are written by
// Go's encoder: each one, read into rr::Json (which forgets the order) and written by
// rr::wire_order, must list every object's members in the fixture's order. Key sequences are
// compared, not bytes, since Go and nlohmann format some numbers differently.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "rr/wire_order/go_order.hpp"

namespace {

using Ordered = nlohmann::ordered_json;

// The first path where the two documents' member orders differ, or empty.
std::string first_difference(const Ordered& want, const Ordered& got, const std::string& path) {
  if (want.is_object() && got.is_object()) {
    std::vector<std::string> a, b;
    for (const auto& item : want.items()) a.push_back(item.key());
    for (const auto& item : got.items()) b.push_back(item.key());
    if (a != b) return path.empty() ? "/" : path;
    for (const auto& item : want.items()) {
      std::string d = first_difference(item.value(), got.at(item.key()), path + "/" + item.key());
      if (!d.empty()) return d;
    }
  } else if (want.is_array() && got.is_array() && want.size() == got.size()) {
    for (std::size_t i = 0; i < want.size(); ++i) {
      std::string d = first_difference(want[i], got[i], path + "/" + std::to_string(i));
      if (!d.empty()) return d;
    }
  }
  return {};
}

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("every fixture of a kind the local cluster serves comes out in the fixture's member order") {
  const char* dir = std::getenv("RRGEN_K8S_FIXTURES");
  REQUIRE_MESSAGE(dir != nullptr, "RRGEN_K8S_FIXTURES is not set");
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  REQUIRE(!files.empty());
  int served = 0, served_exact = 0, other = 0, other_exact = 0;
  for (const auto& path : files) {
    const std::string text = read(path);
    const Ordered want = Ordered::parse(text);
    const rr::Json document = rr::Json::parse(text);
    // A watch event has no kind of its own: it is written by dump_watch_event.
    const bool is_event = !want.contains("kind") && want.contains("type") && want.contains("object");
    const Ordered got = Ordered::parse(
        is_event ? rr::wire_order::dump_watch_event(document.at("type").get<std::string>(), document.at("object"))
                 : rr::wire_order::dump(document));
    const std::string difference = first_difference(want, got, "");
    const bool is_served = is_event ||
                           !rr::wire_order::struct_of(want.value("apiVersion", ""), want.value("kind", "")).empty();
    (is_served ? served : other) += 1;
    if (difference.empty()) (is_served ? served_exact : other_exact) += 1;
    if (is_served) CHECK_MESSAGE(difference.empty(), path.filename().string() << ": order differs at " << difference);
  }
  MESSAGE("fixtures of served kinds in the fixture's order: "
          << served_exact << " of " << served << "; of kinds 1.35 does not serve: " << other_exact << " of " << other);
  CHECK(served >= 90);
}
