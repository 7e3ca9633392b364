// Compile-time facts about a Kubernetes kind, specialised by the generator for each kind.
#pragma once
#include <concepts>
#include <string_view>

namespace rr {

enum class Scope { Namespaced, Cluster };

template <class T>
struct ResourceTraits;  // generated: group, version, kind, api_version, plural, singular,
                        // list_kind, scope, has_status, has_scale, storage, served

template <class T>
concept Resource = requires {
  { ResourceTraits<T>::kind } -> std::convertible_to<std::string_view>;
  { ResourceTraits<T>::plural } -> std::convertible_to<std::string_view>;
};

}  // namespace rr
