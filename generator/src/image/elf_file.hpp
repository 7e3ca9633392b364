// What the dynamic loader reads from an ELF file before it maps it: the class and machine (a
// library of another kind is skipped), the interpreter (PT_INTERP), and the dynamic section's
// DT_NEEDED, DT_RPATH and DT_RUNPATH strings. Little-endian ELF32/ELF64 only (every Linux target
// an operator image is built for); anything else is an error, never a crash: the input is any file
// a user names.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rrgen::image {

struct ElfFacts {
  bool elf64 = true;
  std::uint16_t machine = 0;  // e_machine: 62 x86-64, 183 AArch64 ...
  std::string interpreter;    // PT_INTERP, "" for a static executable or a library
  bool dynamic = false;       // has PT_DYNAMIC
  std::vector<std::string> needed;
  std::vector<std::string> rpath;    // DT_RPATH split at ':' (used only without DT_RUNPATH)
  std::vector<std::string> runpath;  // DT_RUNPATH split at ':'
  bool has_runpath = false;
};

// nullopt with `error` set ("not an ELF file", "truncated program headers" ...) when `bytes` is
// not an ELF executable or shared object the loader could read.
std::optional<ElfFacts> read_elf_facts(std::string_view bytes, std::string& error);

// "amd64", "arm64" ... (the OCI/Go name of e_machine), "" when there is none.
std::string oci_architecture(std::uint16_t machine);

}  // namespace rrgen::image
