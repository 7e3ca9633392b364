// libFuzzer target: arbitrary bytes as a reconciler spec, read and then resolved against two small
// CRDs and the built-in kinds. Any crash, sanitizer report or uncaught exception is a bug;
// diagnostics are the expected outcome.
#include <cstddef>
#include <cstdint>
#include <string>

#include "load/inputs.hpp"
#include "sema/sema.hpp"
#include "load/spec_reader.hpp"
#include "sema/spec_resolve.hpp"

namespace {

// Function (namespaced, status) and Image (two versions; v1beta1 stores), as the seeds use them.
constexpr const char* kCrds = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: functions.build.example.rrgen.dev}
spec:
  group: build.example.rrgen.dev
  names: {kind: Function, plural: functions}
  scope: Namespaced
  versions:
    - {name: v1, served: true, storage: true, subresources: {status: {}}, schema: {openAPIV3Schema: {type: object}}}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: images.kpack.example.rrgen.dev}
spec:
  group: kpack.example.rrgen.dev
  names: {kind: Image, plural: images}
  scope: Namespaced
  versions:
    - {name: v1alpha1, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
    - {name: v1beta1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
)";

struct Crds {
  rrgen::SourceSet sources;
  rrgen::InputSet inputs;
  rrgen::Model model;
  Crds() {
    rrgen::Diagnostics diags;
    const std::string* name = sources.add("crds.yaml", kCrds);
    bool recognised = false;
    for (const auto& doc : rrgen::load_yaml(name, sources.content(name), diags)) rrgen::read_document(doc, inputs, diags, recognised);
    model = rrgen::build_model(inputs, rrgen::SemaOptions{}, diags);
    if (diags.has_errors()) __builtin_trap();  // the fixture itself is broken
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rrgen;
  static const Crds crds;
  SourceSet sources;
  Diagnostics diags;
  const auto spec = read_spec_text(sources, "fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size), diags);
  if (!spec) return 0;
  const auto resolved = resolve_spec(*spec, crds.model, diags);
  (void)resolved;
  return 0;
}
