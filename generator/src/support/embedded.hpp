// Files compiled into the rrgen binary at build time (cmake/RrgenEmbed.cmake): the schemas of the
// runtime's built-in kinds (schemas/*-v1.yaml, so the generator knows exactly the kinds rr::builtin
// has) and the user-owned scaffolds (templates/). rrgen therefore runs from any directory and
// from an installed tree without looking for data files.
#pragma once
#include <span>
#include <string_view>

namespace rrgen {

struct EmbeddedFile {
  std::string_view path;     // relative to the repository root: "schemas/core-v1.yaml", "templates/..."
  std::string_view content;
};

// Every embedded file, sorted by path.
std::span<const EmbeddedFile> embedded_files();
// One file by path; an empty view when there is none (a build error, so callers may assert).
std::string_view embedded_file(std::string_view path);

}  // namespace rrgen
