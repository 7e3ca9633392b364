// `rrgen init`: the files of a new operator project that builds with find_package(rrgen) and
// add_reconciler(): CMakeLists.txt, a sample CRD, a reconciler spec, README.md and .gitignore,
// from the templates in templates/init/. The hook files and tests come from the same scaffold
// `rrgen generate --scaffold` writes (cli_init.cpp runs it), so there is one source for them.
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

// The project's own files (not the hooks and tests), paths relative to the project directory:
// CMakeLists.txt, reconciler.yaml, crds/<plural>.yaml, README.md, .gitignore.
// Requires options without init_options_error.
OutputSet scaffold_project(const InitOptions& options);

// Paths of the spec and the CRD scaffold_project writes, relative to the project directory.
std::string init_spec_path();
std::string init_crd_path(const InitOptions& options);

}  // namespace rrgen
