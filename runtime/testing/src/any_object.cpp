#include "rr/testing/any_object.hpp"

#include "rr/core/json.hpp"

namespace rr::testing {

namespace detail {
void encode_over(Json& object, const client_detail::ObjectCodec& codec, const void* typed) {
  Json fresh;
  codec.encode(fresh, typed);
  object = std::move(fresh);
}
}  // namespace detail

AnyObject::AnyObject(const client_detail::ObjectCodec& codec, const void* object, KindInfo kind, AdmitFn admit)
    : kind_(std::move(kind)), admit_(std::move(admit)) {
  codec.encode(json_.get(), object);
}

}  // namespace rr::testing
