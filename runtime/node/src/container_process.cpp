#include "container_process.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

namespace rr::node_detail {

namespace fs = std::filesystem;

fs::path in_root(const fs::path& rootfs, const std::string& path) {
  std::string rest = path;
  fs::path at = rootfs;
  for (int hops = 0; hops < 40;) {
    std::vector<std::string> parts;
    for (std::size_t b = 0; b <= rest.size();) {
      std::size_t e = rest.find('/', b);
      if (e == std::string::npos) e = rest.size();
      if (e > b) parts.push_back(rest.substr(b, e - b));
      b = e + 1;
    }
    bool restarted = false;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (parts[i] == ".") continue;
      if (parts[i] == "..") {
        if (at != rootfs) at = at.parent_path();
        continue;
      }
      const fs::path next = at / parts[i];
      std::error_code ec;
      if (fs::is_symlink(next, ec)) {
        const std::string target = fs::read_symlink(next, ec).string();
        std::string remaining;
        for (std::size_t j = i + 1; j < parts.size(); ++j) remaining += "/" + parts[j];
        if (!target.empty() && target[0] == '/') at = rootfs;
        rest = target + remaining;
        ++hops;
        restarted = true;
        break;
      }
      at = next;
    }
    if (!restarted) return at;
  }
  return at;
}

std::string find_executable(const fs::path& rootfs, const std::string& program, const std::vector<std::string>& env,
                            std::string& error) {
  auto executable = [&](const std::string& path) {
    struct stat st {};
    const fs::path host = in_root(rootfs, path);
    return ::stat(host.c_str(), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111) != 0;
  };
  if (program.empty()) {
    error = "no command specified";
    return {};
  }
  if (program.find('/') != std::string::npos) {
    if (executable(program)) return program;
    error = "exec: \"" + program + "\": stat " + program + ": no such file or directory";
    return {};
  }
  std::string path_var = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  for (const std::string& e : env) {
    if (e.rfind("PATH=", 0) == 0) path_var = e.substr(5);
  }
  for (std::size_t b = 0; b <= path_var.size();) {
    std::size_t e = path_var.find(':', b);
    if (e == std::string::npos) e = path_var.size();
    const std::string dir = path_var.substr(b, e - b);
    if (!dir.empty() && executable(dir + "/" + program)) return dir + "/" + program;
    b = e + 1;
  }
  error = "exec: \"" + program + "\": executable file not found in $PATH";
  return {};
}

