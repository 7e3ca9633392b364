// What create and update validation share (validateObjectMetaAccessorWithOptsCommon).
#pragma once
#include <iterator>
#include <string_view>

#include "rr/core/json.hpp"
#include "rr/validation/field_error.hpp"

namespace rr::validation::detail {

inline void append(ErrorList& to, ErrorList more) {
  to.insert(to.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

ErrorList validate_common(const Json& metadata, bool namespaced, std::string_view path);

}  // namespace rr::validation::detail
