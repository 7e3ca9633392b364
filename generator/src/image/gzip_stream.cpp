#include "image/gzip_stream.hpp"

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace rrgen::image {
namespace {

void put_le32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

// zlib's default level: an operator's layer (~47 MB) compresses to within 1% of level 9's size
// in a fifth of the time.
constexpr int kLevel = 6;
// The input is deflated in pieces of this size, in parallel, as pigz does: each piece but the
// last ends with a sync flush (byte-aligned, not final), so the pieces concatenate into one
// deflate stream, and each starts with the 32 KiB before it as its dictionary. The pieces are
// fixed by the input alone, so the bytes do not depend on the number of threads.
constexpr std::size_t kPiece = std::size_t{4} << 20;
constexpr std::size_t kWindow = 32768;

struct Piece {
  std::string deflated;
  uLong crc = 0;
};

Piece deflate_piece(std::string_view data, std::size_t begin, bool last) {
  const std::string_view in = data.substr(begin, kPiece);
  Piece piece;
  piece.crc = crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(in.data()), static_cast<uInt>(in.size()));
  z_stream zs{};
  // Negative window bits: raw deflate, no zlib or gzip wrapper of zlib's own.
  if (deflateInit2(&zs, kLevel, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib: deflateInit2 failed");
  if (begin > 0) {
    const std::size_t dict = std::min(begin, kWindow);
    deflateSetDictionary(&zs, reinterpret_cast<const Bytef*>(data.data() + begin - dict), static_cast<uInt>(dict));
  }
  piece.deflated.resize(deflateBound(&zs, static_cast<uLong>(in.size())) + 16);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(piece.deflated.data());
  zs.avail_out = static_cast<uInt>(piece.deflated.size());
  const int rc = deflate(&zs, last ? Z_FINISH : Z_SYNC_FLUSH);
  const bool complete = last ? rc == Z_STREAM_END : rc == Z_OK && zs.avail_in == 0 && zs.avail_out > 0;
  piece.deflated.resize(piece.deflated.size() - zs.avail_out);
  deflateEnd(&zs);
  if (!complete) throw std::runtime_error("zlib: deflate failed");
  return piece;
}

}  // namespace

std::string gzip_compress(std::string_view data) {
  const std::size_t count = std::max<std::size_t>(1, (data.size() + kPiece - 1) / kPiece);
  std::vector<Piece> pieces(count);
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_lock;
  auto work = [&] {
    for (std::size_t i; (i = next++) < count;) {
      try {
        pieces[i] = deflate_piece(data, i * kPiece, i + 1 == count);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_lock);
        failure = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  const std::size_t workers = std::min<std::size_t>(count, std::max(1u, std::thread::hardware_concurrency()));
  for (std::size_t t = 1; t < workers; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);

  // The header by hand (deflateSetHeader would still let zlib pick the OS byte): no mtime, no
  // name, XFL 0, OS 255.
  std::string out = {'\x1f', '\x8b', '\x08', '\0', '\0', '\0', '\0', '\0', '\0', '\xff'};
  uLong crc = crc32(0L, Z_NULL, 0);
  for (std::size_t i = 0; i < count; ++i) {
    out += pieces[i].deflated;
    const std::size_t length = std::min(kPiece, data.size() - std::min(data.size(), i * kPiece));
    crc = crc32_combine(crc, pieces[i].crc, static_cast<z_off_t>(length));
  }
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
