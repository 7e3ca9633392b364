#include "tar_reader.hpp"

#include <openssl/evp.h>
#include <zlib.h>

#include <array>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace rr::node_detail {

namespace {

constexpr std::size_t block = 512;

std::string_view field(std::string_view header, std::size_t offset, std::size_t length) {
  std::string_view f = header.substr(offset, length);
  if (auto nul = f.find('\0'); nul != std::string_view::npos) f = f.substr(0, nul);
  return f;
}

// Octal, space or NUL terminated; or base-256 when the high bit of the first byte is set.
std::uint64_t number(std::string_view header, std::size_t offset, std::size_t length) {
  const std::string_view f = header.substr(offset, length);
  std::uint64_t value = 0;
  if (!f.empty() && (static_cast<unsigned char>(f[0]) & 0x80) != 0) {
    for (std::size_t i = 0; i < f.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(f[i]) & (i == 0 ? 0x7f : 0xff);
      if (value >> 55) throw std::runtime_error("tar: a number field is too large");
      value = (value << 8) | c;
    }
    return value;
  }
  for (char c : f) {
    if (c == '\0' || c == ' ') {
      if (value != 0) break;
      continue;
    }
    if (c < '0' || c > '7') throw std::runtime_error("tar: a number field is not octal");
    if (value >> 60) throw std::runtime_error("tar: a number field is too large");
    value = value * 8 + static_cast<std::uint64_t>(c - '0');
  }
  return value;
}

// PAX records: "<length> <key>=<value>\n".
void pax_records(std::string_view data, std::string& path, std::string& linkname, std::uint64_t* size) {
  while (!data.empty()) {
    const auto space = data.find(' ');
    if (space == std::string_view::npos || space == 0 || space > 20) throw std::runtime_error("tar: bad PAX record");
    std::uint64_t length = 0;
    for (char c : data.substr(0, space)) {
      if (c < '0' || c > '9') throw std::runtime_error("tar: bad PAX record length");
      length = length * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (length <= space + 1 || length > data.size()) throw std::runtime_error("tar: bad PAX record length");
    std::string_view record = data.substr(space + 1, length - space - 1);
    data.remove_prefix(length);
    if (!record.empty() && record.back() == '\n') record.remove_suffix(1);
    const auto eq = record.find('=');
    if (eq == std::string_view::npos) throw std::runtime_error("tar: PAX record without '='");
    const std::string_view key = record.substr(0, eq), value = record.substr(eq + 1);
    if (key == "path") path = std::string(value);
    else if (key == "linkpath") linkname = std::string(value);
    else if (key == "size" && size) {
      std::uint64_t n = 0;
      for (char c : value) {
        if (c < '0' || c > '9' || n >> 59) throw std::runtime_error("tar: bad PAX size");
        n = n * 10 + static_cast<std::uint64_t>(c - '0');
      }
      *size = n;
    }
  }
}

bool checksum_ok(std::string_view header) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < block; ++i) {
    sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(header[i]);
  }
  return sum == number(header, 148, 8);
}

}  // namespace

std::string maybe_gunzip(std::string_view bytes, std::size_t limit) {
  if (bytes.size() < 2 || static_cast<unsigned char>(bytes[0]) != 0x1f ||
      static_cast<unsigned char>(bytes[1]) != 0x8b) {
    return std::string(bytes);
  }
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw std::runtime_error("gzip: cannot start zlib");
  std::unique_ptr<z_stream, decltype(&inflateEnd)> guard(&z, &inflateEnd);
  std::string out;
  std::array<char, 64 * 1024> chunk{};
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(std::min<std::size_t>(bytes.size(), 0xffffffffu));
  for (;;) {
    z.next_out = reinterpret_cast<Bytef*>(chunk.data());
    z.avail_out = static_cast<uInt>(chunk.size());
    const int rc = inflate(&z, Z_NO_FLUSH);
    out.append(chunk.data(), chunk.size() - z.avail_out);
    if (out.size() > limit) throw std::runtime_error("gzip: the layer inflates past the size limit");
    if (rc == Z_STREAM_END) return out;
    if (rc != Z_OK)
      throw std::runtime_error(std::string("gzip: corrupt data (") + (z.msg ? z.msg : "zlib error") + ")");
    if (z.avail_in == 0 && z.avail_out != 0) throw std::runtime_error("gzip: truncated data");
  }
}

void read_tar(std::string_view archive, const std::function<void(const TarEntry&)>& on_entry) {
  std::size_t at = 0;
  std::string next_path, next_link;
  std::uint64_t next_size = 0;
  bool has_next_size = false;
  while (at + block <= archive.size()) {
    const std::string_view header = archive.substr(at, block);
    if (header.find_first_not_of('\0') == std::string_view::npos) return;  // end-of-archive
    if (!checksum_ok(header)) throw std::runtime_error("tar: bad header checksum at offset " + std::to_string(at));
    std::uint64_t size = number(header, 124, 12);
    if (has_next_size) size = next_size;
    const char type = header[156];
    at += block;
    if (size > archive.size() - at) throw std::runtime_error("tar: entry runs past the end of the archive");
    const std::string_view data = archive.substr(at, static_cast<std::size_t>(size));
    at += static_cast<std::size_t>((size + block - 1) / block * block);
    if (at > archive.size()) at = archive.size();
    if (type == 'x' || type == 'g') {
      std::uint64_t pax_size = 0;
      std::string path, link;
      pax_records(data, path, link, &pax_size);
      if (type == 'x') {
        if (!path.empty()) next_path = path;
        if (!link.empty()) next_link = link;
        if (pax_size) next_size = pax_size, has_next_size = true;
      }
      continue;
    }
    if (type == 'L' || type == 'K') {
      std::string_view text = data;
      if (auto nul = text.find('\0'); nul != std::string_view::npos) text = text.substr(0, nul);
      (type == 'L' ? next_path : next_link) = std::string(text);
      continue;
    }
    TarEntry entry;
    entry.path = std::string(field(header, 0, 100));
    if (field(header, 257, 5) == "ustar") {
      const std::string_view prefix = field(header, 345, 155);
      if (!prefix.empty()) entry.path = std::string(prefix) + "/" + entry.path;
    }
    entry.linkname = std::string(field(header, 157, 100));
    if (!next_path.empty()) entry.path = std::move(next_path);
    if (!next_link.empty()) entry.linkname = std::move(next_link);
    next_path.clear();
    next_link.clear();
    has_next_size = false;
    entry.mode = static_cast<std::uint32_t>(number(header, 100, 8) & 07777);
    entry.uid = static_cast<std::uint32_t>(number(header, 108, 8));
    entry.gid = static_cast<std::uint32_t>(number(header, 116, 8));
    switch (type) {
      case '0':
      case '\0':
      case '7': entry.type = TarType::File; break;
      case '5': entry.type = TarType::Directory; break;
      case '2': entry.type = TarType::Symlink; break;
      case '1': entry.type = TarType::Hardlink; break;
      default: entry.type = TarType::Other; break;
    }
    if (entry.type == TarType::File) entry.data = data;
    on_entry(entry);
  }
  if (at != archive.size()) throw std::runtime_error("tar: truncated archive");
}

std::string sha256_digest(std::string_view bytes) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), md.data(), &length, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("sha256: OpenSSL failed");
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string out = "sha256:";
  for (unsigned int i = 0; i < length; ++i) {
    out += hex[md[i] >> 4];
    out += hex[md[i] & 15];
  }
  return out;
}

}  // namespace rr::node_detail
