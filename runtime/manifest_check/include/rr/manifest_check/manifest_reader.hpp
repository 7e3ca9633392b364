// Manifest files as kubectl reads them: every document of a multi-document YAML stream (rr::yaml:
// go-yaml v2 scalars, as sigs.k8s.io/yaml converts them to JSON; a mapping key given twice keeps
// its last value and is recorded), or one JSON document, each with the line it starts on, so a
// finding can name file, document and line.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/json.hpp"

namespace rr::manifest_check {

struct Document {
  std::size_t index = 0;  // 1-based, counting the non-empty documents of the file
  std::size_t line = 0;   // 1-based line of the document's first node
  Json object;
  // Fields whose key the YAML mapping repeats ("metadata.name"; the last value is kept).
  std::vector<std::string> duplicate_fields{};
};

// Where reading stopped: a 1-based line and column and the parser's message.
struct SyntaxError {
  std::size_t line = 0, column = 0;
  std::string message;
};

struct ReadResult {
  std::vector<Document> documents;  // every document before a syntax error
  std::optional<SyntaxError> error;
};

// YAML (JSON is YAML too, but `json` reads it with the JSON parser: faster, and its positions).
// Empty documents (only comments, or a bare `---`) are skipped. Never throws on bad input.
ReadResult read_manifests(std::string_view text, bool json);

// True when the text's first non-blank character opens a JSON object or array (stdin has no name).
bool looks_like_json(std::string_view text);

}  // namespace rr::manifest_check
