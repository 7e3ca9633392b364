// The CEL declaration of a schema node (k8s.io/apiserver/pkg/cel/common SchemaDeclType): the type
// `self` has, with the size bounds and minimum serialized sizes the cost estimator reads.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rr/cel/types.hpp"
#include "rr/core/json.hpp"

namespace rr::schema::detail {

// The API server's request size limit: what bounds a list, map or string the schema leaves unbounded.
inline constexpr std::int64_t kMaxRequestSizeBytes = 3 * 1024 * 1024;

struct DeclType {
  rr::cel::CelType type;
  std::int64_t min_serialized_size = 0;  // the shortest JSON a value of this node can be
};

// Kubernetes' CEL name of a property (apiserver's cel.Escape): `__word__` for a CEL reserved word,
// `__dash__`, `__dot__`, `__slash__`, `__underscores__` inside a name; nullopt for a name CEL cannot
// spell (a leading digit, any other character), which rules then cannot select.
std::optional<std::string> escape_property(std::string_view name);

// nullopt where Kubernetes exposes nothing to CEL: a node without a type (other than
// int-or-string), a list whose items are not exposed, a map whose values are not. resource_root
// declares apiVersion, kind and metadata.name/generateName (the root of a custom or embedded
// resource). type_name names object types ("selfType.spec.template"), as cel-go's messages do.
std::optional<DeclType> decl_type(const rr::Json& schema, bool resource_root, const std::string& type_name);

// The schema with apiVersion, kind and metadata {name, generateName} declared, as the API server
// widens the root of a resource before typing and converting it.
rr::Json with_type_and_object_meta(const rr::Json& schema);

}  // namespace rr::schema::detail
