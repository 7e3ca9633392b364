// Shared by the label selector's parser and its other constructors.
#pragma once
#include <string>
#include <vector>

#include "rr/client/label_selector.hpp"

namespace rr::detail {

// Why `r` is not a valid requirement (labels.NewRequirement's checks), or "" when it is.
std::string requirement_error(const Selector::Requirement& r);

// Sorts and deduplicates each requirement's values, then the requirements themselves.
void canonicalize(std::vector<Selector::Requirement>& requirements);

}  // namespace rr::detail
