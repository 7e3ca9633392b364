#include "sema/structure_ids.hpp"

#include <string_view>
#include <utility>

namespace rrgen {

int StructureIds::id(const Schema& s) {
  if (auto it = memo_.find(&s); it != memo_.end()) return it->second;
  std::string sig;
  sig.reserve(128);
  auto add = [&](std::string_view k, std::string_view v) {
    sig += k;
    sig += '=';
    sig += v;
    sig += '\x1f';
  };
  add("t", s.type);
  add("f", s.format);
  add("r", s.ref);
  if (s.minimum) add("min", std::to_string(*s.minimum) + (s.exclusive_minimum ? "x" : ""));
  if (s.maximum) add("max", std::to_string(*s.maximum) + (s.exclusive_maximum ? "x" : ""));
  if (s.multiple_of) add("mul", std::to_string(*s.multiple_of));
  for (auto [k, v] : {std::pair{"minL", &s.min_length}, {"maxL", &s.max_length}, {"minI", &s.min_items},
                      {"maxI", &s.max_items}, {"minP", &s.min_properties}, {"maxP", &s.max_properties}})
    if (*v) add(k, std::to_string(**v));
  if (s.pattern) add("pat", *s.pattern);
  add("flags", std::string{char('0' + s.nullable), char('0' + s.int_or_string), char('0' + s.preserve_unknown),
                           char('0' + s.embedded_resource), char('0' + s.additional_properties_any)});
  add("lt", s.list_type);
  for (const auto& k : s.list_map_keys) add("lk", k);
  add("mt", s.map_type);
  for (const auto& e : s.enum_json) add("e", e);
  if (s.default_json) add("d", *s.default_json);
  for (const auto& r : s.required) add("req", r);
  for (const auto& [n, p] : s.properties) add("p:" + n, std::to_string(id(*p)));
  if (s.items) add("items", std::to_string(id(*s.items)));
  if (s.additional_properties) add("ap", std::to_string(id(*s.additional_properties)));
  for (const auto& v : s.validations) add("cel", v.rule + '\x1e' + v.message + '\x1e' + v.field_path + '\x1e' + v.reason);
  for (const auto& j : s.junctors_json) add("j", j);
  if (s.rrgen.present) {
    const auto& x = s.rrgen;
    add("x", x.cpp_type + '\x1e' + x.cpp_name + '\x1e' + x.unknown_fields + '\x1e' +
                 std::string{char('0' + x.go_json), char('0' + x.go_pointer), char('0' + x.json_text)});
    if (const auto& pb = x.protobuf) {
      std::string embedded;
      for (const int n : pb->embedded) embedded += std::to_string(n) + ',';
      add("pb", std::to_string(pb->number) + '\x1e' + pb->type + '\x1e' + char('0' + pb->repeated) +
                    char('0' + pb->empty) + pb->map_key + '\x1e' + pb->items + '\x1e' + embedded);
    }
  }
  auto [it, inserted] = ids_.try_emplace(std::move(sig), static_cast<int>(ids_.size()));
  memo_[&s] = it->second;
  return it->second;
}

}  // namespace rrgen
