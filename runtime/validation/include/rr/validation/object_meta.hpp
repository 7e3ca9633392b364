// ObjectMeta validation as the API server applies it (k8s.io/apimachinery/pkg/api/validation
// objectmeta.go and meta/v1/validation), over an object's `metadata` as JSON. Members of the wrong
// JSON type are skipped: refusing them is the decoder's job, and a decode failure is a 400, not a 422.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "rr/core/json.hpp"
#include "rr/validation/field_error.hpp"
#include "rr/validation/names.hpp"

namespace rr::validation {

inline constexpr std::int64_t kTotalAnnotationSizeLimitB = 256 * 1024;
inline constexpr std::int64_t kFieldManagerMaxLength = 128;
inline constexpr std::int64_t kMaxSubresourceNameLength = 256;

// ValidateObjectMetaAccessor: create-time rules. `metadata` is after name generation (both name and
// generateName are checked when both are set). `path` is the metadata's field path.
ErrorList validate_object_meta(const Json& metadata, bool namespaced, NameRule name_rule,
                               std::string_view path = "metadata");

// ValidateObjectMetaAccessorUpdate: the update-only rules (resourceVersion given, generation not
// decremented, name/namespace/uid/creationTimestamp/deletionTimestamp/deletionGracePeriodSeconds
// immutable, no new finalizers once deleting) plus labels, annotations, owner references and
// managed fields of the new metadata.
ErrorList validate_object_meta_update(const Json& new_metadata, const Json& old_metadata,
                                      std::string_view path = "metadata");

// The pieces, for callers that validate other ObjectMeta-shaped values (pod templates' metadata).
ErrorList validate_labels(const Json& labels, std::string_view path);
ErrorList validate_annotations(const Json& annotations, std::string_view path);
ErrorList validate_owner_references(const Json& owner_references, std::string_view path);
ErrorList validate_finalizers(const Json& finalizers, std::string_view path);
ErrorList validate_managed_fields(const Json& managed_fields, std::string_view path);
ErrorList validate_field_manager(std::string_view manager, std::string_view path);

// pkg/apis/core/validation's extra finalizer rule for the built-in kinds: a finalizer without a '/'
// must be a standard one (kubernetes, orphan, foregroundDeletion). Checked per index.
ErrorList validate_kube_finalizer_names(const Json& finalizers, std::string_view path);
// The warnings a custom resource's create/update gets for finalizers it adds (apiextensions'
// validateKubeFinalizerName); `old_finalizers` may be null on create.
std::vector<std::string> custom_resource_finalizer_warnings(const Json& finalizers, const Json* old_finalizers,
                                                            std::string_view path = "metadata.finalizers");

}  // namespace rr::validation
