#include "cli/cli_validate.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <ostream>

namespace rrgen {

namespace {

namespace fs = std::filesystem;

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// The directory of the running executable (Linux: /proc/self/exe); "" when unknown.
std::string self_directory() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

bool is_executable_file(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::vector<std::string> validate_program_candidates(const std::string& exec_path_env, const std::string& self_dir,
                                                     const std::string& path_env) {
  std::vector<std::string> out;
  auto add = [&](const fs::path& dir) {
    if (!dir.empty()) out.push_back((dir / validate_program).string());
  };
  add(exec_path_env);
  if (!self_dir.empty()) {
    add(self_dir);
    add(fs::path(self_dir).parent_path() / "libexec" / "rrgen");
  }
  std::size_t start = 0;
  while (start <= path_env.size() && !path_env.empty()) {
    const std::size_t colon = path_env.find(':', start);
    const std::string dir = path_env.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    add(dir.empty() ? fs::path(".") : fs::path(dir));  // an empty PATH entry is the current directory
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return out;
}

int run_validate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const auto candidates = validate_program_candidates(env_or_empty("RRGEN_EXEC_PATH"), self_directory(),
                                                      env_or_empty("PATH"));
  for (const std::string& program : candidates) {
    if (!is_executable_file(program)) continue;
    std::vector<std::string> argv_text{program};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    out.flush();
    err.flush();
    ::execv(program.c_str(), argv.data());
    err << "rrgen validate: error: cannot run " << program << ": " << std::strerror(errno) << "\n";
    return 2;
  }
  err << "rrgen validate: error: the " << validate_program
      << " program of the rr runtime was not found; it is installed with the runtime (cmake --install). Searched:\n";
  for (const std::string& program : candidates) err << "  " << program << "\n";
  if (candidates.empty()) err << "  (nothing: no RRGEN_EXEC_PATH, executable directory or PATH)\n";
  return 2;
}

}  // namespace rrgen
