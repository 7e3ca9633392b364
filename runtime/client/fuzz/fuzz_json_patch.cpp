// libFuzzer target for JSON Patch and JSON Merge Patch. The input is two JSON documents separated
// by a NUL byte, A and B. Applying B to A as either kind of patch must not crash (a JSON patch may
// only throw rr::PatchError); create_json_patch(A, B) applied to A must give B, and so must
// create_merge_patch when neither document contains a null.
//
//   fuzz_json_patch -max_total_time=60 corpus_dir/ tests/fuzz/corpus/fuzz_json_patch/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "fuzz_support.hpp"
#include "rr/client/patch.hpp"

namespace {

using rr::fuzz::die;
using rr::fuzz::too_deep;

std::optional<rr::Json> parse(std::string_view text) {
  rr::Json j = rr::Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

bool contains_null(const rr::Json& j) {
  if (j.is_null()) return true;
  if (j.is_structured()) {
    for (const rr::Json& item : j) {
      if (contains_null(item)) return true;
    }
  }
  return false;
}

// "copy" doubles a document per operation: many of them only measure memory.
bool amplifies(const rr::Json& patch) {
  if (!patch.is_array()) return false;
  int copies = 0;
  for (const rr::Json& op : patch) {
    if (op.is_object() && op.contains("op") && op["op"] == "copy") ++copies;
  }
  return copies > 8;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find('\0');
  if (split == std::string_view::npos || too_deep(input)) return 0;
  const std::optional<rr::Json> a = parse(input.substr(0, split));
  const std::optional<rr::Json> b = parse(input.substr(split + 1));
  if (!a || !b) return 0;

  if (!amplifies(*b)) {
    try {
      (void)rr::apply_json_patch(*a, *b);
    } catch (const rr::PatchError&) {
    }
  }
  (void)rr::apply_merge_patch(*a, *b);

  const rr::Json json_patch = rr::create_json_patch(*a, *b);
  try {
    if (rr::apply_json_patch(*a, json_patch) != *b) die("create_json_patch(a, b) applied to a is not b");
  } catch (const rr::PatchError&) {
    die("create_json_patch(a, b) does not apply to a");
  }
  if (rr::create_json_patch(*a, *b) != json_patch) die("create_json_patch is not deterministic");

  if (!contains_null(*a) && !contains_null(*b)) {
    if (rr::apply_merge_patch(*a, rr::create_merge_patch(*a, *b)) != *b) {
      die("create_merge_patch(a, b) applied to a is not b");
    }
  }
  return 0;
}
