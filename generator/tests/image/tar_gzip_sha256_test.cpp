// The image's byte-level writers: ustar/pax headers, the fixed gzip header, SHA-256.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "image/gzip_stream.hpp"
#include "image/sha256.hpp"
#include "image/tar_writer.hpp"

using namespace rrgen::image;

namespace {

std::string field(const std::string& block, std::size_t at, std::size_t width) {
  std::string s = block.substr(at, width);
  return s.substr(0, s.find('\0'));
}

unsigned checksum_of(std::string block) {
  block.replace(148, 8, 8, ' ');
  unsigned sum = 0;
  for (unsigned char c : block) sum += c;
  return sum;
}

}  // namespace

TEST_CASE("sha256: the FIPS 180-2 vectors, as OCI digests") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(oci_digest("abc") == "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("tar: a file's ustar header is root's, at the given mtime, with a valid checksum") {
  TarWriter tar(1700000000);
  tar.add({"etc/passwd", TarType::File, 0644, "root\n", {}});
  tar.add({"tmp", TarType::Directory, 01777, {}, {}});
  const std::string archive = tar.finish();
  REQUIRE(archive.size() == 512 * 5);  // header, one data block, header, two zero blocks
  const std::string h = archive.substr(0, 512);
  CHECK(field(h, 0, 100) == "etc/passwd");
  CHECK(field(h, 100, 8) == "0000644");
  CHECK(field(h, 108, 8) == "0000000");
  CHECK(field(h, 116, 8) == "0000000");
  CHECK(field(h, 124, 12) == "00000000005");
  CHECK(std::stoll(field(h, 136, 12), nullptr, 8) == 1700000000);
  CHECK(h[156] == '0');
  CHECK(h.substr(257, 8) == std::string("ustar\0"
                                        "00",
                                        8));
  CHECK(field(h, 265, 32) == "root");
  CHECK(std::stoul(field(h, 148, 8), nullptr, 8) == checksum_of(h));
  CHECK(archive.substr(512, 5) == "root\n");
  CHECK(archive.substr(517, 512 - 5) == std::string(507, '\0'));
  const std::string d = archive.substr(1024, 512);
  CHECK(field(d, 0, 100) == "tmp/");
  CHECK(d[156] == '5');
  CHECK(field(d, 100, 8) == "0001777");
  CHECK(archive.substr(1536) == std::string(1024, '\0'));
}

TEST_CASE("tar: a long path goes into ustar's prefix, a longer one into a pax header") {
  const std::string dir(120, 'd');
  std::string prefix, name;
  REQUIRE(split_ustar_path(dir + "/file", prefix, name));
  CHECK(prefix == dir);
  CHECK(name == "file");
  CHECK_FALSE(split_ustar_path(std::string(300, 'x'), prefix, name));

  TarWriter tar(0);
  const std::string path = std::string(200, 'a') + "/" + std::string(101, 'b');
  tar.add({path, TarType::File, 0644, "x", {}});
  const std::string archive = tar.finish();
  CHECK(archive[156] == 'x');  // the extended header first
  const std::string record = "path=" + path + "\n";
  const std::string pax = archive.substr(512, std::stoul(field(archive, 124, 12), nullptr, 8));
  // "<length> path=...\n", the length counting its own digits.
  CHECK(pax == std::to_string(pax.size()) + " " + record);
  CHECK(archive[1024 + 156] == '0');
}

TEST_CASE("gzip: a fixed header (mtime 0, no name, OS 255), and it inflates back") {
  const std::string data = std::string(100000, 'a') + "the layer";
  const std::string gz = gzip_compress(data);
  CHECK(gz.substr(0, 10) == std::string("\x1f\x8b\x08\0\0\0\0\0\0\xff", 10));
  CHECK(gz.size() < data.size() / 10);
  CHECK(gzip_decompress(gz) == data);
  CHECK(gzip_compress(data) == gz);  // deterministic
  CHECK(gzip_decompress(gzip_compress("")).empty());
}

TEST_CASE("gzip: an input of several 4 MiB pieces deflates into one stream that inflates back") {
  std::string data;
  for (std::uint32_t i = 0; data.size() < 9u << 20; ++i) data += std::to_string(i * 2654435761u % 100003) + ",";
  const std::string gz = gzip_compress(data);
  CHECK(gzip_decompress(gz) == data);
  CHECK(gzip_compress(data) == gz);
  CHECK(gz.size() < data.size() / 2);
}

TEST_CASE("gzip: a damaged stream is an error") {
  std::string gz = gzip_compress("some bytes to compress, some bytes to compress");
  gz[gz.size() - 6] ^= 0x55;  // the CRC
  CHECK_THROWS(gzip_decompress(gz));
  CHECK_THROWS(gzip_decompress(gz.substr(0, 12)));
}
