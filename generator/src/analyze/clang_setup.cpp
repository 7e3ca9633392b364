#include "analyze/clang_setup.hpp"

#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallString.h>

#include <filesystem>

#ifndef RRGEN_CLANG_RESOURCE_DIR
#define RRGEN_CLANG_RESOURCE_DIR ""
#endif

namespace rrgen {
namespace {

// The working directory rrgen was started in. ClangTool changes the process's working directory
// to each compile command's while it parses, so it is taken before.
const std::filesystem::path& start_directory() {
  static const std::filesystem::path cwd = [] {
    std::error_code ec;
    std::filesystem::path p = std::filesystem::current_path(ec);
    return ec ? std::filesystem::path() : p;
  }();
  return cwd;
}

}  // namespace

void remember_start_directory() { start_directory(); }

std::string clang_resource_dir() { return RRGEN_CLANG_RESOURCE_DIR; }

clang::tooling::ArgumentsAdjuster gxx_to_clang(const std::string& resource_dir) {
  const std::string dir = resource_dir.empty() ? clang_resource_dir() : resource_dir;
  return [dir](const clang::tooling::CommandLineArguments& args, llvm::StringRef) {
    clang::tooling::CommandLineArguments out;
    for (std::size_t i = 0; i < args.size(); ++i) {
      const llvm::StringRef a = args[i];
      if (i > 0 &&
          (a.startswith("-Werror") || a.startswith("-fconcepts-diagnostics-depth") || a.startswith("-fmax-errors") ||
           a == "-fno-fat-lto-objects" || a.startswith("-fdiagnostics-color"))) {
        continue;
      }
      out.push_back(args[i]);
      // Right after the compiler: a command may end with "--" and its file (inferred ones do).
      if (i == 0) {
        out.push_back("-resource-dir=" + dir);
        out.push_back("-Wno-unknown-warning-option");
        out.push_back("-w");
        out.push_back("-ferror-limit=20");
        out.push_back("-fno-caret-diagnostics");  // also: no "N errors generated." on stderr
      }
    }
    return out;
  };
}

std::string canonical_path(llvm::StringRef path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::path(path.str()), ec);
  return ec ? path.str() : p.string();
}

std::string display_path(const std::string& path) {
  const std::filesystem::path& cwd = start_directory();
  if (cwd.empty()) return path;
  const std::filesystem::path rel = std::filesystem::path(path).lexically_relative(cwd);
  if (rel.empty() || *rel.begin() == "..") return path;
  return rel.string();
}

void ClangDiagnosticsBridge::HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) {
  clang::DiagnosticConsumer::HandleDiagnostic(level, info);
  if (level < clang::DiagnosticsEngine::Error) return;
  llvm::SmallString<256> text;
  info.FormatDiagnostic(text);
  Location at;
  if (info.hasSourceManager() && info.getLocation().isValid()) {
    const clang::SourceManager& sm = info.getSourceManager();
    const clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(info.getLocation()));
    if (p.isValid())
      at = Location{intern_file_name(display_path(canonical_path(p.getFilename()))), p.getLine(), p.getColumn()};
  }
  diags_.error(at, check_, text.str().str());
}

}  // namespace rrgen
