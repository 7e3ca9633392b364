// rr::DynamicApi<T>: the verbs of rr::Api<T> for an object whose kind is known only at run time
// (rr::Unstructured, a duck type), addressed through the KindInfo given at construction.
//
//   rr::DynamicApi<rr::Unstructured> deployments(client, deployment_kind);
//   rr::Unstructured d = deployments.get({"default", "web"});
//
// Duck types are partial objects, so the verbs that send a whole object refuse them as
// reconciler.io's duck-aware client does (duck.NewDuckAwareClientWrapper): create throws
// DuckWriteRefused "Create is not supported for the duck typed objects", update and
// update_status "Update is not supported for the duck typed objects, use Patch instead". Reads,
// patches and deletes work.
#pragma once
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rr/client/client.hpp"

namespace rr {

// A whole-object write of a duck type (its unknown parts would be sent as the duck read them,
// racing every other writer of the object).
class DuckWriteRefused : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

namespace dynamic_api_detail {
inline constexpr std::string_view create_refused = "Create is not supported for the duck typed objects";
inline constexpr std::string_view update_refused =
    "Update is not supported for the duck typed objects, use Patch instead";
}  // namespace dynamic_api_detail

template <DynamicObject T>
class DynamicApi {
 public:
  DynamicApi(Client& client, KindInfo kind) : client_(&client), kind_(std::move(kind)) {}

  Client& client() const noexcept { return *client_; }
  const KindInfo& kind() const noexcept { return kind_; }

  T get(const ObjectKey& key) const {
    T out;
    client_detail::get_into(*client_, kind_, key, codec(), &out);
    return out;
  }
  // nullopt on NotFound; other errors throw.
  std::optional<T> try_get(const ObjectKey& key) const {
    try {
      return get(key);
    } catch (const ApiError& e) {
      if (is_not_found(e.status())) return std::nullopt;
      throw;
    }
  }
  std::vector<T> list(const ListOptions& opts = {}) const {
    std::vector<T> out;
    client_detail::list_into(
        *client_, kind_, opts, &out, [](void* v, std::size_t n) { static_cast<std::vector<T>*>(v)->reserve(n); },
        [](const Json& item, void* v) { static_cast<std::vector<T>*>(v)->push_back(from_object_json<T>(item)); });
    for (T& object : out) typed(object);
    return out;
  }
  T create(const T& object, const WriteOptions& opts = {}) const {
    if constexpr (DuckObject<T>) {
      (void)object, (void)opts;
      throw DuckWriteRefused(std::string(dynamic_api_detail::create_refused));
    } else {
      return write(client_detail::WriteVerb::Create, object, opts);
    }
  }
  T update(const T& object, const WriteOptions& opts = {}) const {
    if constexpr (DuckObject<T>) {
      (void)object, (void)opts;
      throw DuckWriteRefused(std::string(dynamic_api_detail::update_refused));
    } else {
      return write(client_detail::WriteVerb::Update, object, opts);
    }
  }
  T update_status(const T& object, const WriteOptions& opts = {}) const {
    if constexpr (DuckObject<T>) {
      (void)object, (void)opts;
      throw DuckWriteRefused(std::string(dynamic_api_detail::update_refused));
    } else {
      return write(client_detail::WriteVerb::UpdateStatus, object, opts);
    }
  }
  // subresource: "" or "status".
  T patch(const ObjectKey& key, PatchType type, std::string_view body, std::string_view subresource = {},
          const WriteOptions& opts = {}) const {
    T out;
    client_detail::patch_into(*client_, kind_, key, type, body, subresource, opts, codec(), &out);
    return out;
  }
  void remove(const ObjectKey& key, const DeleteOptions& opts = {}) const {
    client_detail::remove_object(*client_, kind_, key, opts);
  }

 private:
  static const client_detail::ObjectCodec& codec() { return client_detail::codec_of<T>; }
  // A list's items may leave apiVersion and kind out: the kind addressed is theirs.
  void typed(T& object) const {
    if (object.api_version.empty()) object.api_version = kind_.gvk.api_version();
    if (object.kind.empty()) object.kind = kind_.gvk.kind;
  }
  // An object sent without apiVersion/kind gets the addressed kind's.
  T write(client_detail::WriteVerb verb, const T& object, const WriteOptions& opts) const {
    client_detail::WriteFixes fixes;
    fixes.type = &kind_.gvk;
    T out;
    client_detail::write_into(*client_, verb, kind_, &object, fixes, opts, codec(), &out);
    return out;
  }

  Client* client_;
  KindInfo kind_;
};

// The verbs of either kind of object, for code generic over both (the reconcilers): a generated
// kind goes through rr::Api<T> (`kind` is not used), a dynamic object through DynamicApi<T> with
// `kind`.
namespace any_api {
template <AnyObject T>
T get(Client& client, const KindInfo& kind, const ObjectKey& key) {
  if constexpr (Object<T>) {
    (void)kind;
    return client.get<T>(key);
  } else {
    return DynamicApi<T>(client, kind).get(key);
  }
}
template <AnyObject T>
std::optional<T> try_get(Client& client, const KindInfo& kind, const ObjectKey& key) {
  if constexpr (Object<T>) {
    (void)kind;
    return client.try_get<T>(key);
  } else {
    return DynamicApi<T>(client, kind).try_get(key);
  }
}
template <AnyObject T>
std::vector<T> list(Client& client, const KindInfo& kind, const ListOptions& opts) {
  if constexpr (Object<T>) {
    (void)kind;
    return client.list<T>(opts);
  } else {
    return DynamicApi<T>(client, kind).list(opts);
  }
}
template <AnyObject T>
T create(Client& client, const KindInfo& kind, const T& object) {
  if constexpr (Object<T>) {
    (void)kind;
    return client.create(object);
  } else {
    return DynamicApi<T>(client, kind).create(object);
  }
}
template <AnyObject T>
T update(Client& client, const KindInfo& kind, const T& object) {
  if constexpr (Object<T>) {
    (void)kind;
    return client.update(object);
  } else {
    return DynamicApi<T>(client, kind).update(object);
  }
}
template <AnyObject T>
T update_status(Client& client, const KindInfo& kind, const T& object) {
  if constexpr (Object<T>) {
    (void)kind;
    return client.update_status(object);
  } else {
    return DynamicApi<T>(client, kind).update_status(object);
  }
}
template <AnyObject T>
void remove(Client& client, const KindInfo& kind, const T& object) {
  if constexpr (Object<T>) {
    (void)kind;
    client.remove(object);
  } else {
    DynamicApi<T>(client, kind).remove(key_of(object));
  }
}
}  // namespace any_api

}  // namespace rr
