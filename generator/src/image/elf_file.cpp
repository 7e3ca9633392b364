#include "image/elf_file.hpp"

#include <cstring>
#include <utility>

namespace rrgen::image {
namespace {

constexpr std::uint32_t kPtLoad = 1, kPtDynamic = 2, kPtInterp = 3;
constexpr std::uint64_t kDtNull = 0, kDtNeeded = 1, kDtStrtab = 5, kDtStrsz = 10, kDtRpath = 15, kDtRunpath = 29;

// Bounds-checked little-endian reads: every offset comes from the file.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  bool has(std::uint64_t offset, std::uint64_t size) const {
    return offset <= bytes_.size() && size <= bytes_.size() - offset;
  }
  std::uint64_t u(std::uint64_t offset, unsigned size) const {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < size; ++i) v |= std::uint64_t{static_cast<unsigned char>(bytes_[offset + i])} << (8 * i);
    return v;
  }
  std::string_view bytes() const { return bytes_; }

 private:
  std::string_view bytes_;
};

struct Segment {
  std::uint32_t type;
  std::uint64_t offset, vaddr, filesz;
};

std::vector<std::string> split_path_list(std::string_view list) {
  std::vector<std::string> dirs;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t colon = list.find(':', start);
    if (colon == std::string_view::npos) colon = list.size();
    if (colon > start) dirs.emplace_back(list.substr(start, colon - start));
    start = colon + 1;
  }
  return dirs;
}

}  // namespace

std::optional<ElfFacts> read_elf_facts(std::string_view bytes, std::string& error) {
  const Reader r(bytes);
  if (!r.has(0, 16) || std::memcmp(bytes.data(),
                                   "\x7f"
                                   "ELF",
                                   4) != 0) {
    error = "not an ELF file";
    return std::nullopt;
  }
  ElfFacts facts;
  const unsigned char elf_class = static_cast<unsigned char>(bytes[4]);
  if (elf_class != 1 && elf_class != 2) {
    error = "unknown ELF class " + std::to_string(elf_class);
    return std::nullopt;
  }
  if (bytes[5] != 1) {
    error = "not a little-endian ELF file (only little-endian targets are supported)";
    return std::nullopt;
  }
  facts.elf64 = elf_class == 2;
  const unsigned word = facts.elf64 ? 8 : 4;
  if (!r.has(0, facts.elf64 ? 64 : 52)) {
    error = "truncated ELF header";
    return std::nullopt;
  }
  const auto type = r.u(16, 2);
  if (type != 2 && type != 3) {
    error = "not an executable or shared object (ELF type " + std::to_string(type) + ")";
    return std::nullopt;
  }
  facts.machine = static_cast<std::uint16_t>(r.u(18, 2));
  const std::uint64_t phoff = r.u(facts.elf64 ? 32 : 28, word);
  const std::uint64_t phentsize = r.u(facts.elf64 ? 54 : 42, 2);
  const std::uint64_t phnum = r.u(facts.elf64 ? 56 : 44, 2);
  if (phentsize < (facts.elf64 ? 56u : 32u) || !r.has(phoff, phentsize * phnum)) {
    error = "truncated program headers";
    return std::nullopt;
  }
  std::vector<Segment> segments;
  for (std::uint64_t i = 0; i < phnum; ++i) {
    const std::uint64_t p = phoff + i * phentsize;
    Segment s{};
    s.type = static_cast<std::uint32_t>(r.u(p, 4));
    s.offset = r.u(p + (facts.elf64 ? 8 : 4), word);
    s.vaddr = r.u(p + (facts.elf64 ? 16 : 8), word);
    s.filesz = r.u(p + (facts.elf64 ? 32 : 16), word);
    segments.push_back(s);
  }
  // A virtual address as a file offset, through the PT_LOAD segment that maps it.
  auto file_offset = [&](std::uint64_t vaddr) -> std::optional<std::uint64_t> {
    for (const Segment& s : segments)
      if (s.type == kPtLoad && vaddr >= s.vaddr && vaddr - s.vaddr < s.filesz) return s.offset + (vaddr - s.vaddr);
    return std::nullopt;
  };

  const Segment* dynamic = nullptr;
  for (const Segment& s : segments) {
    if (s.type == kPtInterp) {
      if (!r.has(s.offset, s.filesz) || s.filesz == 0) {
        error = "truncated PT_INTERP";
        return std::nullopt;
      }
      std::string_view interp = bytes.substr(s.offset, s.filesz);
      interp = interp.substr(0, interp.find('\0'));
      if (interp.empty() || interp[0] != '/') {
        error = "PT_INTERP is not an absolute path";
        return std::nullopt;
      }
      facts.interpreter = interp;
    } else if (s.type == kPtDynamic) {
      dynamic = &s;
    }
  }
  if (!dynamic) return facts;
  facts.dynamic = true;
  if (!r.has(dynamic->offset, dynamic->filesz)) {
    error = "truncated dynamic section";
    return std::nullopt;
  }
  std::uint64_t strtab = 0, strsz = 0;
  bool have_strtab = false;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> strings;  // (tag, string offset)
  for (std::uint64_t p = dynamic->offset; p + 2 * word <= dynamic->offset + dynamic->filesz; p += 2 * word) {
    const std::uint64_t tag = r.u(p, word), value = r.u(p + word, word);
    if (tag == kDtNull) break;
    if (tag == kDtStrtab) {
      strtab = value;
      have_strtab = true;
    } else if (tag == kDtStrsz) {
      strsz = value;
    } else if (tag == kDtNeeded || tag == kDtRpath || tag == kDtRunpath) {
      strings.emplace_back(tag, value);
    }
  }
  if (strings.empty()) return facts;
  const auto table = have_strtab ? file_offset(strtab) : std::nullopt;
  if (!table || !r.has(*table, strsz)) {
    error = "the dynamic string table (DT_STRTAB) is outside the file";
    return std::nullopt;
  }
  const std::string_view strs = bytes.substr(*table, strsz);
  for (const auto& [tag, offset] : strings) {
    const std::size_t end = offset < strs.size() ? strs.find('\0', offset) : std::string_view::npos;
    if (end == std::string_view::npos) {
      error = "a dynamic string is outside the string table";
      return std::nullopt;
    }
    const std::string_view value = strs.substr(offset, end - offset);
    if (tag == kDtNeeded) {
      if (value.empty()) {
        error = "an empty DT_NEEDED name";
        return std::nullopt;
      }
      facts.needed.emplace_back(value);
    } else if (tag == kDtRpath) {
      for (auto& dir : split_path_list(value)) facts.rpath.push_back(std::move(dir));
    } else {
      facts.has_runpath = true;
      for (auto& dir : split_path_list(value)) facts.runpath.push_back(std::move(dir));
    }
  }
  return facts;
}

std::string oci_architecture(std::uint16_t machine) {
  switch (machine) {
    case 62: return "amd64";
    case 183: return "arm64";
    case 3: return "386";
    case 40: return "arm";
    case 243: return "riscv64";
    case 21: return "ppc64le";
    default: return "";
  }
}

}  // namespace rrgen::image
