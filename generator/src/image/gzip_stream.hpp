// gzip (RFC 1952) with a fixed header, so the same bytes always compress to the same member:
// modification time 0, no file name, OS byte 255 ("unknown", as Go's compress/gzip writes it),
// zlib's deflate at level 6 (its default), in 4 MiB pieces deflated in parallel (as pigz does;
// the pieces, hence the bytes, do not depend on the number of threads). The bytes depend on
// zlib's deflate, whose output for a given level has not changed in the 1.2.x/1.3.x releases.
#pragma once
#include <string>
#include <string_view>

namespace rrgen::image {

std::string gzip_compress(std::string_view data);
// Inflates one gzip member; throws std::runtime_error on damaged input (tests, checks).
std::string gzip_decompress(std::string_view gz);

}  // namespace rrgen::image
