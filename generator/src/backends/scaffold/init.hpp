// `rrgen init`: the files of a new operator project that builds with find_package(rrgen) and
// add_reconciler(): CMakeLists.txt, src/main.cpp, README.md and .gitignore, from the templates in
// templates/init/; and each kind's CRD and reconciler spec (`rrgen create api`, which init runs
// for the first kind). The hook files and tests come from the same scaffold
// `rrgen generate --scaffold` writes (cli_create_api.cpp runs it), so there is one source for them.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/output.hpp"

namespace rrgen {

struct InitOptions {
  std::string name;                 // "my-operator" or "my_operator", as typed: see ProjectNames
  std::string group = "example.com";  // the CRD's API group
  std::string version = "v1alpha1";   // the CRD's version
  std::string kind;                 // the reconciled kind; "" = PascalCase of the name
  std::string generator_version;    // the rrgen release the project asks find_package() for
  // Where rrgen is installed, for CMakePresets.json's CMAKE_PREFIX_PATH: "" when CMake searches
  // there anyway (/usr, /usr/local), nothing when unknown (rrgen runs from a build tree).
  std::optional<std::string> prefix_path = "";
};

// What the project's one name becomes. "my-operator" and "my_operator" make the same project.
struct ProjectNames {
  std::string identifier;  // "my_operator": C++ namespace, CMake project and targets, file stems
  std::string dns;         // "my-operator": Kubernetes object names, labels, leaderElectionID
};

// Why `name` cannot be a project's name, or nothing. A name starts with a lower-case letter and
// has lower-case letters and digits, with single '-' or '_' between them, at most 63 characters,
// and its identifier is no C++ keyword or name the runtime or system headers use.
std::optional<std::string> project_name_error(std::string_view name);
// Requires a name without project_name_error.
ProjectNames project_names(std::string_view name);

// A Kubernetes name derived from the options, with the rule it must follow.
struct DerivedName {
  std::string what;   // "the deploy namespace"
  std::string value;  // "my-operator-system"
  bool (*valid)(std::string_view);
  std::string rule;   // "a DNS label: at most 63 lower-case letters, digits and '-'"
};
// Every name the project's spec, CRD and config/ tree get from the options.
std::vector<DerivedName> init_derived_names(const InitOptions& options);

// Why the options cannot make a project ("project name 'My-App' ..."), or nothing: the name, the
// group, version and kind, and every derived name.
std::optional<std::string> init_options_error(const InitOptions& options);

// The kind the project reconciles: options.kind, or the name in PascalCase.
std::string init_kind(const InitOptions& options);
// Kubernetes-style lower-case plural of a kind: "Widget" -> "widgets", "Policy" -> "policies".
std::string plural_of(const std::string& kind);

// The project's own files (not its kinds), paths relative to the project directory:
// CMakeLists.txt, CMakePresets.json, src/main.cpp, README.md, .gitignore.
// Requires options without init_options_error.
OutputSet scaffold_project(const InitOptions& options);

// A kind `rrgen create api` adds (init: the first one).
struct ApiOptions {
  std::string group, version, kind;
};
ApiOptions init_api(const InitOptions& options);

// Why the kind cannot be a project's kind ("--kind 'widget' must be ..."), or nothing: the group,
// version and kind, and the kind's stem as a C++ namespace and CMake target name.
std::optional<std::string> api_options_error(const ApiOptions& api, const ProjectNames& project);

// Paths of a kind's spec (reconcilers/<stem>.yaml) and CRD (crds/<plural>.yaml).
std::string kind_spec_path(const std::string& kind);
std::string kind_crd_path(const std::string& kind);
std::string kind_sample_path(const std::string& kind);  // samples/<stem>.yaml
// The kind's sample CRD and reconciler spec (a sync step and a child ConfigMap). Requires
// options without api_options_error.
OutputFile scaffold_crd(const ApiOptions& api);
OutputFile scaffold_sample(const ApiOptions& api);  // an object of the sample CRD
OutputFile scaffold_spec(const ApiOptions& api, const ProjectNames& project);

}  // namespace rrgen
