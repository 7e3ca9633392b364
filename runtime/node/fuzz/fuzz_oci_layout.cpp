// libFuzzer target for what reads an OCI image layout: the first byte picks the reader (index,
// manifest, config, descriptor, image reference, or a gzip/tar layer), the rest is its input.
// Only the readers' own exceptions may come out (LayoutError, std::invalid_argument,
// std::runtime_error); never a crash or a read past the input.
//
//   fuzz_oci_layout -max_total_time=60 corpus_dir/
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "rr/node/image_reference.hpp"
#include "rr/node/oci_layout.hpp"
#include "tar_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 6) {
      case 0: (void)rr::node::parse_index(input, "index.json"); break;
      case 1: (void)rr::node::parse_manifest(input, "manifest"); break;
      case 2: (void)rr::node::parse_image_config(input, "config"); break;
      case 3: (void)rr::node::parse_descriptor(std::string(input), "descriptor"); break;
      case 4: (void)rr::node::parse_image_reference(input); break;
      default: {
        const std::string archive = rr::node_detail::maybe_gunzip(input, std::size_t{64} << 20);
        std::size_t total = 0;
        rr::node_detail::read_tar(archive,
                                  [&](const rr::node_detail::TarEntry& e) { total += e.data.size() + e.path.size(); });
        if (total > archive.size() * 2 + 1024 * 1024) __builtin_trap();  // data must lie inside the archive
        break;
      }
    }
  } catch (const std::runtime_error&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
