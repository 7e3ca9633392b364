#include "image/elf_closure.hpp"

#include <glob.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "image/elf_file.hpp"
#include "image/file_bytes.hpp"

namespace rrgen::image {
namespace {

namespace fs = std::filesystem;

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

void read_conf(const std::string& path, const std::string& root, int depth, std::vector<std::string>& dirs) {
  if (depth > 8) return;  // include loops
  std::ifstream in(root + path);
  std::string line;
  while (std::getline(in, line)) {
    line = trim(line.substr(0, line.find('#')));
    if (line.empty() || line.rfind("hwcap ", 0) == 0) continue;
    if (line.rfind("include", 0) == 0 && line.size() > 7 && (line[7] == ' ' || line[7] == '\t')) {
      std::istringstream patterns(line.substr(8));
      std::string pattern;
      while (patterns >> pattern) {
        if (pattern[0] != '/') pattern = fs::path(path).parent_path().string() + "/" + pattern;
        glob_t matches{};
        if (::glob((root + pattern).c_str(), 0, nullptr, &matches) == 0) {
          std::vector<std::string> files(matches.gl_pathv, matches.gl_pathv + matches.gl_pathc);
          std::sort(files.begin(), files.end());  // glob sorts too; ldconfig reads them in this order
          for (const auto& f : files) read_conf(f.substr(root.size()), root, depth + 1, dirs);
        }
        globfree(&matches);
      }
      continue;
    }
    // "dir" or the old "dir=type" form; a trailing '/' is not part of the name.
    std::string dir = trim(line.substr(0, line.find('=')));
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (!dir.empty() && dir[0] == '/' && std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
  }
}

std::string multiarch(std::uint16_t machine) {
  switch (machine) {
    case 62: return "x86_64-linux-gnu";
    case 183: return "aarch64-linux-gnu";
    case 3: return "i386-linux-gnu";
    case 40: return "arm-linux-gnueabihf";
    case 243: return "riscv64-linux-gnu";
    case 21: return "powerpc64le-linux-gnu";
    default: return "";
  }
}

std::string platform(std::uint16_t machine) {
  switch (machine) {
    case 62: return "x86_64";
    case 183: return "aarch64";
    default: return "";
  }
}

// A directory to search: where to read (`fs_dir`, the root applied) and the directory the image
// knows it by ("" when it is not a system directory: $ORIGIN, a build tree).
struct SearchDir {
  std::string fs_dir;
  std::string image_dir;
};

// An object whose DT_NEEDED entries are being resolved, with the DT_RPATH chain of its loaders.
struct Pending {
  std::string name;  // for messages: the executable's path or the library's soname
  ElfFacts facts;
  std::string origin;  // the directory it was read from, for $ORIGIN
  std::vector<SearchDir> inherited_rpath;
};

}  // namespace

std::vector<std::string> read_ld_so_conf(const std::string& path, const std::string& root) {
  std::vector<std::string> dirs;
  read_conf(path, root, 0, dirs);
  return dirs;
}

std::vector<std::string> default_library_dirs(std::uint16_t machine) {
  std::vector<std::string> dirs;
  if (const std::string triple = multiarch(machine); !triple.empty()) {
    dirs.push_back("/lib/" + triple);
    dirs.push_back("/usr/lib/" + triple);
  }
  dirs.push_back("/lib");
  dirs.push_back("/usr/lib");
  return dirs;
}

std::string expand_dst(const std::string& entry, const std::string& origin, std::uint16_t machine) {
  static const std::pair<const char*, int> kTokens[] = {{"${ORIGIN}", 0}, {"$ORIGIN", 0},     {"${LIB}", 1},
                                                        {"$LIB", 1},      {"${PLATFORM}", 2}, {"$PLATFORM", 2}};
  std::string out;
  for (std::size_t i = 0; i < entry.size();) {
    bool replaced = false;
    for (const auto& [token, which] : kTokens) {
      const std::string_view t(token);
      if (entry.compare(i, t.size(), t) != 0) continue;
      out += which == 0 ? origin : which == 1 ? "lib/" + multiarch(machine) : platform(machine);
      i += t.size();
      replaced = true;
      break;
    }
    if (!replaced) out += entry[i++];
  }
  return out;
}

std::optional<Closure> library_closure(const std::string& executable_path, const std::string& executable,
                                       const LibrarySearch& search, Diagnostics& diags) {
  const Location at{intern_file_name(executable_path)};
  std::string error;
  auto exe = read_elf_facts(executable, error);
  if (!exe) {
    diags.error(at, "image-not-elf", error);
    return std::nullopt;
  }
  Closure closure;
  closure.machine = exe->machine;
  closure.interpreter = exe->interpreter;
  const auto defaults = default_library_dirs(exe->machine);
  const auto conf_dirs = read_ld_so_conf(search.ld_so_conf, search.root);

  std::error_code ec;
  if (!exe->interpreter.empty()) {
    const fs::path real = fs::canonical(search.root + exe->interpreter, ec);
    auto content = ec ? std::nullopt : read_file_bytes(real);
    if (!content) {
      diags.error(at, "image-missing-interpreter",
                  "the dynamic loader '" + exe->interpreter + "' (PT_INTERP) does not exist on this machine");
      return std::nullopt;
    }
    closure.libraries.push_back({exe->interpreter, real.string(), std::move(*content)});
  }

  // DT_RPATH/DT_RUNPATH entries as directories: $ORIGIN-relative ones are already file system paths.
  auto dirs_of = [&](const std::vector<std::string>& entries, const std::string& origin) {
    std::vector<SearchDir> dirs;
    for (const auto& entry : entries) {
      const std::string expanded = expand_dst(entry, origin, exe->machine);
      if (entry.find("ORIGIN") != std::string::npos) dirs.push_back({expanded, ""});
      else dirs.push_back({search.root + expanded, expanded});
    }
    return dirs;
  };
  std::vector<SearchDir> system_dirs;
  for (const auto& d : conf_dirs) system_dirs.push_back({search.root + d, d});
  for (const auto& d : defaults) system_dirs.push_back({search.root + d, d});

  std::map<std::string, bool> resolved;  // by DT_NEEDED name, as the loader shares them
  // libc needs the loader by its soname (its file name): the one already mapped serves.
  if (!exe->interpreter.empty()) resolved[fs::path(exe->interpreter).filename().string()] = true;
  std::deque<Pending> queue;
  // ld.so takes the main program's $ORIGIN from /proc/self/exe: symbolic links resolved.
  const std::string exe_origin = fs::weakly_canonical(fs::absolute(executable_path, ec), ec).parent_path().string();
  Pending first{executable_path, *exe, exe_origin, {}};
  if (!exe->has_runpath) first.inherited_rpath = dirs_of(exe->rpath, exe_origin);
  queue.push_back(std::move(first));
  while (!queue.empty()) {
    Pending object = std::move(queue.front());
    queue.pop_front();
    std::vector<SearchDir> dirs = object.facts.has_runpath ? std::vector<SearchDir>{} : object.inherited_rpath;
    for (auto& d : dirs_of(object.facts.runpath, object.origin)) dirs.push_back(std::move(d));
    dirs.insert(dirs.end(), system_dirs.begin(), system_dirs.end());
    for (const std::string& name : object.facts.needed) {
      if (resolved.count(name)) continue;
      resolved[name] = true;
      if (name.find('/') != std::string::npos) {
        diags.error(at, "image-unsupported-needed",
                    "'" + object.name + "' needs '" + name + "' by path; only library names are supported");
        continue;
      }
      bool found = false;
      for (const SearchDir& dir : dirs) {
        const fs::path candidate = fs::path(dir.fs_dir) / name;
        if (!fs::is_regular_file(candidate, ec)) continue;
        const fs::path real = fs::canonical(candidate, ec);
        auto content = ec ? std::nullopt : read_file_bytes(real);
        if (!content) continue;
        std::string lib_error;
        auto facts = read_elf_facts(*content, lib_error);
        if (!facts || facts->elf64 != exe->elf64 || facts->machine != exe->machine) continue;  // as ld.so: skip it
        const bool system = std::find(defaults.begin(), defaults.end(), dir.image_dir) != defaults.end();
        const std::string image_path = system ? dir.image_dir + "/" + name : "/usr/lib/" + name;
        Pending next{name, *facts, dir.fs_dir, {}};
        if (!facts->has_runpath) next.inherited_rpath = dirs_of(facts->rpath, dir.fs_dir);
        next.inherited_rpath.insert(next.inherited_rpath.end(), object.inherited_rpath.begin(),
                                    object.inherited_rpath.end());
        closure.libraries.push_back({image_path, real.string(), std::move(*content)});
        queue.push_back(std::move(next));
        found = true;
        break;
      }
      if (!found) {
        std::string searched;
        for (const SearchDir& dir : dirs) searched += (searched.empty() ? "" : ", ") + dir.fs_dir;
        diags.error(at, "image-missing-library",
                    "library '" + name + "' needed by '" + object.name + "' not found (searched " + searched + ")");
      }
    }
  }
  if (diags.has_errors()) return std::nullopt;
  return closure;
}

}  // namespace rrgen::image
