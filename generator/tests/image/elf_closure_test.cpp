// elf_file and elf_closure: what the loader reads, and the libraries found as ld.so finds them.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "elf_fixture.hpp"
#include "image/elf_closure.hpp"
#include "image/elf_file.hpp"
#include "scratch_dir.hpp"

using namespace rrgen;
using namespace rrgen::image;
using namespace rrgen::testing;
namespace fs = std::filesystem;

namespace {

// A fake system under `root`: a loader, libc through a symbolic link (as Debian's /lib64 and
// usr-merge have them), and /etc/ld.so.conf including a directory of its own.
void fake_system(const fs::path& root) {
  write_file(root / "usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", lib_elf());
  fs::create_directories(root / "lib64");
  fs::create_symlink("../usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", root / "lib64/ld-linux-x86-64.so.2");
  write_file(root / "usr/lib/x86_64-linux-gnu/libc.so.6.real", lib_elf({"ld-linux-x86-64.so.2"}));
  fs::create_symlink("libc.so.6.real", root / "usr/lib/x86_64-linux-gnu/libc.so.6");
  write_file(root / "etc/ld.so.conf", "# comment\ninclude ld.so.conf.d/*.conf\n");
  write_file(root / "etc/ld.so.conf.d/a.conf", "/opt/vendor/lib\nhwcap 0 nosegneg\n");
}

std::string exe(std::vector<std::string> needed, std::string runpath = "", std::string rpath = "") {
  return exe_elf(std::move(needed), std::move(runpath), std::move(rpath));
}

std::vector<std::string> image_paths(const Closure& c) {
  std::vector<std::string> out;
  for (const auto& f : c.libraries) out.push_back(f.image_path);
  return out;
}

}  // namespace

TEST_CASE("elf: interpreter, DT_NEEDED, DT_RPATH and DT_RUNPATH") {
  std::string error;
  const auto facts = read_elf_facts(exe_elf({"libz.so.1", "libc.so.6"}, "$ORIGIN/../lib", "/a:/b"), error);
  REQUIRE_MESSAGE(facts, error);
  CHECK(facts->elf64);
  CHECK(facts->machine == 62);
  CHECK(facts->interpreter == "/lib64/ld-linux-x86-64.so.2");
  CHECK(facts->needed == std::vector<std::string>{"libz.so.1", "libc.so.6"});
  CHECK(facts->rpath == std::vector<std::string>{"/a", "/b"});
  CHECK(facts->runpath == std::vector<std::string>{"$ORIGIN/../lib"});
  CHECK(facts->has_runpath);
  CHECK(oci_architecture(facts->machine) == "amd64");
}

TEST_CASE("elf: what is not a loadable ELF file is an error, at every truncation") {
  std::string error;
  CHECK_FALSE(read_elf_facts("#!/bin/sh\necho hi\n", error));
  CHECK(error == "not an ELF file");
  std::string relocatable = typed_elf(1);
  CHECK_FALSE(read_elf_facts(relocatable, error));
  CHECK(error.find("not an executable or shared object") == 0);
  const std::string whole = exe({"libc.so.6"});
  int failures = 0;
  for (std::size_t n = 0; n < whole.size(); ++n) {
    if (!read_elf_facts(whole.substr(0, n), error)) ++failures;
  }
  CHECK(failures == static_cast<int>(whole.size()));  // every byte is needed; none crashes
}

TEST_CASE("ld.so.conf: includes relative to the file, comments, hwcap lines, dir=type, no duplicates") {
  ScratchDir s;
  write_file(s.path / "etc/ld.so.conf", "/usr/local/lib # local\ninclude conf.d/*.conf\n/usr/local/lib\n");
  write_file(s.path / "etc/conf.d/b.conf", "/b/lib=libc6\n");
  write_file(s.path / "etc/conf.d/a.conf", "# a\n\n/a/lib/\ninclude /etc/conf.d/a.conf\n");
  CHECK(read_ld_so_conf("/etc/ld.so.conf", s.path.string()) ==
        std::vector<std::string>{"/usr/local/lib", "/a/lib", "/b/lib"});
  CHECK(read_ld_so_conf("/etc/missing.conf", s.path.string()).empty());
}

