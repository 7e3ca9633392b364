#include "rr/testing/stashed_value.hpp"

#include "rr/core/json.hpp"

namespace rr::testing {

namespace detail {

namespace {
Json encoded(const client_detail::ObjectCodec& codec, const void* object) {
  Json out;
  codec.encode(out, object);
  return out;
}
}  // namespace

std::string describe_typed_object(const client_detail::ObjectCodec& codec, const void* object) {
  return describe_json(encoded(codec, object));
}

std::string diff_typed_objects(const client_detail::ObjectCodec& codec, const void* expected, const void* actual) {
  return diff_objects(encoded(codec, expected), encoded(codec, actual), ObjectComparison::StashedValue);
}

}  // namespace detail

StashedValue StashedValue::of(const char* text) { return of(std::string(text)); }

}  // namespace rr::testing
