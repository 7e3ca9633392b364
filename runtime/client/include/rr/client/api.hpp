// rr::Api<T>: the typed verbs of one kind over a Client, bound to a namespace or to none (kube-rs's
// Api<K>). Api<T>(client, "ns") addresses objects in "ns"; Api<T>(client) addresses cluster-scoped
// objects, or every namespace for list and watch. Client's typed templates (client.get<T>(ns, name)
// and the others) are these calls, so there is one typed path.
//
//   rr::Api<Widget> widgets(ctx.config().api(), "default");
//   Widget w = widgets.get("hello");
//   std::optional<Widget> maybe = widgets.try_get("other");      // nullopt on NotFound
//   widgets.patch("hello", rr::PatchType::Merge, R"({"spec":{"replicas":3}})");
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rr/client/client.hpp"

namespace rr {

namespace api_detail {
// The namespace a call uses when the Api is bound to `bound` ("" = none) and the object or options
// name `given`: whichever is set. Both set and different: throws ApiError 400 BadRequest, as the
// API server answers a body whose namespace is not the request's; `what` names the argument.
std::string scoped_namespace(const std::string& bound, const std::string& given, std::string_view what);
}  // namespace api_detail

template <Object T>
class Api {
 public:
  // Cluster-scoped objects, or every namespace (list, watch).
  explicit Api(Client& client) : client_(&client) {}
  Api(Client& client, std::string ns) : client_(&client), ns_(std::move(ns)) {}

  Client& client() const noexcept { return *client_; }
  const std::string& namespace_() const noexcept { return ns_; }
  static KindInfo kind() { return kind_info_of<T>(); }

  T get(std::string_view name) const {
    T out;
    client_detail::get_into(*client_, kind(), key(name), client_detail::codec_of<T>, &out);
    return out;
  }
  // nullopt on NotFound; other errors throw.
  std::optional<T> try_get(std::string_view name) const;
  // The items; an empty opts.namespace_ means the Api's namespace.
  std::vector<T> list(const ListOptions& opts = {}) const;
  // Each returns the object as persisted. An object without a namespace gets the Api's.
  T create(const T& object, const WriteOptions& opts = {}) const {
    return write(client_detail::WriteVerb::Create, object, opts);
  }
  T update(const T& object, const WriteOptions& opts = {}) const {
    return write(client_detail::WriteVerb::Update, object, opts);
  }
  T update_status(const T& object, const WriteOptions& opts = {}) const {
    return write(client_detail::WriteVerb::UpdateStatus, object, opts);
  }
  // subresource: "" or "status".
  T patch(std::string_view name, PatchType type, std::string_view body, std::string_view subresource = {},
          const WriteOptions& opts = {}) const {
    T out;
    client_detail::patch_into(*client_, kind(), key(name), type, body, subresource, opts, client_detail::codec_of<T>,
                              &out);
    return out;
  }
  void remove(std::string_view name, const DeleteOptions& opts = {}) const {
    client_detail::remove_object(*client_, kind(), key(name), opts);
  }
  // Events carry JSON objects; from_object_json<T> reads them.
  std::unique_ptr<Watch> watch(const ListOptions& opts = {}) const { return client_->watch(kind(), scoped(opts)); }

 private:
  ObjectKey key(std::string_view name) const { return {ns_, std::string(name)}; }
  T write(client_detail::WriteVerb verb, const T& object, const WriteOptions& opts) const;
  ListOptions scoped(ListOptions opts) const {
    opts.namespace_ = api_detail::scoped_namespace(ns_, opts.namespace_, "list options");
    return opts;
  }

  Client* client_;
  std::string ns_;
};

template <Object T>
std::optional<T> Api<T>::try_get(std::string_view name) const {
  try {
    return get(name);
  } catch (const ApiError& e) {
    if (is_not_found(e.status())) return std::nullopt;
    throw;
  }
}

template <Object T>
std::vector<T> Api<T>::list(const ListOptions& opts) const {
  std::vector<T> out;
  client_detail::list_into(
      *client_, kind(), scoped(opts), &out, [](void* v, std::size_t n) { static_cast<std::vector<T>*>(v)->reserve(n); },
      [](const Json& item, void* v) { static_cast<std::vector<T>*>(v)->push_back(from_object_json<T>(item)); });
  return out;
}

template <Object T>
T Api<T>::write(client_detail::WriteVerb verb, const T& object, const WriteOptions& opts) const {
  const std::string ns = api_detail::scoped_namespace(ns_, object.metadata.namespace_, "object");
  client_detail::WriteFixes fixes;
  if (ns != object.metadata.namespace_) fixes.namespace_ = &ns;
  T out;
  client_detail::write_into(*client_, verb, kind(), &object, fixes, opts, client_detail::codec_of<T>, &out);
  return out;
}

// Client's typed templates: an Api bound to the namespace the call names.
template <Object T>
T Client::get(std::string_view ns, std::string_view name) {
  return Api<T>(*this, std::string(ns)).get(name);
}
template <Object T>
std::optional<T> Client::try_get(const ObjectKey& key) {
  return Api<T>(*this, key.namespace_).try_get(key.name);
}
template <Object T>
std::vector<T> Client::list(const ListOptions& opts) {
  return Api<T>(*this).list(opts);
}
template <Object T>
T Client::create(const T& object, const WriteOptions& opts) {
  return Api<T>(*this, object.metadata.namespace_).create(object, opts);
}
template <Object T>
T Client::update(const T& object, const WriteOptions& opts) {
  return Api<T>(*this, object.metadata.namespace_).update(object, opts);
}
template <Object T>
T Client::update_status(const T& object, const WriteOptions& opts) {
  return Api<T>(*this, object.metadata.namespace_).update_status(object, opts);
}
template <Object T>
T Client::patch(const ObjectKey& key, PatchType type, std::string_view body, std::string_view subresource) {
  return Api<T>(*this, key.namespace_).patch(key.name, type, body, subresource);
}
template <Object T>
void Client::remove(const T& object, const DeleteOptions& opts) {
  Api<T>(*this, object.metadata.namespace_).remove(object.metadata.name, opts);
}

}  // namespace rr
