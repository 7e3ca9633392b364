// Small ELF64 little-endian files for the image tests: an ELF header, one PT_LOAD mapping the
// whole file, PT_INTERP when asked, and PT_DYNAMIC with DT_NEEDED/DT_RPATH/DT_RUNPATH strings.
// Enough for the loader's view that elf_file reads; nothing runs them. And write_file(), which
// lays them out as a fake system.
#pragma once
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace rrgen::testing {

struct ElfSpec {
  std::uint16_t machine = 62;  // x86-64
  std::uint16_t type = 3;      // ET_DYN
  std::string interpreter;
  std::vector<std::string> needed;
  std::string rpath, runpath;
};

inline void put(std::string& out, std::size_t at, std::uint64_t v, unsigned size) {
  for (unsigned i = 0; i < size; ++i) out[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

inline std::string make_elf(const ElfSpec& spec) {
  constexpr std::uint64_t kBase = 0x400000;
  const unsigned phnum = spec.interpreter.empty() ? 2 : 3;
  const std::size_t interp_at = 64 + 56 * phnum;
  std::string strtab(1, '\0');
  std::vector<std::pair<std::uint64_t, std::uint64_t>> dyn;  // tag, value
  auto add_string = [&](std::uint64_t tag, const std::string& s) {
    dyn.emplace_back(tag, strtab.size());
    strtab += s;
    strtab += '\0';
  };
  for (const auto& n : spec.needed) add_string(1, n);
  if (!spec.rpath.empty()) add_string(15, spec.rpath);
  if (!spec.runpath.empty()) add_string(29, spec.runpath);
  const std::size_t strtab_at = interp_at + spec.interpreter.size() + 1;
  const std::size_t dynamic_at = (strtab_at + strtab.size() + 7) / 8 * 8;
  dyn.emplace_back(5, kBase + strtab_at);
  dyn.emplace_back(10, strtab.size());
  dyn.emplace_back(0, 0);
  std::string out(dynamic_at + 16 * dyn.size(), '\0');
  out.replace(0, 4,
              "\x7f"
              "ELF");
  out[4] = 2;  // ELFCLASS64
  out[5] = 1;  // little-endian
  out[6] = 1;  // EV_CURRENT
  put(out, 16, spec.type, 2);
  put(out, 18, spec.machine, 2);
  put(out, 20, 1, 4);
  put(out, 32, 64, 8);  // e_phoff
  put(out, 52, 64, 2);  // e_ehsize
  put(out, 54, 56, 2);  // e_phentsize
  put(out, 56, phnum, 2);
  auto phdr = [&](unsigned i, std::uint32_t type, std::uint64_t offset, std::uint64_t size) {
    const std::size_t p = 64 + 56 * i;
    put(out, p, type, 4);
    put(out, p + 8, offset, 8);
    put(out, p + 16, kBase + offset, 8);
    put(out, p + 24, kBase + offset, 8);
    put(out, p + 32, size, 8);
    put(out, p + 40, size, 8);
  };
  phdr(0, 1, 0, out.size());
  phdr(1, 2, dynamic_at, 16 * dyn.size());
  if (!spec.interpreter.empty()) {
    phdr(2, 3, interp_at, spec.interpreter.size() + 1);
    out.replace(interp_at, spec.interpreter.size(), spec.interpreter);
  }
  out.replace(strtab_at, strtab.size(), strtab);
  for (std::size_t i = 0; i < dyn.size(); ++i) {
    put(out, dynamic_at + 16 * i, dyn[i].first, 8);
    put(out, dynamic_at + 16 * i + 8, dyn[i].second, 8);
  }
  return out;
}

// A shared library needing `needed`.
inline std::string lib_elf(std::vector<std::string> needed = {}, std::uint16_t machine = 62) {
  ElfSpec spec;
  spec.needed = std::move(needed);
  spec.machine = machine;
  return make_elf(spec);
}

// An executable with glibc's x86-64 loader as its interpreter.
inline std::string exe_elf(std::vector<std::string> needed, std::string runpath = "", std::string rpath = "") {
  ElfSpec spec;
  spec.type = 2;
  spec.interpreter = "/lib64/ld-linux-x86-64.so.2";
  spec.needed = std::move(needed);
  spec.runpath = std::move(runpath);
  spec.rpath = std::move(rpath);
  return make_elf(spec);
}

// An ELF file of another type (1: relocatable; 2 without interpreter: a static executable).
inline std::string typed_elf(std::uint16_t type) {
  ElfSpec spec;
  spec.type = type;
  return make_elf(spec);
}

// Writes a file of the fake system, creating its directories.
inline void write_file(const std::filesystem::path& path, const std::string& content) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

}  // namespace rrgen::testing
