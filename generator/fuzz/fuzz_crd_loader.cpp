// libFuzzer target: arbitrary bytes through the whole front end and the types backend.
// Any crash, sanitizer report or uncaught exception is a bug; diagnostics are the expected outcome.
#include <cstddef>
#include <cstdint>
#include <string>

#include "backends/types/emit_types.hpp"
#include "load/inputs.hpp"
#include "sema/sema.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rrgen;
  SourceSet sources;
  Diagnostics diags;
  const std::string* name = sources.add("fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size));
  LoadLimits limits;
  limits.max_nodes = 200'000;
  InputSet inputs;
  bool recognised = false;
  for (const auto& doc : load_yaml(name, sources.content(name), diags, limits)) read_document(doc, inputs, diags, recognised);
  if (diags.has_errors()) return 0;
  Model model = build_model(inputs, SemaOptions{}, diags);
  if (diags.has_errors()) return 0;
  OutputSet out = emit_types(model, TypesOptions{"fuzz"});
  (void)out;
  return 0;
}
