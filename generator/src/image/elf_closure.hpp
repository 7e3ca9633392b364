// The files the dynamic loader maps to start an executable, found the way glibc's ld.so finds
// them (ld.so(8)), so that an image holding exactly these files starts:
//   the interpreter (PT_INTERP), then for each DT_NEEDED name, breadth first:
//   DT_RPATH of the object and of the objects that loaded it (when the object has no DT_RUNPATH),
//   DT_RUNPATH of the object, the directories of /etc/ld.so.conf (and its includes; what
//   ldconfig puts in /etc/ld.so.cache), then the loader's default directories.
// $ORIGIN, $LIB and $PLATFORM are expanded; LD_LIBRARY_PATH is not read (it is the build's
// environment, not the image's). A candidate of another ELF class or machine is skipped, as the
// loader skips it. Symbolic links are resolved: the content is the real file's, the name the one
// the loader asks for. The image has no /etc/ld.so.cache, so a library is placed where the loader
// finds it without one: at the path it was found under when that is in a default directory
// (/lib/x86_64-linux-gnu/libc.so.6), else at /usr/lib/<name> (a default directory too), so a
// library from DT_RUNPATH, an ld.so.conf directory or the build tree leaves no build path behind.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "support/diagnostics.hpp"

namespace rrgen::image {

struct ClosureFile {
  std::string image_path;   // absolute, where the image puts it ("/lib/x86_64-linux-gnu/libc.so.6")
  std::string source_path;  // the real file it was read from
  std::string content;
  bool elf = true;
};

struct Closure {
  std::uint16_t machine = 0;
  std::string interpreter;             // the executable's PT_INTERP ("" for a static executable)
  std::vector<ClosureFile> libraries;  // the interpreter and every library, in the order found
};

struct LibrarySearch {
  // Prepended to every absolute path read (tests build a fake system under a directory); "" = /.
  std::string root;
  std::string ld_so_conf = "/etc/ld.so.conf";
};

// The directories of an ld.so.conf file, following `include <glob>` lines (relative globs are
// relative to the including file's directory) up to a depth of 8; `hwcap` lines and comments are
// ignored. A missing file gives no directories (as ldconfig).
std::vector<std::string> read_ld_so_conf(const std::string& path, const std::string& root = "");

// The loader's built-in directories for an e_machine: /lib/<multiarch>, /usr/lib/<multiarch>,
// /lib, /usr/lib (Debian's glibc).
std::vector<std::string> default_library_dirs(std::uint16_t machine);

// Expands $ORIGIN/${ORIGIN}, $LIB and $PLATFORM in a DT_RPATH/DT_RUNPATH entry.
std::string expand_dst(const std::string& entry, const std::string& origin, std::uint16_t machine);

// The closure of the executable whose content is `executable` (read from `executable_path`, whose
// directory is $ORIGIN). Reports every library it cannot find, naming who needs it, and returns
// nullopt on any error.
std::optional<Closure> library_closure(const std::string& executable_path, const std::string& executable,
                                       const LibrarySearch& search, Diagnostics& diags);

}  // namespace rrgen::image
