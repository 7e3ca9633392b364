// `rrgen crd`'s decisions: the C++ declarations the reader found (cxx_model.hpp) and their
// markers (crd_markers.hpp) become one CustomResourceDefinition per kind, each served version
// from the struct of that kind in a version namespace (docs/crd-from-types.md).
#pragma once
#include <string>
#include <vector>

#include "crd/cxx_model.hpp"
#include "support/diagnostics.hpp"
#include "support/output.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {

struct CrdOptions {
  std::string group;                 // --group (required)
  std::string version = "v1";        // --version: of a kind outside a version namespace
  std::string scope = "Namespaced";  // --scope: of a kind without +kubebuilder:resource:scope
};

// snake_case back to the JSON name rrgen types maps to it: "config_map_name" -> "configMapName",
// "namespace_" -> "namespace" (a keyword's '_' dropped), "_2xx" -> "2xx".
std::string json_name_of_member(const std::string& member);
// The resource name of a kind as controller-gen makes it: "WebApp" -> "webapps", "Policy" ->
// "policies", "Ingress" -> "ingresses".
std::string plural_of_kind(const std::string& kind);

struct BuiltCrd {
  std::string file;  // "<group>_<plural>.yaml", as controller-gen names it
  std::string kind;
  Yaml document;
};

// One CRD per kind, in the order the kinds are declared. Errors are reported at the member or
// marker they concern; the result is meaningful only without errors.
std::vector<BuiltCrd> build_crds(const CxxModel& model, const CrdOptions& options, Diagnostics& diags);
// The files: one per CRD, or with `single_file` ("name.yaml") every CRD in that one file.
OutputSet crd_files(const std::vector<BuiltCrd>& crds, const std::string& single_file = {});

}  // namespace rrgen
