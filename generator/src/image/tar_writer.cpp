#include "image/tar_writer.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>

namespace rrgen::image {
namespace {

constexpr std::size_t kBlock = 512;

// An octal field of `width` bytes: digits padded with zeros, then a NUL (as GNU tar and Go write).
// Written by hand: snprintf into the field makes g++ -O3 warn that the text may be cut
// (-Wformat-truncation), although callers only pass values that fit (larger ones go to pax).
void octal(char* field, std::size_t width, std::uint64_t value) {
  for (std::size_t i = width - 1; i-- > 0; value >>= 3) field[i] = static_cast<char>('0' + (value & 7U));
  field[width - 1] = '\0';
}

// std::copy_n, not memcpy: an empty value's data() may be null, which memcpy must not be given.
void text(char* field, std::size_t width, std::string_view value) {
  std::copy_n(value.data(), std::min(width, value.size()), field);
}

void pad(std::string& out) { out.append((kBlock - out.size() % kBlock) % kBlock, '\0'); }

// One pax record: "<length> <key>=<value>\n", the length counting itself.
std::string pax_record(std::string_view key, std::string_view value) {
  const std::size_t body = key.size() + value.size() + 3;  // ' ', '=', '\n'
  std::size_t length = body + 1;
  while (std::to_string(length).size() + body > length) ++length;
  return std::to_string(length) + " " + std::string(key) + "=" + std::string(value) + "\n";
}

}  // namespace

bool split_ustar_path(std::string_view path, std::string& prefix, std::string& name) {
  if (path.size() <= 100) {
    prefix.clear();
    name = path;
    return true;
  }
  // The last '/' that leaves a name of at most 100 bytes and a prefix of at most 155.
  for (std::size_t slash = path.find('/', path.size() > 101 ? path.size() - 101 : 0); slash != std::string_view::npos;
       slash = path.find('/', slash + 1)) {
    if (slash <= 155 && path.size() - slash - 1 <= 100 && slash + 1 < path.size()) {
      prefix = path.substr(0, slash);
      name = path.substr(slash + 1);
      return true;
    }
  }
  return false;
}

void TarWriter::header(std::string_view path, char type, std::uint32_t mode, std::uint64_t size,
                       std::string_view link) {
  std::string prefix, name;
  std::string pax;
  if (!split_ustar_path(path, prefix, name)) {
    pax += pax_record("path", path);
    name = path.substr(0, 100);
    prefix.clear();
  }
  if (link.size() > 100) pax += pax_record("linkpath", link);
  constexpr std::uint64_t kMaxOctal11 = 077777777777;  // what 11 octal digits hold (8 GiB - 1)
  if (size > kMaxOctal11) pax += pax_record("size", std::to_string(size));
  if (!pax.empty()) {
    // The extended header applies to the entry after it; its own name is only informative.
    header("PaxHeaders/" + std::string(name.substr(0, 80)), 'x', 0644, pax.size(), {});
    out_ += pax;
    pad(out_);
  }
  char block[kBlock] = {};
  text(block, 100, name);
  octal(block + 100, 8, mode);
  octal(block + 108, 8, 0);  // uid
  octal(block + 116, 8, 0);  // gid
  octal(block + 124, 12, size > kMaxOctal11 ? 0 : size);
  octal(block + 136, 12, static_cast<std::uint64_t>(mtime_));
  std::memset(block + 148, ' ', 8);  // the checksum counts its own field as spaces
  block[156] = type;
  text(block + 157, 100, link.substr(0, 100));
  text(block + 257, 6, "ustar");  // "ustar\0" then version "00": POSIX ustar
  text(block + 263, 2, "00");
  text(block + 265, 32, "root");
  text(block + 297, 32, "root");
  octal(block + 329, 8, 0);  // devmajor
  octal(block + 337, 8, 0);  // devminor
  text(block + 345, 155, prefix);
  unsigned sum = 0;
  for (unsigned char c : block) sum += c;
  std::snprintf(block + 148, 8, "%06o", sum);  // six digits, NUL, then the space already there
  out_.append(block, kBlock);
}

void TarWriter::add(const TarEntry& entry) {
  switch (entry.type) {
    case TarType::Directory: header(entry.path + "/", '5', entry.mode, 0, {}); break;
    case TarType::Symlink: header(entry.path, '2', entry.mode, 0, entry.link_target); break;
    case TarType::File:
      header(entry.path, '0', entry.mode, entry.content.size(), {});
      out_ += entry.content;
      pad(out_);
      break;
  }
}

std::string TarWriter::finish() {
  out_.append(2 * kBlock, '\0');
  return std::move(out_);
}

}  // namespace rrgen::image
