#include "image/dockerfile.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace rrgen::image {
namespace {

// JSON string syntax, as Dockerfile's exec form and LABEL values take it.
std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace

bool base_has_library(const std::string& file_name) {
  // The packages of distroless cc-debian12: libc6, libgcc-s1, libgomp1, libstdc++6, libssl3.
  static constexpr std::array<std::string_view, 22> kBase = {"ld-linux-x86-64.so.2",
                                                             "ld-linux-aarch64.so.1",
                                                             "libc.so.6",
                                                             "libm.so.6",
                                                             "libpthread.so.0",
                                                             "libdl.so.2",
                                                             "librt.so.1",
                                                             "libresolv.so.2",
                                                             "libutil.so.1",
                                                             "libanl.so.1",
                                                             "libnss_files.so.2",
                                                             "libnss_dns.so.2",
                                                             "libBrokenLocale.so.1",
                                                             "libc_malloc_debug.so.0",
                                                             "libmvec.so.1",
                                                             "libthread_db.so.1",
                                                             "libgcc_s.so.1",
                                                             "libstdc++.so.6",
                                                             "libgomp.so.1",
                                                             "libssl.so.3",
                                                             "libcrypto.so.3",
                                                             "libnsl.so.1"};
  return std::find(kBase.begin(), kBase.end(), file_name) != kBase.end();
}

std::string dockerfile(const DockerfileInput& in) {
  std::string out;
  out += "# " + in.image + " (its digest is in ./digest) as a Dockerfile, written by `rrgen image`.\n";
  out += "# The OCI layout beside this file is the image; this file builds the same process on a\n";
  out += "# distroless base. Build context: a directory holding the executable as ./manager.\n";
  out += "FROM " + std::string(kDistrolessBase) + "\n";
  out += "COPY manager " + in.entrypoint + "\n";
  std::vector<std::string> have, lack;
  for (const auto& path : in.libraries) {
    const std::string name = path.substr(path.rfind('/') + 1);
    (base_has_library(name) ? have : lack).push_back(path);
  }
  out += "# Shared libraries " + in.entrypoint + " loads that the base image has:\n";
  for (const auto& path : have) out += "#   " + path + "\n";
  if (lack.empty()) {
    out += "# It loads no library the base image lacks.\n";
  } else {
    out += "# Shared libraries it loads that the base image lacks: a docker build must copy them in,\n";
    out += "# e.g. from a debian:12 stage with their packages installed (the OCI image has them):\n";
    for (const auto& path : lack) out += "# COPY --from=libs " + path + " " + path + "\n";
  }
  for (const auto& e : in.env) out += "ENV " + e + "\n";
  for (const auto& port : in.exposed_ports) out += "EXPOSE " + port + "\n";
  for (const auto& [key, value] : in.labels) out += "LABEL " + quoted(key) + "=" + quoted(value) + "\n";
  out += "USER " + in.user + "\n";
  out += "WORKDIR /\n";
  out += "ENTRYPOINT [" + quoted(in.entrypoint) + "]\n";
  return out;
}

}  // namespace rrgen::image
