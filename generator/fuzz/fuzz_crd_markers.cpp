// libFuzzer target: arbitrary bytes as the comment lines above a member or struct that `rrgen crd`
// reads (crd/crd_markers: the markers, their values, JSON defaults), and as the marker values the
// builder parses. Properties: no crash; every refusal says why; a marker that parses keeps a known
// name, and what json_value accepts writes as YAML.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "crd/crd_markers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rrgen;
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<CommentLine> lines;
  std::size_t start = 0;
  for (std::uint32_t n = 1; start <= text.size(); ++n) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back({Location{intern_file_name("fuzz.hpp"), n, 4}, text.substr(start, end - start)});
    start = end + 1;
  }
  Diagnostics diags;
  const CommentFacts facts = read_comment(lines, diags);
  for (const Diagnostic& d : diags.all()) {
    if (d.message.empty() || d.check.empty()) __builtin_trap();
  }
  for (const Marker& m : facts.markers) {
    if (m.name.empty()) __builtin_trap();
    std::string why;
    if (std::optional<Yaml> v = json_value(m.value, why)) {
      (void)v->text();
    } else if (why.empty()) {
      __builtin_trap();
    }
    if (!marker_string(m.value, why) && why.empty()) __builtin_trap();
    (void)marker_list(m.value);
    (void)json_number(m.value);
    (void)marker_count(m.value);
    for (const auto& [k, v] : m.args) (void)marker_string(v, why);
  }
  return 0;
}
