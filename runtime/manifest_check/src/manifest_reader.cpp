#include "rr/manifest_check/manifest_reader.hpp"

#include "rr/yaml/reader.hpp"

namespace rr::manifest_check {

namespace {

std::pair<std::size_t, std::size_t> line_column_at(std::string_view text, std::size_t offset) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

ReadResult read_json(std::string_view text) {
  ReadResult out;
  try {
    Json value = Json::parse(text.begin(), text.end());
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    out.documents.push_back(Document{1, line_column_at(text, first).first, std::move(value)});
  } catch (const Json::parse_error& e) {
    const auto [line, column] = line_column_at(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string message = e.what();
    // nlohmann's text starts "[json.exception.parse_error.101] parse error at line 1, column 2: ".
    if (auto colon = message.find(": "); colon != std::string::npos) message = message.substr(colon + 2);
    out.error = SyntaxError{line, column, message};
  } catch (const Json::exception& e) {
    // A number no double holds (1e999): nlohmann's out_of_range, without a position.
    std::string message = e.what();
    if (auto bracket = message.find("] "); bracket != std::string::npos) message = message.substr(bracket + 2);
    out.error = SyntaxError{1, 1, message};
  }
  return out;
}

// rr::yaml reads it as the API server and kubectl do (go-yaml v2 scalars), with positions.
ReadResult read_yaml(std::string_view text) {
  yaml::ReadResult read = yaml::read(text);
  ReadResult out;
  for (yaml::Document& doc : read.documents) {
    std::vector<std::string> fields;
    for (const yaml::DuplicateKey& key : doc.duplicates) fields.push_back(key.field);
    out.documents.push_back(Document{doc.index, doc.line, std::move(doc.value), std::move(fields)});
  }
  if (read.error) out.error = SyntaxError{read.error->line, read.error->column, std::move(read.error->message)};
  return out;
}

}  // namespace

bool looks_like_json(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

ReadResult read_manifests(std::string_view text, bool json) { return json ? read_json(text) : read_yaml(text); }

}  // namespace rr::manifest_check
