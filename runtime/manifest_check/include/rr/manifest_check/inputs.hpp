// The command line's FILE|DIR|- operands as the files to read: a directory's *.yaml, *.yml and
// *.json files recursively, in name order; "-" is stdin (read once).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "rr/manifest_check/manifest_reader.hpp"
#include "rr/manifest_check/report.hpp"

namespace rr::manifest_check {

struct InputFile {
  std::string name;  // as reported: the operand, or a directory's path joined with the file's
  ReadResult read;
};

// Every file the operands name, read and parsed; what cannot be listed, read or parsed lands in
// `errors` (the files before and after are still read).
std::vector<InputFile> read_inputs(const std::vector<std::string>& operands, std::vector<InputError>& errors);

}  // namespace rr::manifest_check
