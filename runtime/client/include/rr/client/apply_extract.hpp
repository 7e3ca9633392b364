// What the generated extract_<kind> call (docs/runtime/38-apply-configurations.md): rr::extract_applied
// over typed values, out of line, so the generated sources instantiate none of rr::Json (nlohmann's
// templates were a fifth of an apply shard's compile time).
#pragma once
#include <string_view>

#include "rr/core/fwd.hpp"

namespace rr {

// `object` encoded through `encode_object`, rr::extract_applied(object, manager, subresource)
// (rr/client/apply.hpp) decoded into `configuration` through `decode_configuration` (the kind's
// and the configuration's rr_encode / rr_decode hooks). Throws std::invalid_argument on malformed
// managedFields, rr::DecodeError when the extract does not fit the configuration.
void extract_applied_into(const void* object, void (*encode_object)(JsonWriter&, const void*), std::string_view manager,
                          std::string_view subresource, void* configuration,
                          void (*decode_configuration)(JsonReader&, void*));

}  // namespace rr
