// libFuzzer target for extract_applied (rr/client/apply.hpp), which walks the fieldsV1 of an
// object's managedFields, outside input from a server. The input is a JSON object, a NUL byte and
// a manager name. extract_applied must return an object or throw std::invalid_argument, never
// crash; what it returns must be the object's own values (each member of the result is a member of
// the object, recursively; each item of a list one of the object's items, or a part of one), and
// the same input must give the same result. ObjectMetaApply must decode the object's metadata or
// throw rr::DecodeError.
//
//   fuzz_extract_applied -max_total_time=60 corpus_dir/ tests/fuzz/corpus/fuzz_extract_applied/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "json_part.hpp"
#include "rr/client/apply.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace {

using rr::fuzz::die;
using rr::fuzz::part_of;
using rr::fuzz::too_deep;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find('\0');
  if (split == std::string_view::npos || too_deep(input)) return 0;
  const rr::Json object = rr::Json::parse(input.substr(0, split), nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded()) return 0;
  const std::string manager(input.substr(split + 1));
  for (const std::string_view subresource : {"", "status"}) {
    try {
      const rr::Json out = rr::extract_applied(object, manager, subresource);
      if (!out.is_object()) die("extract_applied returned something other than an object");
      if (!part_of(out, object)) die("extract_applied returned a value the object does not have");
      if (rr::extract_applied(object, manager, subresource) != out) die("extract_applied is not deterministic");
    } catch (const std::invalid_argument&) {
    }
  }
  if (object.is_object() && object.contains("metadata")) {
    try {
      (void)object["metadata"].get<rr::ObjectMetaApply>();
    } catch (const rr::DecodeError&) {
    }
  }
  return 0;
}
