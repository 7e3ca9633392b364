// gzip (RFC 1952) with a fixed header, so the same bytes always compress to the same member:
// modification time 0, no file name, OS byte 255 ("unknown", as Go's compress/gzip writes it),
// zlib's deflate at level 6 (its default). The bytes depend on zlib's deflate, which has not changed its output
// for a given level in the 1.2.x/1.3.x series Debian ships.
#pragma once
#include <string>
#include <string_view>

namespace rrgen::image {

std::string gzip_compress(std::string_view data);
// Inflates one gzip member; throws std::runtime_error on damaged input (tests, checks).
std::string gzip_decompress(std::string_view gz);

}  // namespace rrgen::image
