// `rrgen init`: the files of a new operator project that builds with find_package(rrgen) and
// add_reconciler(): CMakeLists.txt, a sample CRD, a reconciler spec, README.md and .gitignore,
// from the templates in templates/init/. The hook files and tests come from the same scaffold
// `rrgen generate --scaffold` writes (cli_init.cpp runs it), so there is one source for them.
#pragma once
#include <optional>
#include <string>

#include "support/output.hpp"

namespace rrgen {

struct InitOptions {
  std::string name;                 // "widget": the project, the add_reconciler() name, the file stem
  std::string group = "example.com";  // the CRD's API group
  std::string version = "v1alpha1";   // the CRD's version
  std::string kind;                 // the reconciled kind; "" = PascalCase of the name
  std::string generator_version;    // the rrgen release the project asks find_package() for
};

// Why the options cannot make a project ("name 'My-App' is not ..."), or nothing.
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
