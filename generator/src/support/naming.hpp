// Every schema -> C++ naming decision lives here. Names are deterministic functions of the JSON
// names; uniqueness within a scope is enforced by NameScope, never by chance.
#pragma once
#include <set>
#include <string>
#include <string_view>

namespace rrgen {

// C++ keywords, alternative tokens, and macros that common platform headers define
// (stdin, major, minor, TRUE, DELETE, ERROR, DOMAIN ...). An identifier equal to one gets a '_'.
bool is_reserved_identifier(std::string_view name);

// "proxyURL" -> "ProxyURL", "hugepages-2Mi" -> "Hugepages2Mi", "__name__" -> "Name". Never empty.
std::string pascal_case(std::string_view json_name);
// "proxyURL" -> "proxy_url", "hugepages-2Mi" -> "hugepages_2_mi", "-Xmx" -> "xmx",
// "namespace" -> "namespace_", "2xx" -> "_2xx". Never empty; always a valid member name.
std::string field_name(std::string_view json_name);
// Enumerator for a string enum value: "IfNotPresent" -> "IfNotPresent", "" -> "Empty",
// "=~" -> "EqTilde", "1.2" -> "V1_2".
std::string enumerator_name(std::string_view value);
// One namespace segment from a group or version: "monitoring.coreos.com" -> "monitoring_coreos_com".
std::string namespace_segment(std::string_view text);
// Why `ns` ("a::b") cannot be the C++ namespace of generated code: an empty segment, a segment
// that is not an identifier, a keyword or reserved name. "" when it can.
std::string cpp_namespace_problem(std::string_view ns);
// A file name stem: lower-case, [a-z0-9_] only.
std::string file_stem(std::string_view name);
// "web_app" -> "web-app", "__a__b" -> "a-b": lower-case letters and digits, any other run of
// characters one '-', none at either end (the text of a DNS label). "" when nothing is left.
std::string kebab_case(std::string_view name);

// Hands out unique names in one C++ scope: the first claimant keeps a name, later ones get
// "_2", "_3" ... (struct scopes) or "2", "3" ... (PascalCase type names).
class NameScope {
 public:
  explicit NameScope(bool pascal = false) : pascal_(pascal) {}
  void reserve(std::string name) { used_.insert(std::move(name)); }
  bool taken(const std::string& name) const { return used_.count(name) != 0; }
  // Returns `wanted` or the first free suffixed variant; `renamed` tells which happened.
  std::string claim(const std::string& wanted, bool* renamed = nullptr);

 private:
  bool pascal_;
  std::set<std::string> used_;
};

}  // namespace rrgen
