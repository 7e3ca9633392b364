// libFuzzer target: arbitrary bytes as an executable for `rrgen image`, read as the loader reads
// it (image/elf_file). Beyond no crash: an accepted file's strings lie inside the input, DT_NEEDED
// names are not empty and the interpreter is an absolute path; a refused one says why.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "image/elf_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::string error;
  const auto facts = rrgen::image::read_elf_facts(bytes, error);
  if (!facts) {
    if (error.empty()) __builtin_trap();
    return 0;
  }
  if (!facts->interpreter.empty() &&
      (facts->interpreter[0] != '/' || bytes.find(facts->interpreter) == std::string_view::npos))
    __builtin_trap();
  for (const auto& name : facts->needed)
    if (name.empty() || bytes.find(name) == std::string_view::npos) __builtin_trap();
  for (const auto& dir : facts->runpath)
    if (bytes.find(dir) == std::string_view::npos) __builtin_trap();
  return 0;
}
