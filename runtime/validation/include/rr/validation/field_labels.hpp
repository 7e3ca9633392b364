// The field selectors a kind accepts, as the API server converts them before a list or watch: a
// built-in kind's field label conversion function (pkg/apis/<group>/v1 conversion.go), or for a
// kind without one apimachinery's DefaultMetaV1FieldSelectorConversion; a custom resource's
// metadata.name, metadata.namespace (namespaced kinds) and its version's selectableFields
// (apiextensions-apiserver's crConverter). Each returns the 400's message for a label the kind
// does not accept, or nullopt.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace rr::validation {

std::optional<std::string> builtin_field_label_error(std::string_view group, std::string_view kind,
                                                     std::string_view label);

// The label a built-in kind's conversion matches for an accepted `label`: itself, except Pod's
// legacy "spec.host", which v1 clients may still send and which means "spec.nodeName".
std::string_view builtin_field_label(std::string_view group, std::string_view kind, std::string_view label);

std::optional<std::string> custom_resource_field_label_error(bool namespaced, std::span<const std::string> selectable,
                                                             std::string_view label);

}  // namespace rr::validation
