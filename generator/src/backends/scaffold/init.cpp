#include "backends/scaffold/init.hpp"

#include <cctype>

#include <nlohmann/json.hpp>

#include "backends/scaffold/project_kinds.hpp"
#include "model/rbac_derive.hpp"
#include "support/ascii.hpp"
#include "support/k8s_names.hpp"
#include "support/naming.hpp"
#include "support/text_template.hpp"

namespace rrgen {
namespace {

using ascii::is_digit;
using ascii::is_lower;
using ascii::is_upper;

bool is_separator(char c) { return c == '-' || c == '_'; }

// Both spellings users type ("my-operator", "my_operator") map onto the two forms, so the rule
// is what both a DNS label and a C++ identifier allow.
constexpr std::string_view kNameRule =
    "a project name starts with a lower-case letter and has only lower-case letters, digits and single "
    "'-' or '_' between them, at most 63 characters (a, shop2, my-operator, my_operator), so that it "
    "makes both a Kubernetes name (my-operator) and a C++ identifier (my_operator)";

std::string describe(char c) {
  if (c == ' ') return "a space";
  if (std::isprint(static_cast<unsigned char>(c)) == 0) return "a character that is not printable ASCII";
  return std::string("'") + c + "'";
}

// Why the characters of a name are not allowed, or "".
std::string name_shape_problem(std::string_view s) {
  if (s.size() > 63) return "is longer than 63 characters";
  if (is_digit(s[0])) return "starts with a digit";
  if (is_separator(s[0])) return "starts with '" + std::string(1, s[0]) + "'";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (is_upper(c)) return "has the upper-case letter '" + std::string(1, c) + "'";
    if (is_separator(c)) {
      if (i + 1 == s.size()) return "ends with '" + std::string(1, c) + "'";
      // "a__b" would be a C++ name reserved for the implementation.
      if (is_separator(s[i + 1])) return "has '" + std::string(s.substr(i, 2)) + "'";
    } else if (!is_lower(c) && !is_digit(c)) {
      return "has " + describe(c);
    }
  }
  return "";
}

bool is_crd_group(std::string_view s) { return is_dns1123_subdomain(s) && s.find('.') != std::string_view::npos; }

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

std::string replaced(std::string_view s, char from, char to) {
  std::string out(s);
  for (char& c : out)
    if (c == from) c = to;
  return out;
}

}  // namespace

std::optional<std::string> project_name_error(std::string_view name) {
  if (name.empty()) return "the project name is empty; " + std::string(kNameRule);
  const std::string quoted = "'" + std::string(name) + "'";
  if (std::string why = name_shape_problem(name); !why.empty()) {
    return "project name " + quoted + " " + why + "; " + std::string(kNameRule);
  }
  // A suffix would make the namespace differ from everything else named after the project.
  const ProjectNames names = project_names(name);
  if (std::string why = cpp_namespace_problem(names.identifier); !why.empty()) {
    return "project name " + quoted + " cannot be the project's C++ namespace: " + why +
           "; choose another name, such as " + names.dns + "-operator";
  }
  return std::nullopt;
}

ProjectNames project_names(std::string_view name) { return {replaced(name, '-', '_'), replaced(name, '_', '-')}; }

std::vector<DerivedName> init_derived_names(const InitOptions& o) {
  const std::string label = "a DNS label (at most 63 lower-case letters, digits and '-')";
  const std::string subdomain = "a DNS subdomain (at most 253 lower-case letters, digits, '-' and '.')";
  const std::string crd_name = "a DNS label that starts with a letter (at most 63 characters)";
  const ProjectNames names = project_names(o.name);
  const std::string kind = init_kind(o);
  const DeployNames deploy = deploy_names(names.identifier, "");
  return {
      {"the CRD's name", plural_of(kind) + "." + o.group, is_dns1123_subdomain, subdomain},
      {"the CRD's plural", plural_of(kind), is_dns1035_label, crd_name},
      {"the CRD's singular", lower(kind), is_dns1035_label, crd_name},
      {"the leaderElectionID", names.dns + "." + o.group, is_dns1123_subdomain, subdomain},
      {"the deploy namespace", deploy.namespace_, is_dns1123_label, label},
      {"the app.kubernetes.io/name label", deploy.app, is_label_value,
       "a label value (at most 63 letters, digits, '-', '_' and '.')"},
      {"the manager's role", deploy.manager_role, is_dns1123_subdomain, subdomain},
      {"the manager's role binding", binding_name(deploy.manager_role), is_dns1123_subdomain, subdomain},
      {"the leader election role", deploy.leader_election_role, is_dns1123_subdomain, subdomain},
      {"the leader election role binding", binding_name(deploy.leader_election_role), is_dns1123_subdomain,
       subdomain},
      {"the service account", deploy.service_account, is_dns1123_subdomain, subdomain},
      {"the Deployment", deploy.deployment, is_dns1123_subdomain, subdomain},
      {"the tests' object name", "test-" + names.dns, is_dns1123_subdomain, subdomain},
  };
}

