// The kinds of a project `rrgen init` made, and the two files rrgen owns in it, rewritten by
// every `rrgen create api`:
//
//   rrgen/kinds.cmake   one add_reconciler() per kind (its tests: tests/<stem>/*_test.cpp) and
//                       <project>_kinds, an INTERFACE library linking them all
//   rrgen/kinds.hpp     register_kinds() (the embedded local cluster) and add_controllers() (the
//                       manager) over every kind, for the user's src/main.cpp
//
// kinds.cmake is also the record of what the project has: a `# rrgen:project NAME` line and one
// `# rrgen:kind GROUP/VERSION/KIND STEM` line per kind, which parse_project_kinds() reads back.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/output.hpp"

namespace rrgen {

struct ProjectKind {
  std::string group, version, kind;
  std::string stem;  // "web_app": the reconciler's name (CMake targets, files, C++ namespace)

  std::string gvk() const { return group + "/" + version + "/" + kind; }
};

struct ProjectKinds {
  std::string project;  // the project's identifier ("my_operator")
  std::vector<ProjectKind> kinds;
};

std::string kinds_cmake_path();   // "rrgen/kinds.cmake"
std::string kinds_header_path();  // "rrgen/kinds.hpp"

// The snake_case stem of a kind: "Widget" -> "widget", "WebApp" -> "web_app", "HTTPRoute" -> "http_route".
std::string kind_stem(std::string_view kind);

// What kinds_cmake() wrote, read back; nullopt (with the reason in `problem`) when `text` is not
// such a file.
std::optional<ProjectKinds> parse_project_kinds(std::string_view text, std::string& problem);

// A project keeps each kind's tests in tests/<stem>/ (two kinds' steps may share a name): moves the
// scaffold's tests/<file> there.
void place_kind_tests(OutputSet& scaffold, std::string_view stem);

// The two rrgen-owned files for `kinds`, in the order given.
OutputFile kinds_cmake(const ProjectKinds& kinds);
OutputFile kinds_header(const ProjectKinds& kinds);

}  // namespace rrgen