namespace {

// The ELF interpreter (PT_INTERP) of a 64-bit executable, or "" (static, or not ELF).
std::string interpreter_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  Elf64_Ehdr eh{};
  if (!in.read(reinterpret_cast<char*>(&eh), sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64) {
    return {};
  }
  for (int i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph{};
    in.seekg(static_cast<std::streamoff>(eh.e_phoff + static_cast<std::uint64_t>(i) * eh.e_phentsize));
    if (!in.read(reinterpret_cast<char*>(&ph), sizeof ph)) return {};
    if (ph.p_type != PT_INTERP || ph.p_filesz == 0 || ph.p_filesz > 4096) continue;
    std::string interp(ph.p_filesz, '\0');
    in.seekg(static_cast<std::streamoff>(ph.p_offset));
    if (!in.read(interp.data(), static_cast<std::streamsize>(interp.size()))) return {};
    return interp.c_str();
  }
  return {};
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Reports a failing step to the parent through the close-on-exec pipe, then ends the child.
[[noreturn]] void child_fail(int report, const char* step) {
  const int err = errno;
  char message[256];
  const int n = std::snprintf(message, sizeof message, "%s: %s", step, std::strerror(err));
  if (n > 0) (void)!::write(report, message, static_cast<std::size_t>(n));
  _exit(127);
}

// A volume bind worked out before fork: the target under the merged root (the image's symlinks
// followed inside the root, as runc resolves mount destinations), the directories to make.
struct PreparedBind {
  std::string source, target;
  std::vector<std::string> chain;  // directories to make, outermost first
  bool file = false;               // a file bound (a subPath to a key): the target is a file
  bool read_only = false;
  std::string failure;  // the step's words when it fails
};

std::vector<PreparedBind> prepare_binds(const LaunchSpec& spec, const fs::path& merged) {
  std::vector<PreparedBind> out;
  if (!spec.isolate) return out;
  for (const VolumeBind& m : spec.mounts) {
    PreparedBind b;
    b.source = m.source.string();
    const fs::path relative = in_root(spec.rootfs, m.target).lexically_relative(spec.rootfs);
    std::error_code ec;
    b.file = !fs::is_directory(m.source, ec);
    fs::path at = merged;
    for (const fs::path& part : relative) {
      if (part.empty() || part == "." || part == "..") continue;
      at /= part;
      b.chain.push_back(at.string());
    }
    b.target = at.string();
    if (b.file && !b.chain.empty()) b.chain.pop_back();
    b.read_only = m.read_only;
    b.failure = "mount volume at " + m.target;
    out.push_back(std::move(b));
  }
  // Outer mount points first (as containerd sorts them), so /a/b lands inside a volume at /a.
  std::stable_sort(out.begin(), out.end(),
                   [](const PreparedBind& x, const PreparedBind& y) { return x.chain.size() < y.chain.size(); });
  return out;
}

// In the child, before a read-only root stops it: the mount point's directories (or file).
void make_mount_point(const PreparedBind& b) {
  for (const std::string& d : b.chain) ::mkdir(d.c_str(), 0755);
  if (b.file) {
    const int fd = ::open(b.target.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd >= 0) ::close(fd);
  }
}

// In the child: the bind, then read-only when asked (a bind's flags change only by a remount).
bool bind_volume(const PreparedBind& b) {
  make_mount_point(b);  // again: a mount point inside an earlier volume is made in that volume
  if (::mount(b.source.c_str(), b.target.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) return false;
  return !b.read_only || ::mount(nullptr, b.target.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) == 0;
}

}  // namespace

std::variant<Launched, std::string> launch(const LaunchSpec& spec) {
  std::vector<std::string> env = spec.env;
  std::string not_found;
  const std::string program = find_executable(spec.rootfs, spec.argv.empty() ? std::string() : spec.argv[0], env,
                                              not_found);
  if (program.empty()) return not_found;
  std::vector<std::string> argv = spec.argv;

  // Everything the child needs is prepared here: after fork it only makes system calls.
  std::error_code ec;
  const fs::path upper = spec.container_dir / "upper", work = spec.container_dir / "work",
                 merged = spec.container_dir / "merged";
  for (const fs::path& d : {upper, work, merged}) fs::create_directories(d, ec);
  const std::string overlay_options = "lowerdir=" + spec.rootfs.string() + ",upperdir=" + upper.string() +
                                      ",workdir=" + work.string();
  const std::string proc = (merged / "proc").string(), dev = (merged / "dev").string();
  const std::vector<std::string> devices = {"null", "zero", "full", "random", "urandom", "tty"};
  std::vector<std::string> device_targets, device_sources;
  for (const auto& d : devices) {
    device_targets.push_back(dev + "/" + d);
    device_sources.push_back("/dev/" + d);
  }
  const std::string merged_s = merged.string();
  // The working directory and its parents under the merged root, made as runc makes them.
  std::vector<std::string> cwd_chain;
  {
    std::string at = merged_s;
    std::stringstream parts(spec.working_dir);
    for (std::string part; std::getline(parts, part, '/');) {
      if (part.empty() || part == "." || part == "..") continue;
      at += "/" + part;
      cwd_chain.push_back(at);
    }
  }
  const std::vector<PreparedBind> binds = prepare_binds(spec, merged);
  std::string host_cwd = in_root(spec.rootfs, spec.working_dir).string();
  std::string exec_path = program;
  if (!spec.isolate) {
    // No namespaces: run the image's program with the image's loader and libraries.
    const fs::path host_program = in_root(spec.rootfs, program);
    const std::string interp = interpreter_of(host_program);
    if (interp.empty()) {
      exec_path = host_program.string();
    } else {
      exec_path = in_root(spec.rootfs, interp).string();
      std::string libs;
      for (const char* d :
           {"/lib", "/usr/lib", "/lib64", "/usr/lib64", "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu"}) {
        libs += (libs.empty() ? "" : ":") + in_root(spec.rootfs, d).string();
      }
      argv.insert(argv.begin(), {exec_path, "--library-path", libs, "--argv0", argv[0], host_program.string()});
      argv.erase(argv.begin() + 6);  // the original argv[0], now given by --argv0
    }
    fs::create_directories(host_cwd, ec);
  }
  std::vector<char*> argv_p = pointers(argv), env_p = pointers(env);

  int out[2], err[2], report[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(out[0]), ::close(out[1]);
    return std::string("pipe: ") + std::strerror(errno);
  }
  if (::pipe2(report, O_CLOEXEC) != 0) {
    ::close(out[0]), ::close(out[1]), ::close(err[0]), ::close(err[1]);
    return std::string("pipe: ") + std::strerror(errno);
  }
  // A raw clone: the child is PID 1 of its PID namespace and owns private mount and UTS namespaces.
  const long flags = SIGCHLD | (spec.isolate ? (CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWUTS) : 0);
  const long pid = ::syscall(SYS_clone, flags, nullptr, nullptr, nullptr, nullptr);
  if (pid < 0) {
    const std::string why = std::strerror(errno);
    for (int fd : {out[0], out[1], err[0], err[1], report[0], report[1]}) ::close(fd);
    return "clone: " + why;
  }
  if (pid == 0) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    signal(SIGPIPE, SIG_DFL);
    ::setpgid(0, 0);
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull < 0 || ::dup2(devnull, 0) < 0 || ::dup2(out[1], 1) < 0 || ::dup2(err[1], 2) < 0) {
      child_fail(report[1], "stdio");
    }
    if (spec.isolate) {
      if (spec.netns_fd >= 0 && ::setns(spec.netns_fd, CLONE_NEWNET) != 0)
        child_fail(report[1], "join the pod's network namespace");
      if (!spec.hostname.empty() && ::sethostname(spec.hostname.data(), spec.hostname.size()) != 0)
        child_fail(report[1], "set the pod's host name");
      if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        child_fail(report[1], "make mounts private");
      if (::mount("overlay", merged_s.c_str(), "overlay", 0, overlay_options.c_str()) != 0) {
        child_fail(report[1], "mount overlay rootfs");
      }
      // Mount points and the working directory exist before a read-only root stops their making.
      ::mkdir(proc.c_str(), 0555);
      ::mkdir(dev.c_str(), 0755);
      for (const std::string& d : cwd_chain) ::mkdir(d.c_str(), 0755);
      for (const PreparedBind& b : binds) make_mount_point(b);
      if (spec.read_only &&
          (::mount(merged_s.c_str(), merged_s.c_str(), nullptr, MS_BIND, nullptr) != 0 ||
           ::mount(nullptr, merged_s.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0)) {
        child_fail(report[1], "remount rootfs read-only");
      }
      for (const PreparedBind& b : binds) {
        if (!bind_volume(b)) child_fail(report[1], b.failure.c_str());
      }
      if (::mount("proc", proc.c_str(), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) {
        child_fail(report[1], "mount /proc");
      }
      if (::mount("tmpfs", dev.c_str(), "tmpfs", MS_NOSUID, "mode=755,size=65536k") != 0)
        child_fail(report[1], "mount /dev");
      for (std::size_t i = 0; i < device_targets.size(); ++i) {
        const int fd = ::open(device_targets[i].c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0666);
        if (fd >= 0) ::close(fd);
        (void)::mount(device_sources[i].c_str(), device_targets[i].c_str(), nullptr, MS_BIND, nullptr);
      }
      if (::chroot(merged_s.c_str()) != 0) child_fail(report[1], "chroot");
      if (::chdir(spec.working_dir.c_str()) != 0) child_fail(report[1], "chdir to working directory");
      // Raw system calls: glibc's wrappers signal every thread the parent had, and wait forever on
      // one that a pthread_create was starting when we cloned.
      if (::syscall(SYS_setgroups, 0, nullptr) != 0) child_fail(report[1], "setgroups");
      if (::syscall(SYS_setgid, spec.gid) != 0) child_fail(report[1], "setgid");
      if (::syscall(SYS_setuid, spec.uid) != 0) child_fail(report[1], "setuid");
    } else if (::chdir(host_cwd.c_str()) != 0) {
      child_fail(report[1], "chdir to working directory");
    }
    ::execve(exec_path.c_str(), argv_p.data(), env_p.data());
    child_fail(report[1], "exec");
  }
  ::close(out[1]);
  ::close(err[1]);
  ::close(report[1]);
  std::string failure;
  char buffer[256];
  for (ssize_t n; (n = ::read(report[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    failure.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(report[0]);
  if (!failure.empty()) {
    int status = 0;
    ::waitpid(static_cast<pid_t>(pid), &status, 0);
    ::close(out[0]);
    ::close(err[0]);
    return "failed to start container process: " + failure;
  }
  return Launched{static_cast<pid_t>(pid), out[0], err[0]};
}

}  // namespace rr::node_detail
