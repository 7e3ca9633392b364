// The Client: every verb of the Kubernetes API, at the level of JSON objects (unstructured use,
// any kind known by KindInfo), plus typed conveniences over ResourceTraits for generated kinds
// (the same calls as rr::Api<T>, api.hpp). Failures throw rr::ApiError carrying the server's Status.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/client/api_error.hpp"
#include "rr/client/dynamic_object.hpp"
#include "rr/client/kind.hpp"
#include "rr/client/object_key.hpp"
#include "rr/client/options.hpp"
#include "rr/client/watch.hpp"
#include "rr/core/json.hpp"
#include "rr/core/meta.hpp"

namespace rr {

// A typed Kubernetes object: a generated kind (or any struct) with ResourceTraits and ObjectMeta.
template <class T>
concept Object = Resource<T> && requires(T& t) {
  requires std::same_as<std::remove_cvref_t<decltype(t.metadata)>, ObjectMeta>;
};

// A generated kind or an object whose kind is known at run time (dynamic_object.hpp).
template <class T>
concept AnyObject = Object<T> || DynamicObject<T>;

class Client {
 public:
  virtual ~Client() = default;

  // --- Unstructured interface: objects are JSON documents with apiVersion/kind/metadata. ---
  // Each verb calls the protected do_<verb> an implementation overrides (non-virtual interface:
  // the typed templates below and derived classes never hide one another).
  // The KindInfo of a kind this client can serve (discovery / RESTMapper); throws ApiError
  // NotFound when the kind is unknown.
  KindInfo kind_info(const GroupVersionKind& gvk) const { return do_kind_info(gvk); }
  Json get(const KindInfo& kind, const ObjectKey& key) { return do_get(kind, key); }
  // A <Kind>List: {"apiVersion","kind","metadata":{"resourceVersion",...},"items":[...]}.
  Json list(const KindInfo& kind, const ListOptions& opts) { return do_list(kind, opts); }
  Json create(const KindInfo& kind, const Json& object, const WriteOptions& opts = {}) {
    return do_create(kind, object, opts);
  }
  Json update(const KindInfo& kind, const Json& object, const WriteOptions& opts = {}) {
    return do_update(kind, object, opts);
  }
  Json update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts = {}) {
    return do_update_status(kind, object, opts);
  }
  // subresource: "" or "status".
  Json patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
             std::string_view subresource = {}, const WriteOptions& opts = {}) {
    return do_patch(kind, key, type, body, subresource, opts);
  }
  // Returns the object as it is after the call (terminating, or its last state once removed).
  Json remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts = {}) {
    return do_remove(kind, key, opts);
  }
  void remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts = {}) {
    do_remove_collection(kind, list, opts);
  }
  std::unique_ptr<Watch> watch(const KindInfo& kind, const ListOptions& opts) { return do_watch(kind, opts); }
  // Whether list() answers an exact-match field selector on `field` (field_index.hpp, e.g.
  // ".metadata.controller=<uid>") from an index: true only for a cache with that field indexer
  // (controller-runtime's IndexField). Without one, callers list without it and filter themselves
  // (the API server refuses field labels it does not know).
  bool has_field_index(const KindInfo& kind, std::string_view field) const { return do_has_field_index(kind, field); }

  // --- Typed conveniences (T is a generated kind), the calls of rr::Api<T> (api.hpp). ---
  template <Object T>
  T get(std::string_view namespace_, std::string_view name);
  template <Object T>
  T get(const ObjectKey& key) { return get<T>(key.namespace_, key.name); }
  // nullopt on NotFound; other errors throw.
  template <Object T>
  std::optional<T> try_get(const ObjectKey& key);
  template <Object T>
  std::vector<T> list(const ListOptions& opts = {});
  // Each returns the object as persisted (name, uid, resourceVersion, defaults filled in).
  template <Object T>
  T create(const T& object, const WriteOptions& opts = {});
  template <Object T>
  T update(const T& object, const WriteOptions& opts = {});
  template <Object T>
  T update_status(const T& object, const WriteOptions& opts = {});
  template <Object T>
  T patch(const ObjectKey& key, PatchType type, std::string_view body, std::string_view subresource = {});
  template <Object T>
  void remove(const T& object, const DeleteOptions& opts = {});

 protected:
  // What an implementation provides, one per verb, with the verb's contract. A client that
  // wraps another derives from ForwardingClient (forwarding_client.hpp) and overrides only the
  // verbs it changes.
  virtual KindInfo do_kind_info(const GroupVersionKind& gvk) const = 0;
  virtual Json do_get(const KindInfo& kind, const ObjectKey& key) = 0;
  virtual Json do_list(const KindInfo& kind, const ListOptions& opts) = 0;
  virtual Json do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) = 0;
  virtual Json do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) = 0;
  virtual Json do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) = 0;
  virtual Json do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                        std::string_view subresource, const WriteOptions& opts) = 0;
  virtual Json do_remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) = 0;
  virtual void do_remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) = 0;
  virtual std::unique_ptr<Watch> do_watch(const KindInfo& kind, const ListOptions& opts) = 0;
  virtual bool do_has_field_index(const KindInfo& /*kind*/, std::string_view /*field*/) const { return false; }
};

// JSON <-> typed object. The typed object always carries its apiVersion and kind: an API server
// leaves them out of a list's items, and decoding keeps an absent one empty (as Go's TypeMeta, so a
// kind nested in another round-trips), so they are filled from the type here.
template <Object T>
Json to_object_json(const T& object) {
  Json j = object;
  return j;
}
template <Object T>
T from_object_json(const Json& j) {
  T object = j.get<T>();
  if constexpr (requires { object.api_version = std::string(ResourceTraits<T>::api_version); }) {
    if (object.api_version.empty()) object.api_version = ResourceTraits<T>::api_version;
  }
  if constexpr (requires { object.kind = std::string(ResourceTraits<T>::kind); }) {
    if (object.kind.empty()) object.kind = ResourceTraits<T>::kind;
  }
  return object;
}
template <Object T>
ObjectKey key_of(const T& object) {
  return {object.metadata.namespace_, object.metadata.name};
}
// metadata.namespace and metadata.name of a JSON object; missing members read as "".
ObjectKey key_of(const Json& object);

// apiVersion and kind of any object: from ResourceTraits, or carried by a dynamic object.
template <AnyObject T>
std::string api_version_of(const T& object) {
  if constexpr (Object<T>) {
    (void)object;
    return std::string(ResourceTraits<T>::api_version);
  } else {
    return object.api_version;
  }
}
template <AnyObject T>
std::string kind_of(const T& object) {
  if constexpr (Object<T>) {
    (void)object;
    return std::string(ResourceTraits<T>::kind);
  } else {
    return object.kind;
  }
}

// How `client` addresses `object`: ResourceTraits for a generated kind; for a dynamic object, the
// client's discovery of the kind it names (ApiError NotFound when the client does not serve it).
template <AnyObject T>
KindInfo kind_info_for(const Client& client, const T& object) {
  if constexpr (Object<T>) {
    (void)client;
    (void)object;
    return kind_info_of<T>();
  } else {
    return client.kind_info(gvk_of(object));
  }
}

}  // namespace rr

// Client's typed templates are defined beside rr::Api<T>, whose calls they are; api.hpp needs
// Client complete, hence the include at the end.
#include "rr/client/api.hpp"
#include "rr/client/dynamic_api.hpp"
