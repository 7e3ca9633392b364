// What rrgen reads: CRDs (apiextensions.k8s.io/v1) and Kubernetes OpenAPI v3 documents, each with
// its schemas, located for diagnostics.
#pragma once
#include <array>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "support/diagnostics.hpp"
#include "load/schema.hpp"
#include "load/yaml_load.hpp"

namespace rrgen {

struct CrdVersion {
  Location location;
  std::string name;
  bool served = true, storage = false, deprecated = false;
  bool status_subresource = false, scale_subresource = false;
  std::unique_ptr<Schema> schema;
};

struct Crd {
  Location location;
  std::string group, kind, plural, singular, list_kind;
  std::vector<std::string> short_names, categories;
  bool namespaced = true;
  std::vector<CrdVersion> versions;
};

struct OpenApiDefinition {
  std::string name;  // e.g. io.k8s.api.apps.v1.Deployment
  std::unique_ptr<Schema> schema;
  // From x-kubernetes-group-version-kind (first entry), when the definition is a kind.
  std::string group, version, kind;
  // Every entry of x-kubernetes-group-version-kind as {group, version, kind}: the apiVersions and
  // kinds objects of this definition carry (DeleteOptions has one per group-version).
  std::vector<std::array<std::string, 3>> gvks;
};

// What the document's `paths` say about a kind: its resource name, scope and subresources.
struct OpenApiKindPaths {
  std::string plural;
  bool namespaced = false, has_status = false, has_scale = false;
  std::set<std::string> verbs;  // discovery's verbs on the main resource ("create", "get", "watch" ...)
};

struct OpenApiDocument {
  Location location;
  std::map<std::string, OpenApiKindPaths> kinds;  // by definition name
  std::vector<OpenApiDefinition> definitions;  // document order
};

struct InputSet {
  std::vector<Crd> crds;
  std::vector<OpenApiDocument> documents;
};

// Reads every file; CRDs and OpenAPI documents are recognised by content. Problems are reported
// to diags; the caller stops when diags.has_errors().
InputSet read_inputs(SourceSet& sources, const std::vector<std::string>& files, Diagnostics& diags);
// The same for files already in `sources` (read, or added from memory); nullptr entries (files
// that could not be read, already reported) are skipped.
InputSet read_sources(const SourceSet& sources, const std::vector<const std::string*>& files, Diagnostics& diags);

// Reads one in-memory document set (fuzzing and tests).
void read_document(const Node& doc, InputSet& out, Diagnostics& diags, bool& recognised);

}  // namespace rrgen
