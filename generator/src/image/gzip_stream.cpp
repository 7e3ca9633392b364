#include "image/gzip_stream.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace rrgen::image {
namespace {

void put_le32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

// zlib's default level: an operator's layer (~47 MB) compresses in about 1.5 s to within 1% of
// level 9's size, which takes five times as long.
constexpr int kLevel = 6;

// zlib counts in uInt; feed it at most this much at a time.
constexpr std::size_t kChunk = std::size_t{1} << 30;

}  // namespace

std::string gzip_compress(std::string_view data) {
  // The header by hand (deflateSetHeader would still let zlib pick the OS byte).
  // XFL 0 (neither the fastest nor the best level), OS 255.
  std::string out = {'\x1f', '\x8b', '\x08', '\0', '\0', '\0', '\0', '\0', '\0', '\xff'};
  z_stream zs{};
  // Negative window bits: raw deflate, no zlib or gzip wrapper of zlib's own.
  if (deflateInit2(&zs, kLevel, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib: deflateInit2 failed");
  const std::size_t header = out.size();
  out.resize(header + deflateBound(&zs, static_cast<uLong>(std::min(data.size(), kChunk))) + 64);
  std::size_t in_pos = 0, out_pos = header;
  uLong crc = crc32(0L, Z_NULL, 0);
  int rc = Z_OK;
  do {
    const std::size_t in_len = std::min(data.size() - in_pos, kChunk);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + in_pos));
    zs.avail_in = static_cast<uInt>(in_len);
    crc = crc32(crc, zs.next_in, zs.avail_in);
    in_pos += in_len;
    const int flush = in_pos == data.size() ? Z_FINISH : Z_NO_FLUSH;
    do {
      if (out.size() - out_pos < 65536) out.resize(out.size() * 2);
      zs.next_out = reinterpret_cast<Bytef*>(out.data() + out_pos);
      const std::size_t room = std::min(out.size() - out_pos, kChunk);
      zs.avail_out = static_cast<uInt>(room);
      rc = deflate(&zs, flush);
      out_pos += room - zs.avail_out;
    } while (zs.avail_in != 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
  } while (in_pos < data.size());
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw std::runtime_error("zlib: deflate failed");
  out.resize(out_pos);
  put_le32(out, static_cast<std::uint32_t>(crc));
  put_le32(out, static_cast<std::uint32_t>(data.size() & 0xffffffffu));  // ISIZE: the size mod 2^32
  return out;
}

std::string gzip_decompress(std::string_view gz) {
  z_stream zs{};
  // 16 + 15: a gzip wrapper, checked (CRC, size) by zlib.
  if (inflateInit2(&zs, 16 + 15) != Z_OK) throw std::runtime_error("zlib: inflateInit2 failed");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  zs.avail_in = static_cast<uInt>(std::min(gz.size(), std::size_t{std::numeric_limits<uInt>::max()}));
  std::string out;
  char buffer[65536];
  int rc = Z_OK;
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(buffer);
    zs.avail_out = sizeof buffer;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - zs.avail_out);
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) break;
  }
  inflateEnd(&zs);
  if (rc != Z_STREAM_END) throw std::runtime_error("not a complete gzip stream");
  return out;
}

}  // namespace rrgen::image