std::optional<std::string> api_options_error(const ApiOptions& a, const ProjectNames& project) {
  if (!is_crd_group(a.group)) {
    return "--group '" + a.group + "' must be a DNS name with at least one dot, such as example.com";
  }
  if (!is_api_version(a.version)) {
    return "--version '" + a.version + "' must be a Kubernetes version such as v1, v1beta1 or v1alpha1";
  }
  if (!is_kind(a.kind)) return "--kind '" + a.kind + "' must be a PascalCase name such as Widget";
  // The stem names the kind's C++ namespace and CMake targets, beside the project's own.
  const std::string stem = kind_stem(a.kind);
  if (std::string why = cpp_namespace_problem(stem); !why.empty()) {
    return "--kind '" + a.kind + "' makes the C++ namespace '" + stem + "': " + why + "; choose another kind";
  }
  for (const std::string& taken : {std::string("manager"), std::string("run"), project.identifier + "_kinds"}) {
    if (stem == taken) {
      return "--kind '" + a.kind + "' makes the CMake target '" + stem + "', which the project's " + taken +
             " target needs; choose another kind";
    }
  }
  return std::nullopt;
}

std::optional<std::string> init_options_error(const InitOptions& o) {
  if (auto problem = project_name_error(o.name)) return problem;
  ApiOptions api = init_api(o);
  if (o.kind.empty() && !is_kind(api.kind)) api.kind = "Widget";  // the name's own problems are reported above
  if (auto problem = api_options_error(api, project_names(o.name))) return problem;
  // The parts are valid, so only length can spoil what is made of them.
  for (const DerivedName& d : init_derived_names(o)) {
    if (!d.valid(d.value)) {
      return "project name '" + o.name + "' makes " + d.what + " '" + d.value + "', which must be " + d.rule +
             "; choose a shorter name, --group or --kind";
    }
  }
  return std::nullopt;
}

ApiOptions init_api(const InitOptions& o) { return {o.group, o.version, init_kind(o)}; }

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

std::string kind_spec_path(const std::string& kind) { return "reconcilers/" + kind_stem(kind) + ".yaml"; }
std::string kind_crd_path(const std::string& kind) { return "crds/" + plural_of(kind) + ".yaml"; }
std::string kind_sample_path(const std::string& kind) { return "samples/" + kind_stem(kind) + ".yaml"; }

namespace {

TemplateVars kind_vars(const ApiOptions& a, const ProjectNames& project) {
  return {
      {"kind", a.kind},
      {"stem", kind_stem(a.kind)},
      {"singular", lower(a.kind)},
      {"plural", plural_of(a.kind)},
      {"group", a.group},
      {"version", a.version},
      {"dns_name", project.dns},
      {"spec_file", kind_spec_path(a.kind)},
      {"sample_file", kind_sample_path(a.kind)},
  };
}

}  // namespace

OutputFile scaffold_crd(const ApiOptions& a) {
  return {kind_crd_path(a.kind), fill_embedded_template("templates/init/crd.yaml.tmpl", kind_vars(a, {}))};
}

OutputFile scaffold_sample(const ApiOptions& a) {
  return {kind_sample_path(a.kind), fill_embedded_template("templates/init/sample.yaml.tmpl", kind_vars(a, {}))};
}

OutputFile scaffold_spec(const ApiOptions& a, const ProjectNames& project) {
  return {kind_spec_path(a.kind), fill_embedded_template("templates/init/reconciler.yaml.tmpl", kind_vars(a, project))};
}

namespace {

// The configure preset's CMAKE_PREFIX_PATH entry (after its first cache variable), or "" when
// CMake finds rrgen without it or the prefix is unknown (the user then sets it).
std::string prefix_cache_variable(const InitOptions& o) {
  if (!o.prefix_path || o.prefix_path->empty()) return "";
  return ",\n        \"CMAKE_PREFIX_PATH\": " + nlohmann::json(*o.prefix_path).dump();
}

}  // namespace

OutputSet scaffold_project(const InitOptions& o) {
  const std::string kind = init_kind(o);
  const ProjectNames names = project_names(o.name);
  const TemplateVars vars{
      {"name", o.name},
      {"identifier", names.identifier},
      {"dns_name", names.dns},
      {"kind", kind},
      {"stem", kind_stem(kind)},
      {"plural", plural_of(kind)},
      {"singular", lower(kind)},
      {"group", o.group},
      {"version", o.version},
      {"rrgen_version", o.generator_version},
      {"spec_file", kind_spec_path(kind)},
      {"crd_file", kind_crd_path(kind)},
      {"sample_file", kind_sample_path(kind)},
      {"prefix_cache_variable", prefix_cache_variable(o)},
  };
  OutputSet out;
  auto add = [&](std::string path, const char* tmpl) {
    out.files.push_back({std::move(path), fill_embedded_template(std::string("templates/init/") + tmpl, vars)});
  };
  add("CMakeLists.txt", "CMakeLists.txt.tmpl");
  add("CMakePresets.json", "CMakePresets.json.tmpl");
  add("src/main.cpp", "main.cpp.tmpl");
  add("README.md", "README.md.tmpl");
  add(".gitignore", "gitignore.tmpl");
  return out;
}

}  // namespace rrgen
