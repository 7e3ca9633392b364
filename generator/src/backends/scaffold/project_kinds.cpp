#include "backends/scaffold/project_kinds.hpp"

#include <sstream>

#include "backends/scaffold/init.hpp"
#include "support/ascii.hpp"

namespace rrgen {
namespace {

constexpr std::string_view kProjectMarker = "# rrgen:project ";
constexpr std::string_view kKindMarker = "# rrgen:kind ";

std::string cmake_header() {
  return "# Written by rrgen (`rrgen init`, `rrgen create api`): the project's kinds, one reconciler each.\n"
         "# `rrgen create api` rewrites this file: do not edit it. CMakeLists.txt, which includes it, is\n"
         "# yours; a kind's tests are every tests/<stem>/*_test.cpp (add files there, no edit needed).\n";
}

}  // namespace

std::string kinds_cmake_path() { return "rrgen/kinds.cmake"; }
std::string kinds_header_path() { return "rrgen/kinds.hpp"; }

std::string kind_stem(std::string_view kind) {
  std::string out;
  for (std::size_t i = 0; i < kind.size(); ++i) {
    const char c = kind[i];
    if (ascii::is_upper(c) && i > 0) {
      const char prev = kind[i - 1];
      const bool next_lower = i + 1 < kind.size() && ascii::is_lower(kind[i + 1]);
      // A word starts after a lower-case letter or digit, or at the last capital of an acronym.
      if (ascii::is_lower(prev) || ascii::is_digit(prev) || (ascii::is_upper(prev) && next_lower)) out += '_';
    }
    out += ascii::is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

std::optional<ProjectKinds> parse_project_kinds(std::string_view text, std::string& problem) {
  ProjectKinds result;
  std::istringstream in{std::string(text)};
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.rfind(kProjectMarker, 0) == 0) {
      result.project = line.substr(kProjectMarker.size());
    } else if (line.rfind(kKindMarker, 0) == 0) {
      std::istringstream fields(line.substr(kKindMarker.size()));
      std::string gvk;
      ProjectKind k;
      fields >> gvk >> k.stem;
      const std::size_t slash1 = gvk.find('/');
      const std::size_t slash2 = slash1 == std::string::npos ? slash1 : gvk.find('/', slash1 + 1);
      if (slash2 == std::string::npos || k.stem.empty()) {
        problem = "line " + std::to_string(number) + " is not '# rrgen:kind GROUP/VERSION/KIND STEM'";
        return std::nullopt;
      }
      k.group = gvk.substr(0, slash1);
      k.version = gvk.substr(slash1 + 1, slash2 - slash1 - 1);
      k.kind = gvk.substr(slash2 + 1);
      // What flows from here into CMake and C++ must be what create api itself would write.
      const std::optional<std::string> why = k.stem != kind_stem(k.kind)
                                                 ? std::optional<std::string>("the stem is not the kind's snake_case")
                                                 : api_options_error({k.group, k.version, k.kind}, {});
      if (why) {
        problem = "line " + std::to_string(number) + ": " + *why;
        return std::nullopt;
      }
      result.kinds.push_back(std::move(k));
    }
  }
  if (result.project.empty()) {
    problem = "it has no '# rrgen:project NAME' line";
    return std::nullopt;
  }
  if (auto why = project_name_error(result.project)) {
    problem = *why;
    return std::nullopt;
  }
  return result;
}

OutputFile kinds_cmake(const ProjectKinds& p) {
  std::string out = cmake_header() + std::string(kProjectMarker) + p.project + "\n";
  std::string all;
  for (const ProjectKind& k : p.kinds) {
    const std::string tests = k.stem + "_test_files";
    out += "\n" + std::string(kKindMarker) + k.gvk() + " " + k.stem + "\n";
    // CONFIGURE_DEPENDS: a test file added or removed reconfigures on the next build.
    out += "file(GLOB " + tests + " CONFIGURE_DEPENDS \"${CMAKE_CURRENT_SOURCE_DIR}/tests/" + k.stem +
           "/*_test.cpp\")\n";
    out += "add_reconciler(" + k.stem + "\n  SPEC " + kind_spec_path(k.kind) + "\n  CRDS " + kind_crd_path(k.kind) +
           "\n  SOURCES src/" + k.stem + "_hooks.hpp src/" + k.stem + "_hooks.cpp\n  TESTS ${" + tests + "})\n";
    all += " " + k.stem;
  }
  // The one deploy tree of the project (every kind in one operator), from everything it reads.
  std::string inputs = " rrgen/kinds.cmake";
  for (const ProjectKind& k : p.kinds) inputs += "\n    " + kind_spec_path(k.kind) + " " + kind_crd_path(k.kind);
  out += "\n# The operator's deploy tree, every kind in one manager: build/deploy/dist/install.yaml and\n"
         "# build/deploy/config/ (`rrgen project-config`).\n";
  out += "rrgen_add_project_config(" + p.project + "_config INPUTS" + inputs + ")\n";
  out += "\n# Every kind's reconciler, and rrgen/kinds.hpp: what src/main.cpp links.\n";
  out += "add_library(" + p.project + "_kinds INTERFACE)\n";
  out += "target_include_directories(" + p.project + "_kinds INTERFACE \"${CMAKE_CURRENT_LIST_DIR}\")\n";
  out += "target_link_libraries(" + p.project + "_kinds INTERFACE" + all + ")\n";
  return {kinds_cmake_path(), out};
}

OutputFile kinds_header(const ProjectKinds& p) {
  std::string includes, registers, controllers;
  for (const ProjectKind& k : p.kinds) {
    const std::string ns = k.stem + "::";
    includes += "#include \"" + k.stem + "_hooks.hpp\"\n#include \"" + k.stem + "_reconciler.hpp\"\n";
    registers += "  cluster.register_kind<" + ns + k.kind + ">();\n";
    controllers += "  op.add_controller(\"" + k.stem + "\", [hooks = std::make_shared<" + ns + k.kind +
                   "Hooks>()](const rr::Config& config) {\n    return " + ns + k.kind +
                   "Reconciler(config, hooks);\n  });\n";
  }
  std::string out = "// Written by rrgen (`rrgen init`, `rrgen create api`): every kind of the project, for\n"
                    "// src/main.cpp. `rrgen create api` rewrites this file: do not edit it. To give a reconciler\n"
                    "// hooks of your own (a client, a provider), call op.add_controller() in main.cpp instead.\n"
                    "#pragma once\n#include <memory>\n\n#include \"rr/cluster/cluster.hpp\"\n"
                    "#include \"rr/manager/operator_main.hpp\"\n" +
                    includes + "\nnamespace " + p.project +
                    "_kinds {\n\n"
                    "// The kinds the embedded local cluster serves (--local-cluster-kubeconfig), defaulted and\n"
                    "// validated as a real API server does from their CRDs.\n"
                    "inline void register_kinds(rr::Cluster& cluster) {\n" +
                    registers +
                    "}\n\n"
                    "// One controller per kind, each with its hooks default-constructed.\n"
                    "inline void add_controllers(rr::OperatorContext& op) {\n" +
                    controllers + "}\n\n}  // namespace " + p.project + "_kinds\n";
  return {kinds_header_path(), out};
}

void place_kind_tests(OutputSet& scaffold, std::string_view stem) {
  for (OutputFile& f : scaffold.files) {
    if (f.path.rfind("tests/", 0) == 0) f.path = "tests/" + std::string(stem) + "/" + f.path.substr(6);
  }
}

}  // namespace rrgen
