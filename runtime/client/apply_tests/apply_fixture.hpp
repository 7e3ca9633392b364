// What the apply tests share: a whole object reduced to what an applier sets.
#pragma once
#include "rr/core/json.hpp"

namespace rr::apply_testing {

// The object as an apply configuration writes it: every metadata (the object's, a pod template's,
// a volume claim template's) only with what an applier may set (ObjectMetaApply's members).
Json as_configuration(Json object);

}  // namespace rr::apply_testing
