// The Dockerfile beside the layout: the same process (entrypoint, user, ports, labels,
// environment) on gcr.io/distroless/cc-debian12:nonroot, for review and for builds with docker.
// Distroless cc-debian12 is the base because it is the image ours imitates: Debian 12's glibc and
// libstdc++ (what the build machine links against), root and nonroot 65532 in /etc/passwd, the CA
// bundle at the same path, /tmp, and no shell. The libraries the executable loads are listed in
// two groups: those the base has, and those it lacks, each as a commented COPY line naming the
// path the image puts it at; rrgen does not guess the Debian packages they come from, so the
// Dockerfile says plainly what a docker build must add.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace rrgen::image {

inline constexpr const char* kDistrolessBase = "gcr.io/distroless/cc-debian12:nonroot";

struct DockerfileInput {
  std::string image;       // "repo:tag"
  std::string entrypoint;  // "/manager"
  std::string user;        // "65532:65532"
  std::vector<std::string> env;
  std::vector<std::string> exposed_ports;
  std::map<std::string, std::string> labels;
  std::vector<std::string> libraries;  // image paths of the loader and every library
};

std::string dockerfile(const DockerfileInput& input);

// Whether the base image has a library of this file name (glibc's, libgcc's, libstdc++'s, libgomp's,
// OpenSSL 3's: what distroless cc-debian12 installs).
bool base_has_library(const std::string& file_name);

}  // namespace rrgen::image
