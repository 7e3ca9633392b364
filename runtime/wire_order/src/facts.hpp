// The shapes of the derived member-order table (go_order_facts.inc, written by
// tools/derive_go_order.py): facts only, names and orders.
#pragma once
#include <cstdint>
#include <string_view>

namespace rr::wire_order::facts {

// What a member holds, as far as order goes.
enum class Shape : std::uint8_t {
  Leaf,      // one value written as it is (scalar, free-form, Quantity, Time, a map of those)
  Struct,    // the struct `child` (or a list of it)
  Map,       // a map whose values are the struct `child`; Go writes map keys sorted
  Embedded,  // a runtime.RawExtension: written as the object it holds (by its apiVersion and kind)
};

struct Member {
  std::string_view name;
  std::int16_t child;  // index into kStructs, -1 for none
  Shape shape;
};

struct Struct {
  std::string_view name;  // the OpenAPI definition, e.g. io.k8s.api.core.v1.PodSpec
  std::uint16_t first;    // into kMembers and kByName
  std::uint16_t count;
};

struct Root {
  std::string_view api_version;
  std::string_view kind;
  std::int16_t type;
};

}  // namespace rr::wire_order::facts
