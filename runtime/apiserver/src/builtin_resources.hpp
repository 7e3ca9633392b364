// rr::builtin's table of kinds (every kind of Kubernetes 1.35, generated from
// schemas/kubernetes-1.35/) as the local cluster uses it: which kinds are resources it stores, what
// discovery says of them, and each kind's codec for admission and protobuf bodies.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rr/client/kind.hpp"
#include "rr/core/kind_codec.hpp"

namespace rr::apiserver_detail {

// Every row of rr::builtin's table (resources, their lists, Scale, DeleteOptions ...).
std::span<const KindCodec> builtin_codecs();
// The row of an apiVersion and kind; null when rr::builtin has none (a custom resource).
const KindCodec* builtin_codec(std::string_view api_version, std::string_view kind);
const KindCodec* builtin_codec(const GroupVersionKind& gvk);
// The row of a served kind when it is that built-in resource (same GVK and plural); null for a
// custom resource.
const KindCodec* builtin_resource(const KindInfo& kind);

// The kinds the local cluster stores: every resource kind that can be read back ("get" among its
// verbs). The create-only reviews (TokenReview, SubjectAccessReview ...) and Binding are not.
std::vector<const KindCodec*> stored_builtin_resources();
// The KindInfo of a resource row.
KindInfo kind_info_of(const KindCodec& row);
// "create delete get" -> {"create", "delete", "get"}.
std::vector<std::string> verbs_of(const KindResource& resource);

}  // namespace rr::apiserver_detail
