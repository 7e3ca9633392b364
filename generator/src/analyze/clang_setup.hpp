// What every rrgen tool that runs Clang does the same way (rrgen analyze, rrgen crd): the command
// line adjusted for Clang (Clang's builtin headers, no warnings), Clang's errors as rrgen
// diagnostics, and file names printed as the command line gave them. Only sources that already
// include Clang's headers include this one.
#pragma once
#include <clang/Basic/Diagnostic.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <llvm/ADT/StringRef.h>

#include <string>

#include "support/diagnostics.hpp"

namespace rrgen {

// The builtin headers (stddef.h, the intrinsics) of the Clang rrgen was built with: the binary
// does not live in Clang's bin/, so Clang cannot find them by itself.
std::string clang_resource_dir();

// g++'s command lines for Clang: no -Werror (a warning Clang has and g++ not must not stop the
// parse), no warnings at all, no options only g++ knows, and Clang's builtin headers from
// `resource_dir` ("" = clang_resource_dir()).
clang::tooling::ArgumentsAdjuster gxx_to_clang(const std::string& resource_dir);

// `path` made absolute with symbolic links resolved where it exists (as Clang's file entries name it).
std::string canonical_path(llvm::StringRef path);
// Takes the directory rrgen started in, for display_path(): call it before a ClangTool runs (the
// tool changes the process's working directory to each compile command's while it parses).
void remember_start_directory();
// A path relative to the directory rrgen started in when it is under it (diagnostics read like
// the command line), else as given.
std::string display_path(const std::string& path);

// Clang's errors (a source that does not parse, a missing header) as rrgen errors with `check`.
class ClangDiagnosticsBridge : public clang::DiagnosticConsumer {
 public:
  ClangDiagnosticsBridge(Diagnostics& diags, std::string check) : diags_(diags), check_(std::move(check)) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override;

 private:
  Diagnostics& diags_;
  std::string check_;
};

}  // namespace rrgen
