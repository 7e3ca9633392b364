// The Client: every verb of the Kubernetes API, at the level of JSON objects (unstructured use,
// any kind known by KindInfo), plus typed conveniences over ResourceTraits for generated kinds
// (the same calls as rr::Api<T>, api.hpp). Failures throw rr::ApiError carrying the server's Status.
//
// Light on purpose (compile time, docs/types.md#compile-time): rr::Json is only forward-declared
// here, as in the generated headers. Code that handles the unstructured interface's rr::Json
// values includes "rr/core/json.hpp"; code that reads WatchEvents includes "rr/client/watch.hpp".
// The typed paths reach JSON through the kinds' out-of-line to_json / from_json.
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
#include "rr/core/fwd.hpp"
#include "rr/core/meta.hpp"

namespace rr {

class Watch;  // rr/client/watch.hpp
struct ApplyOptions;  // rr/client/apply.hpp

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
  KindInfo kind_info(const GroupVersionKind& gvk) const;
  Json get(const KindInfo& kind, const ObjectKey& key);
  // A <Kind>List: {"apiVersion","kind","metadata":{"resourceVersion",...},"items":[...]}.
  Json list(const KindInfo& kind, const ListOptions& opts);
  Json create(const KindInfo& kind, const Json& object, const WriteOptions& opts = {});
  Json update(const KindInfo& kind, const Json& object, const WriteOptions& opts = {});
  Json update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts = {});
  // subresource: "" or "status".
  Json patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
             std::string_view subresource = {}, const WriteOptions& opts = {});
  // Returns the object as it is after the call (terminating, or its last state once removed).
  Json remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts = {});
  void remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts = {});
  std::unique_ptr<Watch> watch(const KindInfo& kind, const ListOptions& opts);
  // Whether list() answers an exact-match field selector on `field` (field_index.hpp, e.g.
  // ".metadata.controller=<uid>") from an index: true only for a cache with that field indexer
  // (controller-runtime's IndexField). Without one, callers list without it and filter themselves
  // (the API server refuses field labels it does not know).
  bool has_field_index(const KindInfo& kind, std::string_view field) const;

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
  // Server-side apply of a generated apply configuration A (rr::ApplyConfiguration: `<kind>_apply.hpp`),
  // of the object or of its status subresource; returns the object as persisted. Defined in
  // rr/client/apply.hpp, which every generated apply header includes.
  template <class A>
  typename A::object_type apply(const A& config);
  template <class A>
  typename A::object_type apply(const A& config, const ApplyOptions& opts);
  template <class A>
  typename A::object_type apply_status(const A& config);
  template <class A>
  typename A::object_type apply_status(const A& config, const ApplyOptions& opts);

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
// Both go through the kind's to_json / from_json (found by ADL; out of line for generated kinds),
// so neither instantiates nlohmann's conversions; J is rr::Json (a parameter only so that this
// header needs it declared, not defined).
template <Object T, class J = Json>
J to_object_json(const T& object) {
  J j;
  to_json(j, object);
  return j;
}
template <Object T>
T from_object_json(const Json& j) {
  T object;
  from_json(j, object);
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

// The typed calls of rr::Api<T> and rr::DynamicApi<T>, out of line: the template hands over how to
// convert its type (two function pointers) and the JSON stays inside the client library, so a unit
// that uses the typed API instantiates none of nlohmann's templates.
namespace client_detail {
struct ObjectCodec {
  void (*encode)(Json& out, const void* object);  // to_object_json
  void (*decode)(const Json& in, void* object);   // from_object_json (into a T)
};
template <AnyObject T>
void encode_erased(Json& out, const void* object) {
  to_json(out, *static_cast<const T*>(object));
}
template <AnyObject T>
void decode_erased(const Json& in, void* object) {
  *static_cast<T*>(object) = from_object_json<T>(in);
}
template <AnyObject T>
inline constexpr ObjectCodec codec_of{&encode_erased<T>, &decode_erased<T>};

// What a write changes on the encoded object before it is sent: the namespace (when non-null) and
// apiVersion/kind when the object has none (when non-null: the addressed kind's).
struct WriteFixes {
  const std::string* namespace_ = nullptr;
  const GroupVersionKind* type = nullptr;
};
enum class WriteVerb { Create, Update, UpdateStatus };

// Each decodes the answer into *out through codec.decode.
void get_into(Client& client, const KindInfo& kind, const ObjectKey& key, const ObjectCodec& codec, void* out);
// Appends each item: `reserve(out, n)` once, then `append(item, out)` per item.
void list_into(Client& client, const KindInfo& kind, const ListOptions& opts, void* out,
               void (*reserve)(void* out, std::size_t n), void (*append)(const Json& item, void* out));
void write_into(Client& client, WriteVerb verb, const KindInfo& kind, const void* object, const WriteFixes& fixes,
                const WriteOptions& opts, const ObjectCodec& codec, void* out);
// client.remove(kind, key, opts) with its answer dropped.
void remove_object(Client& client, const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts);
void patch_into(Client& client, const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                std::string_view subresource, const WriteOptions& opts, const ObjectCodec& codec, void* out);
}  // namespace client_detail

}  // namespace rr

// Client's typed templates are defined beside rr::Api<T>, whose calls they are; api.hpp needs
// Client complete, hence the include at the end.
#include "rr/client/api.hpp"
