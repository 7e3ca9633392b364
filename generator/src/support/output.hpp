// Generated files in memory, and the one place that touches the output directory: files are
// written atomically and only when their content changed, and files a previous run generated but
// this run does not are removed (tracked in a manifest).
#pragma once
#include <string>
#include <vector>

#include "support/diagnostics.hpp"

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

// Returns false (with an error reported) if any file could not be written. When any file was
// written or removed, the files at the top of `dir` (those build systems declare) are touched
// even if unchanged, so a build that watches only them sees the change.
bool write_outputs(const OutputSet& out, const std::string& dir, Diagnostics& diags, WriteStats& stats);
// The generation gap: writes the files that do not exist yet and leaves every existing one as it
// is (user-owned scaffolds are created once and never overwritten). `stats.unchanged` counts the
// files kept. No manifest: these files are not the generator's to remove.
bool write_new_files(const OutputSet& out, const std::string& dir, Diagnostics& diags, WriteStats& stats);
// A new directory (`rrgen init`): creates `dir`, absent or an empty directory, holding every
// file, or leaves the disk as it was (no half-created project). The files are written into a
// hidden directory beside `dir` (inside it, when it exists) and moved into place at the end.
bool write_new_directory(const OutputSet& out, const std::string& dir, Diagnostics& diags);
// One file outside a generated set (`rrgen pin-image`), written atomically and only when its
// content changed; `written` says whether it was.
bool write_file_if_changed(const std::string& path, const std::string& content, Diagnostics& diags, bool& written);
// Make-style depfile: the outputs at the top of `dir` (or, when there are none, every output)
// depend on every input. Ninja requires depfile targets to be outputs the build declared.
bool write_depfile(const std::string& depfile, const OutputSet& out, const std::string& dir,
                   const std::vector<std::string>& inputs, Diagnostics& diags);

}  // namespace rrgen
