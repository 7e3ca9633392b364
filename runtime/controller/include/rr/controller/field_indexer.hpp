// The functions behind the informer cache's field indexes (InformerCache::index_field; the field
// names and the selector text are in rr/client/field_index.hpp).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "rr/client/field_index.hpp"
#include "rr/core/json.hpp"

namespace rr {

// The values an object is indexed under for one field (none: not in the index). Must not throw.
using FieldIndexFn = std::function<std::vector<std::string>(const Json& object)>;

// The indexer of controller_owner_field: the uid of the controller owner reference, if any.
std::vector<std::string> controller_owner_uid(const Json& object);

}  // namespace rr
