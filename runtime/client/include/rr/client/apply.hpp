// Typed server-side apply: the apply configurations rrgen generates (`<kind>_apply.hpp`: every
// member optional, so a configuration states only the fields its manager owns), the metadata they
// share (ObjectMetaApply), Client::apply / Client::apply_status, and a client-wide default field
// owner and field validation (controller-runtime's client.WithFieldOwner / WithFieldValidation).
// docs/runtime/38-apply-configurations.md.
//
// Light on purpose, as client.hpp: rr::Json is only forward-declared; the configuration reaches JSON
// through its out-of-line to_json (found by ADL) and the request goes through Client::patch with
// PatchType::Apply, so every client (HTTP, the in-process cluster, the cached client, decorators)
// serves it.
#pragma once
#include <concepts>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rr/client/client.hpp"
#include "rr/core/fwd.hpp"
#include "rr/core/meta.hpp"
#include "rr/core/optional.hpp"

namespace rr {

// The options of one apply (the query parameters of a PATCH with application/apply-patch+yaml).
struct ApplyOptions {
  // Who applies ("" = the client's default field owner, with_field_owner below; the server refuses
  // an apply without one).
  std::string field_manager{};
  // Take the fields other managers own instead of failing with 409 Conflict.
  bool force = false;
  bool dry_run = false;
  FieldValidation field_validation = FieldValidation::Default;
  // Where the server's warnings go (nullptr drops them).
  std::vector<std::string>* warnings = nullptr;
};

// metav1's ObjectMetaApplyConfiguration, the part of metadata an applier may own: every member is
// absent unless set, and only what is set is written.
struct ObjectMetaApply {
  Optional<std::string> name{};
  Optional<std::string> namespace_{};  // JSON "namespace"
  Optional<std::map<std::string, std::string>> labels{};
  Optional<std::map<std::string, std::string>> annotations{};
  Optional<std::vector<OwnerReference>> owner_references{};
  Optional<std::vector<std::string>> finalizers{};
  Optional<std::string> generate_name{};

  bool operator==(const ObjectMetaApply& other) const;
  // Nothing set: the configuration writes no "metadata".
  bool empty() const;
  // Codec hooks (rr::decode / rr::encode of rr/core/codec.hpp), out of line.
  void rr_decode(JsonReader& r);
  void rr_encode(JsonWriter& w) const;
};
void to_json(Json& j, const ObjectMetaApply& v);
void from_json(const Json& j, ObjectMetaApply& v);

// A generated apply configuration: names the kind it configures, carries ObjectMetaApply, and
// encodes to JSON through an ADL to_json.
template <class A>
concept ApplyConfiguration = requires(const A& a, Json& j) {
  typename A::object_type;
  requires Object<typename A::object_type>;
  requires std::same_as<std::remove_cvref_t<decltype(a.metadata)>, ObjectMetaApply>;
  to_json(j, a);
};

namespace client_detail {
// What Client::apply hands to the library: the configuration, type-erased behind its encoder.
struct ApplyRequest {
  const void* config = nullptr;
  void (*encode)(Json& out, const void* config) = nullptr;
  const ObjectMetaApply* metadata = nullptr;
  std::string_view subresource{};  // "" or "status"
};
template <class A>
void encode_apply_erased(Json& out, const void* config) {
  to_json(out, *static_cast<const A*>(config));
}
// Encodes the configuration, sends it as client.patch(kind, key, PatchType::Apply, body,
// subresource, WriteOptions from `opts`) and decodes the answer into *out. Throws
// std::invalid_argument when the configuration has no metadata.name.
void apply_into(Client& client, const KindInfo& kind, const ApplyRequest& request, const ApplyOptions& opts,
                const ObjectCodec& codec, void* out);
}  // namespace client_detail

namespace client_detail {
template <class A>
typename A::object_type apply_typed(Client& client, const A& config, const ApplyOptions& opts,
                                    std::string_view subresource) {
  static_assert(ApplyConfiguration<A>, "Client::apply takes a generated apply configuration (<kind>_apply.hpp)");
  using T = typename A::object_type;
  T out;
  apply_into(client, kind_info_of<T>(), {&config, &encode_apply_erased<A>, &config.metadata, subresource}, opts,
             codec_of<T>, &out);
  return out;
}
}  // namespace client_detail

template <class A>
typename A::object_type Client::apply(const A& config, const ApplyOptions& opts) {
  return client_detail::apply_typed(*this, config, opts, {});
}
template <class A>
typename A::object_type Client::apply(const A& config) {
  return client_detail::apply_typed(*this, config, ApplyOptions{}, {});
}
template <class A>
typename A::object_type Client::apply_status(const A& config, const ApplyOptions& opts) {
  return client_detail::apply_typed(*this, config, opts, "status");
}
template <class A>
typename A::object_type Client::apply_status(const A& config) {
  return client_detail::apply_typed(*this, config, ApplyOptions{}, "status");
}

// A client's default field owner and field validation, controller-runtime's client.WithFieldOwner
// and client.WithFieldValidation: a ForwardingClient that sets them on every write (create,
// update, update_status, patch and so apply) whose options leave them empty / Default, and
// forwards everything else unchanged.
struct WriteDefaults {
  std::string field_manager{};
  FieldValidation field_validation = FieldValidation::Default;
};
std::shared_ptr<Client> with_write_defaults(std::shared_ptr<Client> inner, WriteDefaults defaults);
// Without ownership: `inner` must outlive the returned client.
std::shared_ptr<Client> with_write_defaults(Client& inner, WriteDefaults defaults);
std::shared_ptr<Client> with_field_owner(std::shared_ptr<Client> inner, std::string owner);
std::shared_ptr<Client> with_field_owner(Client& inner, std::string owner);
std::shared_ptr<Client> with_field_validation(std::shared_ptr<Client> inner, FieldValidation validation);
std::shared_ptr<Client> with_field_validation(Client& inner, FieldValidation validation);

// The applied configuration of one manager, as JSON (client-go's managedfields.ExtractInto on an
// unstructured object): from the metadata.managedFields entry of `manager` with operation Apply and
// that subresource ("" or "status"), the object's values at the fields that entry owns (walking
// fieldsV1: "f:" members, "k:{...}" list-map items with their key fields, "v:" set items, "i:"
// indexes, "." the member itself), plus apiVersion, kind, metadata.name and metadata.namespace.
// With no such entry, only those four. The generated extract_<kind> decode it into the kind's
// apply configuration. Throws std::invalid_argument on malformed managedFields.
Json extract_applied(const Json& object, std::string_view manager, std::string_view subresource = {});

}  // namespace rr
