// Generated files in memory, and the one place that touches the output directory: files are
// written atomically and only when their content changed, and files a previous run generated but
// this run does not are removed (tracked in a manifest).
#pragma once
#include <string>
#include <vector>

#include "diagnostics.hpp"

namespace rrgen {

struct OutputFile {
  std::string path;  // relative to the output directory, '/'-separated
  std::string content;
};

struct OutputSet {
  std::vector<OutputFile> files;
};

struct WriteStats {
  std::size_t written = 0, unchanged = 0, removed = 0;
};

// Returns false (with an error reported) if any file could not be written.
bool write_outputs(const OutputSet& out, const std::string& dir, Diagnostics& diags, WriteStats& stats);
// Make-style depfile: every output depends on every input.
bool write_depfile(const std::string& depfile, const OutputSet& out, const std::string& dir,
                   const std::vector<std::string>& inputs, Diagnostics& diags);

}  // namespace rrgen
