// rrgen-validate's output: compiler-style text lines (file:line: document N: error: ...) or one
// JSON array of outcomes with the Status the API server would answer.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "rr/manifest_check/checker.hpp"

namespace rr::manifest_check {

// A file that could not be read or parsed (exit status 2): its own line or JSON entry.
struct InputError {
  std::string file;
  std::size_t line = 0, column = 0;  // 0: the whole file
  std::string message;
};

// Text: unreadable inputs, then each document's warnings and refusals (one line per cause);
// admitted documents print nothing.
void write_text(std::ostream& out, const std::vector<Outcome>& outcomes, const std::vector<InputError>& errors);

// JSON: [{file, document, line, apiVersion, kind, name, status, warnings}, ...]; an input error
// is {file, line, column, error}.
void write_json(std::ostream& out, const std::vector<Outcome>& outcomes, const std::vector<InputError>& errors);

// The lines of a refusal: a 422's causes one per line, in the API server's words
// (`Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: ...`), else its message.
std::vector<std::string> refusal_lines(const Status& status);

}  // namespace rr::manifest_check
