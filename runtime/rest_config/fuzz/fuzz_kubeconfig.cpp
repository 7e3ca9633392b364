// Kubeconfig text of any shape must load or fail with ConfigError: never crash, never another
// exception. Each context name the input might use is tried as an override too.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "rr/rest_config/kubeconfig.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const std::string_view context : {std::string_view{}, std::string_view{"c"}, std::string_view{"prod"}}) {
    try {
      const auto loaded = rr::load_kubeconfig_text(text, context, "/nonexistent-fuzz-base", "fuzz");
      if (loaded.config.host.empty()) __builtin_trap();  // a loaded config always has a server
    } catch (const rr::ConfigError&) {
    }
  }
  return 0;
}
