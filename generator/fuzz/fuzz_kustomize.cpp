// libFuzzer target: arbitrary bytes as a config/ tree for the kustomize subset behind
// dist/install.yaml (`rrgen pin-image` renders the tree on disk). The input is cut at lines
// "%%" into the files of a fixed layout. Property: diagnostics or a stream that, rendered again as
// the only resource of a kustomization, comes back byte for byte (the output is canonical).
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "load/kustomize.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rrgen;
  static constexpr std::array<const char*, 6> kLayout = {
      "config/default/kustomization.yaml", "config/default/patch.yaml", "config/default/objects.yaml",
      "config/base/kustomization.yaml",    "config/base/objects.yaml",  "config/base/kustomizeconfig.yaml"};
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::map<std::string, std::string> files;
  std::size_t start = 0;
  for (const char* path : kLayout) {
    const std::size_t cut = input.find("\n%%\n", start);
    files[path] = input.substr(start, cut == std::string::npos ? std::string::npos : cut - start);
    if (cut == std::string::npos) break;
    start = cut + 4;
  }
  auto render = [](const std::map<std::string, std::string>& tree) {
    Diagnostics diags;
    return kustomize_build(
        [&](const std::string& path) -> const std::string* {
          auto it = tree.find(path);
          return it == tree.end() ? nullptr : &it->second;
        },
        "config/default", diags);
  };
  const std::optional<std::string> first = render(files);
  if (!first) return 0;
  const std::optional<std::string> again = render(
      {{"config/default/kustomization.yaml", "resources: [all.yaml]\n"}, {"config/default/all.yaml", *first}});
  if (!again || *again != *first) __builtin_trap();
  return 0;
}
