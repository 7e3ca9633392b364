// `rrgen image` as a pure function: an executable and its request -> the files of the output
// directory (the OCI layout, digest, image-ref, Dockerfile, files.txt). The one layer holds
// exactly the executable at /manager (the path kubebuilder's Dockerfile and config/manager use),
// its loader and shared libraries (elf_closure), a CA bundle, /etc/passwd and /etc/group with root
// and nonroot (65532, as distroless), and /tmp: no shell, nothing else. Every byte is a function of
// the inputs: mtimes are `epoch`, owners root, entries sorted, the gzip header fixed.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "image/elf_closure.hpp"
#include "image/image_ref.hpp"
#include "image/oci_layout.hpp"
#include "support/diagnostics.hpp"

namespace rrgen::image {

inline constexpr const char* kEntrypoint = "/manager";
inline constexpr const char* kCaBundlePath = "/etc/ssl/certs/ca-certificates.crt";

struct ImageRequest {
  std::string executable;  // the file to run (already stripped, if it is to be)
  ImageRef ref;
  std::vector<std::string> ports;         // "8443" or "8443/tcp", "53/udp"
  std::vector<std::string> labels;        // "key=value"
  std::string user = "65532";             // uid; the gid is the same
  std::string ca_bundle = kCaBundlePath;  // read from this machine
  std::int64_t epoch = 0;                 // SOURCE_DATE_EPOCH
  LibrarySearch search;
};

struct ImageResult {
  std::vector<LayoutFile> files;  // the output directory's, relative paths
  std::string digest;             // the manifest's
  std::size_t layer_bytes = 0, layer_gz_bytes = 0, executable_bytes = 0;
  std::size_t file_count = 0;
};

// nullopt when anything is wrong (reported in `diags`, naming the file and what is missing).
std::optional<ImageResult> build_image(const ImageRequest& request, Diagnostics& diags);

}  // namespace rrgen::image
