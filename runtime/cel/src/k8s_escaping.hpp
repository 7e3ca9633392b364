// Kubernetes' escaping of property names in CEL (apiserver's cel/escaping.go): a property that is
// a CEL reserved word is written `__word__`; in other names `__` is written `__underscores__`, `.`
// `__dot__`, `-` `__dash__` and `/` `__slash__`.
#pragma once
#include <string>
#include <string_view>

namespace rr::cel {

// The property name an escaped CEL field name stands for (the name itself when nothing is escaped).
std::string unescape_property(std::string_view name);

}  // namespace rr::cel
