// libFuzzer target for the strategic merge patch. The input is two JSON documents separated by a
// NUL byte, A (the original) and B (the patch), applied with the built-in schema. It must not
// crash and may only throw rr::PatchError; when A has no "$" key, neither may the result; when
// neither document holds a list or a "$" key, the result must equal the JSON merge patch's.
//
//   fuzz_strategic_merge -max_total_time=60 corpus_dir/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "fuzz_support.hpp"
#include "rr/client/patch.hpp"
#include "rr/client/strategic_merge.hpp"

namespace {

using rr::fuzz::die;
using rr::fuzz::too_deep;

std::optional<rr::Json> parse(std::string_view text) {
  rr::Json j = rr::Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

bool has_dollar_key(const rr::Json& j) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if ((!key.empty() && key.front() == '$') || has_dollar_key(value)) return true;
    }
  } else if (j.is_array()) {
    for (const rr::Json& item : j) {
      if (has_dollar_key(item)) return true;
    }
  }
  return false;
}

bool has_list(const rr::Json& j) {
  if (j.is_array()) return true;
  if (j.is_object()) {
    for (const rr::Json& value : j) {
      if (has_list(value)) return true;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find('\0');
  if (split == std::string_view::npos || too_deep(input)) return 0;
  const std::optional<rr::Json> original = parse(input.substr(0, split));
  const std::optional<rr::Json> patch = parse(input.substr(split + 1));
  if (!original || !patch) return 0;

  rr::Json result;
  try {
    result = rr::apply_strategic_merge_patch(*original, *patch, rr::builtin_strategic_schema());
  } catch (const rr::PatchError&) {
    return 0;
  }
  if (!has_dollar_key(*original) && has_dollar_key(result)) die("a directive reached the result");
  if (!has_list(*original) && !has_list(*patch) && !has_dollar_key(*original) && !has_dollar_key(*patch)) {
    if (result != rr::apply_merge_patch(*original, *patch)) die("differs from the JSON merge patch");
  }
  return 0;
}
