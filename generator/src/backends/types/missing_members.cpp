#include "backends/types/missing_members.hpp"

#include "support/printer.hpp"

namespace rrgen {

std::optional<std::size_t> missing_bit(const StructDef& s, const FieldDef& f) {
  if (s.missing_member.empty() || f.presence != Presence::Required) return std::nullopt;
  std::size_t bit = 0;
  for (const auto& g : s.fields) {
    if (&g == &f) return bit;
    if (g.presence == Presence::Required) ++bit;
  }
  return std::nullopt;
}

std::size_t missing_count(const StructDef& s) {
  if (s.missing_member.empty()) return 0;
  std::size_t n = 0;
  for (const auto& f : s.fields) n += f.presence == Presence::Required ? 1 : 0;
  return n;
}

std::string absent_expr(const StructDef& s, const FieldDef& f) {
  const auto bit = missing_bit(s, f);
  if (!bit) return "false";
  return "v." + s.missing_member + ".absent(" + std::to_string(*bit) + ", v." + f.cpp_name + ")";
}

void print_missing(Printer& p, const StructDef& s, bool strict_fail) {
  if (!s.missing_member.empty()) p.print("v.$record$.clear();", {{"record", s.missing_member}});
  for (const auto& f : s.fields) {
    if (f.presence != Presence::Required) continue;
    if (const auto bit = missing_bit(s, f)) {
      p.print("if (!has_$member$) v.$record$.mark($bit$, v.$member$);",
              {{"member", f.cpp_name}, {"record", s.missing_member}, {"bit", std::to_string(*bit)}});
    } else if (strict_fail) {
      p.print("if (!has_$member$) r.fail_missing($json$);",
              {{"member", f.cpp_name}, {"json", cpp_string_literal(f.json_name)}});
    }
  }
}

}  // namespace rrgen
