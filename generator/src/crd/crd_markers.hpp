// The comment markers `rrgen crd` reads, in kubebuilder's vocabulary (controller-gen's syntax):
//   // +kubebuilder:validation:Minimum=1                      a marker with one value
//   // +kubebuilder:validation:XValidation:rule="...",message="..."   a marker with arguments
//   // +kubebuilder:subresource:status                        a flag
//   // JSON: "x"   or   // +json:name=x                       the member's JSON name
// The other lines of the comment block are the description. This is the parser of outside input
// of the crd stage (fuzz/fuzz_crd_markers.cpp): any text gives markers or errors, never a crash.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "crd/cxx_model.hpp"
#include "support/diagnostics.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {

// How a marker takes its value.
enum class MarkerForm { Flag, Value, Arguments };

struct Marker {
  Location at;
  std::string name;  // without '+': "kubebuilder:validation:Minimum", "listType", "json:name"
  MarkerForm form = MarkerForm::Flag;
  std::string value;                                      // Value: the text after '=', as written
  std::vector<std::pair<std::string, std::string>> args;  // Arguments: key, value as written
  // The value of argument `key` ("" when absent); `found` tells.
  std::string arg(std::string_view key, bool* found = nullptr) const;
};

struct CommentFacts {
  std::string description;  // the comment's other lines: a paragraph's lines joined by spaces
  std::vector<Marker> markers;
};

// The markers and description of a comment block. An unknown marker or one written in the
// wrong form is an error [crd-marker-unknown] / [crd-marker-invalid] at its position and is
// left out. `+kubebuilder:rbac:` markers (rrgen analyze's) are skipped.
CommentFacts read_comment(const std::vector<CommentLine>& lines, Diagnostics& diags);

// A marker's value as a string: "..." (Go escapes), `...` (raw) or the text as written.
std::optional<std::string> marker_string(std::string_view text, std::string& why);
// A JSON value (objects, arrays, strings, numbers, true, false, null) as YAML; nullopt and `why`
// when `text` is not one JSON value. Depth is limited (64).
std::optional<Yaml> json_value(std::string_view text, std::string& why);
// A marker's value as a JSON number (the text kept as written); nullopt when it is not one.
std::optional<std::string> json_number(std::string_view text);
// A non-negative integer of at most 18 digits.
std::optional<long long> marker_count(std::string_view text);
// A marker's list value: "a;b;c" (controller-gen), or "{a,b}" / "[a,b]"; items unquoted.
std::vector<std::string> marker_list(std::string_view text);

}  // namespace rrgen
