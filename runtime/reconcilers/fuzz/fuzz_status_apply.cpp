// libFuzzer target for status_apply_configuration (rr/reconcilers/status_apply.hpp), which walks
// the managedFields of the resource as read (outside input from a server) beside the status the
// reconcile computed. The input is the object as read, a NUL byte, the computed object, a NUL byte
// and a manager name. It must never throw or crash; the configuration it returns must be an
// object whose status is made of the computed status's values (a part of it), the same input must
// give the same result, and without managedFields the whole computed status must be sent.
//
//   fuzz_status_apply -max_total_time=60 corpus_dir/ tests/fuzz/corpus/fuzz_status_apply/
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "../../client/fuzz/fuzz_support.hpp"
#include "../../client/fuzz/json_part.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/status_apply.hpp"

namespace {

using rr::fuzz::die;
using rr::fuzz::part_of;
using rr::fuzz::too_deep;

bool has_managed_fields(const rr::Json& object) {
  if (!object.is_object()) return false;
  const auto metadata = object.find("metadata");
  return metadata != object.end() && metadata->is_object() && metadata->contains("managedFields");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t first = input.find('\0');
  if (first == std::string_view::npos || too_deep(input)) return 0;
  const std::size_t second = input.find('\0', first + 1);
  if (second == std::string_view::npos) return 0;
  const rr::Json original = rr::Json::parse(input.substr(0, first), nullptr, /*allow_exceptions=*/false);
  const rr::Json computed = rr::Json::parse(input.substr(first + 1, second - first - 1), nullptr,
                                            /*allow_exceptions=*/false);
  if (original.is_discarded() || computed.is_discarded()) return 0;
  const std::string manager(input.substr(second + 1));

  const rr::Json out = rr::status_apply_configuration(original, computed, manager);
  if (!out.is_object()) die("the configuration is not an object");
  if (rr::status_apply_configuration(original, computed, manager) != out) die("not deterministic");
  const bool has_status = computed.is_object() && computed.contains("status") && !computed["status"].is_null();
  if (out.contains("status") != has_status) die("a status sent without one computed, or none sent");
  if (has_status) {
    // An object status keeps its type even when everything in it is left out.
    if (!part_of(out["status"], computed["status"]) && out["status"] != rr::Json::object())
      die("the configuration holds a value the computed status does not have");
    if (!has_managed_fields(original) && out["status"] != computed["status"])
      die("without managedFields the whole status must be sent");
  }
  return 0;
}
