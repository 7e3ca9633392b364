#include "backends/scaffold/init.hpp"

#include <cctype>
#include <string_view>

#include "support/naming.hpp"
#include "support/text_template.hpp"

namespace rrgen {
namespace {

bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }

// [a-z][a-z0-9_]*: a C++ identifier, a CMake target and a file stem at once.
bool is_project_name(std::string_view s) {
  if (s.empty() || !is_lower(s[0])) return false;
  for (char c : s)
    if (!(is_lower(c) || is_digit(c) || c == '_')) return false;
  return true;
}

// A DNS subdomain with at least one dot, as Kubernetes requires of a CRD's group.
bool is_crd_group(std::string_view s) {
  if (s.empty() || s.size() > 253 || s.find('.') == std::string_view::npos) return false;
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t dot = s.find('.', start);
    if (dot == std::string_view::npos) dot = s.size();
    const std::string_view label = s.substr(start, dot - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') return false;
    for (char c : label)
      if (!(is_lower(c) || is_digit(c) || c == '-')) return false;
    start = dot + 1;
  }
  return true;
}

// v1, v2beta1, v1alpha3: Kubernetes' version format.
bool is_api_version(std::string_view s) {
  if (s.size() < 2 || s[0] != 'v' || !is_digit(s[1]) || s[1] == '0') return false;
  std::size_t i = 1;
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i == s.size()) return true;
  std::string_view rest = s.substr(i);
  for (std::string_view stage : {std::string_view("alpha"), std::string_view("beta")}) {
    if (rest.substr(0, stage.size()) == stage) {
      rest.remove_prefix(stage.size());
      if (rest.empty() || rest[0] == '0') return false;
      for (char c : rest)
        if (!is_digit(c)) return false;
      return true;
    }
  }
  return false;
}

// [A-Z][A-Za-z0-9]*: what Kubernetes kinds look like.
bool is_kind(std::string_view s) {
  if (s.empty() || !is_upper(s[0])) return false;
  for (char c : s)
    if (!(is_lower(c) || is_upper(c) || is_digit(c))) return false;
  return true;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::optional<std::string> init_options_error(const InitOptions& o) {
  if (!is_project_name(o.name)) {
    return "project name '" + o.name +
           "' must be a lower-case identifier ([a-z][a-z0-9_]*): it names the CMake targets and files";
  }
  if (!is_crd_group(o.group)) {
    return "--group '" + o.group + "' must be a DNS name with at least one dot, such as example.com";
  }
  if (!is_api_version(o.version)) {
    return "--version '" + o.version + "' must be a Kubernetes version such as v1, v1beta1 or v1alpha1";
  }
  if (!o.kind.empty() && !is_kind(o.kind)) {
    return "--kind '" + o.kind + "' must be a PascalCase name such as Widget";
  }
  return std::nullopt;
}

std::string init_kind(const InitOptions& o) { return o.kind.empty() ? pascal_case(o.name) : o.kind; }

std::string plural_of(const std::string& kind) {
  const std::string k = lower(kind);
  if (ends_with(k, "s") || ends_with(k, "x") || ends_with(k, "z") || ends_with(k, "ch") || ends_with(k, "sh")) {
    return k + "es";
  }
  if (k.size() >= 2 && k.back() == 'y' && std::string_view("aeiou").find(k[k.size() - 2]) == std::string_view::npos) {
    return k.substr(0, k.size() - 1) + "ies";
  }
  return k + "s";
}

std::string init_spec_path() { return "reconciler.yaml"; }
std::string init_crd_path(const InitOptions& o) { return "crds/" + plural_of(init_kind(o)) + ".yaml"; }

OutputSet scaffold_project(const InitOptions& o) {
  const std::string kind = init_kind(o);
  const TemplateVars vars{
      {"name", o.name},
      {"reconciler", pascal_case(o.name)},
      {"kind", kind},
      {"singular", lower(kind)},
      {"plural", plural_of(kind)},
      {"group", o.group},
      {"version", o.version},
      {"rrgen_version", o.generator_version},
      {"spec_file", init_spec_path()},
      {"crd_file", init_crd_path(o)},
  };
  OutputSet out;
  auto add = [&](std::string path, const char* tmpl) {
    out.files.push_back({std::move(path), fill_embedded_template(std::string("templates/init/") + tmpl, vars)});
  };
  add("CMakeLists.txt", "CMakeLists.txt.tmpl");
  add(init_spec_path(), "reconciler.yaml.tmpl");
  add(init_crd_path(o), "crd.yaml.tmpl");
  add("README.md", "README.md.tmpl");
  add(".gitignore", "gitignore.tmpl");
  return out;
}

}  // namespace rrgen
