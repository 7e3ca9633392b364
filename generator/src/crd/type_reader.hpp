// The Clang half of `rrgen crd`: parses the headers given with Clang LibTooling (the setup of
// analyze/clang_setup.hpp) and describes their structs and enums as cxx_model.hpp says, without
// Clang's types. The only file of the crd stage that includes Clang's headers.
#pragma once
#include <string>
#include <vector>

#include "crd/cxx_model.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

struct TypeReaderInput {
  std::vector<std::string> headers;       // parsed as one translation unit including each
  std::vector<std::string> compile_args;  // -I, -isystem, -D, -std=... as given (default -std=c++20)
  std::string resource_dir;               // Clang's builtin headers; "" = the configured ones
};

// Every struct of the headers (and, when a member names them, the structs and enums of other
// headers it includes). Parse errors are errors [crd-parse-error] at their position.
// `read_files`, when given, receives every file the parse read (for a depfile), sorted.
CxxModel read_cxx_types(const TypeReaderInput& input, Diagnostics& diags, std::vector<std::string>* read_files);

}  // namespace rrgen