TEST_CASE("dynamic string tokens: $ORIGIN, ${ORIGIN}, $LIB, $PLATFORM") {
  CHECK(expand_dst("$ORIGIN/../lib", "/opt/app/bin", 62) == "/opt/app/bin/../lib");
  CHECK(expand_dst("${ORIGIN}/x:$LIB", "/o", 62) == "/o/x:lib/x86_64-linux-gnu");
  CHECK(expand_dst("/p/$PLATFORM", "/o", 183) == "/p/aarch64");
  CHECK(default_library_dirs(62) ==
        std::vector<std::string>{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib"});
}

TEST_CASE("closure: the loader, then each library where ld.so finds it, with the real file's bytes") {
  ScratchDir s;
  fake_system(s.path);
  // libfoo from an ld.so.conf directory needs libbar from a default one; both need libc.
  const std::string foo = lib_elf({"libbar.so.2", "libc.so.6"});
  write_file(s.path / "opt/vendor/lib/libfoo.so.1", foo);
  write_file(s.path / "usr/lib/libbar.so.2", lib_elf({"libc.so.6"}));
  // A library of another machine earlier in the search is skipped, as ld.so skips it.
  write_file(s.path / "opt/vendor/lib/libbar.so.2", lib_elf({}, 183));
  write_file(s.path / "app/manager", "");
  Diagnostics diags;
  const auto closure = library_closure((s.path / "app/manager").string(), exe({"libfoo.so.1", "libc.so.6"}),
                                       {s.path.string(), "/etc/ld.so.conf"}, diags);
  REQUIRE_MESSAGE(closure, (diags.all().empty() ? "" : diags.all()[0].message));
  CHECK(image_paths(*closure) == std::vector<std::string>{"/lib64/ld-linux-x86-64.so.2", "/usr/lib/libfoo.so.1",
                                                          "/usr/lib/x86_64-linux-gnu/libc.so.6",
                                                          "/usr/lib/libbar.so.2"});
  CHECK(closure->libraries[1].content == foo);
  CHECK(closure->libraries[2].source_path ==
        fs::canonical(s.path / "usr/lib/x86_64-linux-gnu/libc.so.6.real").string());
  CHECK(closure->interpreter == "/lib64/ld-linux-x86-64.so.2");
}

TEST_CASE("closure: DT_RUNPATH with $ORIGIN is searched first; DT_RPATH is ignored beside it") {
  ScratchDir s;
  fake_system(s.path);
  write_file(s.path / "app/lib/libown.so.1", lib_elf());
  write_file(s.path / "elsewhere/libown.so.1", lib_elf({"libmissing.so"}));
  write_file(s.path / "app/bin/manager", "");
  Diagnostics diags;
  const auto closure = library_closure((s.path / "app/bin/manager").string(),
                                       exe({"libown.so.1"}, "$ORIGIN/../lib", "/elsewhere"),
                                       {s.path.string(), "/etc/ld.so.conf"}, diags);
  REQUIRE(closure);
  CHECK(image_paths(*closure) == std::vector<std::string>{"/lib64/ld-linux-x86-64.so.2", "/usr/lib/libown.so.1"});
}

TEST_CASE("closure: DT_RPATH of the executable serves its libraries' needs too") {
  ScratchDir s;
  fake_system(s.path);
  write_file(s.path / "rp/liba.so.1", lib_elf({"libb.so.1"}));
  write_file(s.path / "rp/libb.so.1", lib_elf());
  write_file(s.path / "m", "");
  Diagnostics diags;
  const auto closure = library_closure((s.path / "m").string(), exe({"liba.so.1"}, "", "/rp"),
                                       {s.path.string(), "/etc/ld.so.conf"}, diags);
  REQUIRE(closure);
  CHECK(image_paths(*closure) ==
        std::vector<std::string>{"/lib64/ld-linux-x86-64.so.2", "/usr/lib/liba.so.1", "/usr/lib/libb.so.1"});
}

TEST_CASE("closure: a missing library is an error naming it and who needs it") {
  ScratchDir s;
  fake_system(s.path);
  write_file(s.path / "usr/lib/libfoo.so.1", lib_elf({"libgone.so.3"}));
  Diagnostics diags;
  CHECK_FALSE(library_closure("/x/manager", exe({"libfoo.so.1"}), {s.path.string(), "/etc/ld.so.conf"}, diags));
  REQUIRE(diags.error_count() == 1);
  CHECK(diags.all()[0].message.find("library 'libgone.so.3' needed by 'libfoo.so.1' not found") == 0);
  CHECK(diags.all()[0].check == "image-missing-library");
}

TEST_CASE("closure: a missing interpreter, a script") {
  ScratchDir s;
  Diagnostics diags;
  CHECK_FALSE(library_closure("/x/manager", exe({}), {s.path.string(), "/etc/ld.so.conf"}, diags));
  CHECK(diags.all().at(0).check == "image-missing-interpreter");
  Diagnostics script;
  CHECK_FALSE(library_closure("/x/run.sh", "#!/bin/sh\n", {}, script));
  CHECK(format(script.all().at(0)) == "/x/run.sh: error: not an ELF file [image-not-elf]");
}

TEST_CASE("closure: a static executable is only itself") {
  Diagnostics diags;
  const auto closure = library_closure("/x/static", typed_elf(2), {}, diags);
  REQUIRE(closure);
  CHECK(closure->libraries.empty());
}
