// An OCI layout made with umoci for the node tests: one image "app:v1" holding the static test
// program at /bin/prog (Entrypoint), IMAGE_VAR in its Env and /work as its WorkingDir. Tests that
// need it skip (with a message) without root or without umoci. free_port() for servers in them.
#pragma once
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace node_test {

inline bool can_run_containers() { return ::geteuid() == 0 && std::system("command -v umoci > /dev/null 2>&1") == 0; }

#define SKIP_WITHOUT_CONTAINERS()                                              \
  if (!node_test::can_run_containers()) {                                      \
    MESSAGE("not root or no umoci on PATH: real-container node test skipped"); \
    return;                                                                    \
  }

// Builds <dir>/app (a layout) with `program` copied in, and with its shared-library closure (as
// ldd lists it, the loader included) when `with_libraries`; returns false (with output) on failure.
inline bool make_test_image(const std::filesystem::path& dir, const std::string& program, bool with_libraries = false) {
  const std::string layout = (dir / "app").string(), bundle = (dir / "bundle").string();
  const std::string script = "set -e; umoci init --layout " + layout + "; umoci new --image " + layout +
                             ":v1; umoci unpack --image " + layout + ":v1 " + bundle + "; mkdir -p " + bundle +
                             "/rootfs/bin " + bundle + "/rootfs/etc; cp " + program + " " + bundle +
                             "/rootfs/bin/prog; " +
                             (with_libraries
                                  ? "for lib in $(ldd " + program + " | grep -o '/[^ ]*'); do mkdir -p " + bundle +
                                        "/rootfs$(dirname $lib); cp -L $lib " + bundle + "/rootfs$lib; done; "
                                  : std::string()) +
                             "echo 'root:x:0:0:root:/root:/bin/prog' > " + bundle +
                             "/rootfs/etc/passwd; echo 'app:x:1234:4321:app:/:/bin/prog' >> " + bundle +
                             "/rootfs/etc/passwd; umoci repack --image " + layout + ":v1 " + bundle +
                             "; umoci config --image " + layout +
                             ":v1 --config.entrypoint /bin/prog --config.env IMAGE_VAR=from-image"
                             " --config.workingdir /work; rm -rf " +
                             bundle;
  const std::filesystem::path log = dir.parent_path() / (dir.filename().string() + "-umoci.log");
  if (std::system(("(" + script + ") > " + log.string() + " 2>&1").c_str()) == 0) return true;
  std::ifstream in(log);
  MESSAGE("making the test image failed:\n" << std::string(std::istreambuf_iterator<char>(in), {}));
  return false;
}

// A TCP port free on 127.0.0.1 now (the kernel's choice), for a test program to serve on.
inline int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

}  // namespace node_test
