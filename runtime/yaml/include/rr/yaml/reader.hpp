// YAML text as the API server and kubectl read it (sigs.k8s.io/yaml over go-yaml v2), with
// libyaml's event parser: every document of a stream as rr::Json, each with the line it starts on,
// scalars resolved as go-yaml v2 resolves them (scalars.hpp), repeated mapping keys recorded with
// their line, and errors with a position. libyaml, not yaml-cpp: yaml-cpp's parser allocates
// without end on some short inputs (tests/reader_test.cpp has one), and request bodies are
// outside input. Anchors expand, capped against alias bombs; nesting is capped against the stack.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/json.hpp"

namespace rr::yaml {

// A mapping key given again in the same mapping (the last value is kept, as Go's decoders keep it).
struct DuplicateKey {
  std::string field;     // its path: "metadata.name", "list[0].k"
  std::string shown;     // the key as yaml.v2's strict error shows it (%#v): "\"name\"", 1, true
  std::size_t line = 0;  // 1-based line of the repeated key's value
};

struct Document {
  std::size_t index = 0;  // 1-based, counting the non-empty documents of the stream
  std::size_t line = 0;   // 1-based line of the document's first node
  Json value;
  std::vector<DuplicateKey> duplicates{};
};

// Where reading stopped: a 1-based line and column and the parser's message ("did not find
// expected key"), and the same error as go-yaml words it ("yaml: line 3: did not find expected key").
struct SyntaxError {
  std::size_t line = 0, column = 0;
  std::string message;
  std::string go_text;
};

struct ReadResult {
  std::vector<Document> documents;  // every non-empty document before an error
  std::optional<SyntaxError> error;
};

// Caps what one document may expand to through aliases (a billion laughs), in JSON values.
inline constexpr std::size_t max_document_values = 1'000'000;
// Caps the nesting of collections (the reader recurses per level).
inline constexpr int max_depth = 512;

// Every non-empty document of `text` (empty ones: only comments, a bare `---`, or `null`, are
// skipped). `first_only` stops after the first document, as go-yaml's Unmarshal reads a body.
// Never throws on bad input.
ReadResult read(std::string_view text, bool first_only = false);

}  // namespace rr::yaml
