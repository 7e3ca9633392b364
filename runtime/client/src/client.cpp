// The out-of-line parts of the client interface: the verbs' non-virtual entry points, key_of,
// ForwardingClient, and the typed calls of Api<T> and DynamicApi<T> with their namespace check (one
// translation unit: each is a few lines over the same headers).
#include "rr/client/client.hpp"

#include <stdexcept>

#include "rr/client/api.hpp"
#include "rr/client/forwarding_client.hpp"
#include "rr/client/watch.hpp"
#include "rr/core/json.hpp"

namespace rr {

KindInfo Client::kind_info(const GroupVersionKind& gvk) const { return do_kind_info(gvk); }
Json Client::get(const KindInfo& kind, const ObjectKey& key) { return do_get(kind, key); }
Json Client::list(const KindInfo& kind, const ListOptions& opts) { return do_list(kind, opts); }
Json Client::create(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return do_create(kind, object, opts);
}
Json Client::update(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return do_update(kind, object, opts);
}
Json Client::update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return do_update_status(kind, object, opts);
}
Json Client::patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                   std::string_view subresource, const WriteOptions& opts) {
  return do_patch(kind, key, type, body, subresource, opts);
}
Json Client::remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) {
  return do_remove(kind, key, opts);
}
void Client::remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) {
  do_remove_collection(kind, list, opts);
}
std::unique_ptr<Watch> Client::watch(const KindInfo& kind, const ListOptions& opts) { return do_watch(kind, opts); }
bool Client::has_field_index(const KindInfo& kind, std::string_view field) const {
  return do_has_field_index(kind, field);
}

ObjectKey key_of(const Json& object) {
  ObjectKey key;
  if (!object.is_object()) return key;
  const auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return key;
  if (const auto ns = metadata->find("namespace"); ns != metadata->end() && ns->is_string()) {
    key.namespace_ = ns->get<std::string>();
  }
  if (const auto name = metadata->find("name"); name != metadata->end() && name->is_string()) {
    key.name = name->get<std::string>();
  }
  return key;
}

ForwardingClient::ForwardingClient(std::shared_ptr<Client> inner) : inner_(std::move(inner)) {
  if (!inner_) throw std::invalid_argument("rr::ForwardingClient needs a client to forward to");
}

// The aliasing constructor with no owner: a shared_ptr that points at `inner` and never deletes it.
ForwardingClient::ForwardingClient(Client& inner) : inner_(std::shared_ptr<Client>(), &inner) {}

KindInfo ForwardingClient::do_kind_info(const GroupVersionKind& gvk) const { return inner_->kind_info(gvk); }

Json ForwardingClient::do_get(const KindInfo& kind, const ObjectKey& key) { return inner_->get(kind, key); }

Json ForwardingClient::do_list(const KindInfo& kind, const ListOptions& opts) { return inner_->list(kind, opts); }

bool ForwardingClient::do_has_field_index(const KindInfo& kind, std::string_view field) const {
  return inner_->has_field_index(kind, field);
}

Json ForwardingClient::do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return inner_->create(kind, object, opts);
}

Json ForwardingClient::do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return inner_->update(kind, object, opts);
}

Json ForwardingClient::do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return inner_->update_status(kind, object, opts);
}

Json ForwardingClient::do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                                std::string_view subresource, const WriteOptions& opts) {
  return inner_->patch(kind, key, type, body, subresource, opts);
}

Json ForwardingClient::do_remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) {
  return inner_->remove(kind, key, opts);
}

void ForwardingClient::do_remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) {
  inner_->remove_collection(kind, list, opts);
}

std::unique_ptr<Watch> ForwardingClient::do_watch(const KindInfo& kind, const ListOptions& opts) {
  return inner_->watch(kind, opts);
}

}  // namespace rr

namespace rr::client_detail {

void get_into(Client& client, const KindInfo& kind, const ObjectKey& key, const ObjectCodec& codec, void* out) {
  codec.decode(client.get(kind, key), out);
}

void list_into(Client& client, const KindInfo& kind, const ListOptions& opts, void* out,
               void (*reserve)(void* out, std::size_t n), void (*append)(const Json& item, void* out)) {
  const Json l = client.list(kind, opts);
  if (auto it = l.find("items"); it != l.end() && it->is_array()) {
    reserve(out, it->size());
    for (const auto& item : *it) append(item, out);
  }
}

void write_into(Client& client, WriteVerb verb, const KindInfo& kind, const void* object, const WriteFixes& fixes,
                const WriteOptions& opts, const ObjectCodec& codec, void* out) {
  Json j;
  codec.encode(j, object);
  if (fixes.namespace_) j["metadata"]["namespace"] = *fixes.namespace_;
  if (fixes.type) {
    if (const auto a = j.find("apiVersion");
        a == j.end() || (a->is_string() && a->get_ref<const std::string&>().empty())) {
      j["apiVersion"] = fixes.type->api_version();
    }
    if (const auto k = j.find("kind"); k == j.end() || (k->is_string() && k->get_ref<const std::string&>().empty())) {
      j["kind"] = fixes.type->kind;
    }
  }
  switch (verb) {
    case WriteVerb::Create: codec.decode(client.create(kind, j, opts), out); return;
    case WriteVerb::Update: codec.decode(client.update(kind, j, opts), out); return;
    case WriteVerb::UpdateStatus: codec.decode(client.update_status(kind, j, opts), out); return;
  }
  throw std::logic_error("rr::client_detail::write_into: unknown verb");
}

void remove_object(Client& client, const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) {
  client.remove(kind, key, opts);
}

void patch_into(Client& client, const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                std::string_view subresource, const WriteOptions& opts, const ObjectCodec& codec, void* out) {
  codec.decode(client.patch(kind, key, type, body, subresource, opts), out);
}

}  // namespace rr::client_detail

namespace rr::api_detail {

std::string scoped_namespace(const std::string& bound, const std::string& given, std::string_view what) {
  if (bound.empty()) return given;
  if (given.empty() || given == bound) return bound;
  // The API server's wording for an object whose namespace is not the request's.
  throw ApiError(api_errors::bad_request("the namespace of the provided " + std::string(what) +
                                         " does not match the namespace sent on the request"));
}

}  // namespace rr::api_detail
