// Starting one container's process. As root: a child in new mount and PID namespaces (it is PID
// 1 there) whose root is an overlay of the unpacked image (upper and work directories in the
// container's own directory; bound onto itself read-only for readOnlyRootFilesystem once the
// working directory is made),
// with /proc, a tmpfs /dev holding null, zero, full, random, urandom and tty bound from the host,
// the pod's volumes bound at their mount paths, chroot, then setgroups/setgid/setuid and exec. Not root: a plain child
// process run through the image's own dynamic loader (--library-path into the rootfs), or directly when static.
#pragma once
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <variant>
#include <vector>

namespace rr::node_detail {

// A host path (a volume's directory or file) bound at `target` inside the container's root.
struct VolumeBind {
  std::filesystem::path source;
  std::string target;
  bool read_only = false;
};

struct LaunchSpec {
  std::filesystem::path rootfs;         // the unpacked image (never written)
  std::filesystem::path container_dir;  // upper/, work/, merged/ for this run
  std::vector<std::string> argv;
  std::vector<std::string> env;  // "NAME=value"
  std::string working_dir = "/";
  uid_t uid = 0;
  gid_t gid = 0;
  bool read_only = false;
  bool isolate = true;  // namespaces + chroot (needs root)
  int netns_fd = -1;    // the pod's network namespace to join (isolate only); -1: the agent's
  // The UTS namespace's host name (isolate only), what gethostname() answers inside: the pod's.
  std::string hostname;
  // Volumes bound into the root (isolated only; a plain process gets none).
  std::vector<VolumeBind> mounts;
};

struct Launched {
  pid_t pid = -1;
  int stdout_fd = -1, stderr_fd = -1;  // read ends of the container's output
};

// The program argv[0] names, looked up as runc does (PATH from `env` when it has no '/'),
// resolved inside `rootfs`; an error in runc's words when missing.
// Returns "" and sets `error` when it is not there.
std::string find_executable(const std::filesystem::path& rootfs, const std::string& program,
                            const std::vector<std::string>& env, std::string& error);

// Starts the process; the error text (CreateContainerError's message) when it cannot.
std::variant<Launched, std::string> launch(const LaunchSpec& spec);

// A host path for `path` inside `rootfs`, following symlinks as the container would see them.
std::filesystem::path in_root(const std::filesystem::path& rootfs, const std::string& path);

}  // namespace rr::node_detail
