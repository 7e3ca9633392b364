#include "rr/manifest_check/manifest_reader.hpp"

#include <charconv>
#include <cmath>
#include <map>
#include <stdexcept>

#include <yaml.h>

namespace rr::manifest_check {

namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// YAML 1.2 core schema: a plain integer, else a plain float, else the text.
Json number_or_string(const std::string& text) {
  std::string_view body = text;
  if (!body.empty() && (body.front() == '-' || body.front() == '+')) body.remove_prefix(1);
  if (all_digits(body)) {
    std::int64_t value = 0;
    const char* first = text.data() + (text.front() == '+' ? 1 : 0);
    const auto [end, ec] = std::from_chars(first, text.data() + text.size(), value);
    if (ec == std::errc() && end == text.data() + text.size()) return value;
    return std::strtod(text.c_str(), nullptr);  // out of int64 range: a float, as Go's YAML decoder
  }
  // [-+]? ( \.[0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
  std::size_t i = 0, digits = 0;
  auto take_digits = [&] {
    std::size_t n = 0;
    while (i < body.size() && body[i] >= '0' && body[i] <= '9') ++i, ++n;
    return n;
  };
  digits = take_digits();
  if (i < body.size() && body[i] == '.') {
    ++i;
    digits += take_digits();
  }
  if (digits == 0) return text;
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '-' || body[i] == '+')) ++i;
    if (take_digits() == 0) return text;
  }
  if (i != body.size()) return text;
  const double value = std::strtod(text.c_str(), nullptr);
  return std::isfinite(value) ? Json(value) : Json(text);  // 1e999: no JSON number holds it
}

Json plain_scalar(const std::string& text) {
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  const std::string_view s = text;
  if (s == ".inf" || s == ".Inf" || s == ".INF" || s == "+.inf" || s == "+.Inf" || s == "+.INF") return text;
  return number_or_string(text);
}

struct ReadError {
  std::size_t line, column;
  std::string message;
};

constexpr int max_depth = 512;  // deeper input is refused before the recursion can exhaust the stack

std::string text_of(const unsigned char* p, std::size_t n) { return std::string(reinterpret_cast<const char*>(p), n); }
std::string text_of(const yaml_char_t* p) { return p ? std::string(reinterpret_cast<const char*>(p)) : std::string(); }

// libyaml's event stream, one document at a time, as JSON values. Anchors expand (capped at
// max_document_values per document); repeated mapping keys are recorded.
class YamlStream {
 public:
  explicit YamlStream(std::string_view text) {
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  ~YamlStream() {
    if (has_event_) yaml_event_delete(&event_);
    yaml_parser_delete(&parser_);
  }
  YamlStream(const YamlStream&) = delete;
  YamlStream& operator=(const YamlStream&) = delete;

  // The next document's root, or nullopt at the end of the stream; `line` is its first node's.
  std::optional<Json> document(std::size_t& line, std::vector<std::string>& duplicates) {
    if (!started_) {  // not in the constructor: a throw there would skip the destructor
      started_ = true;
      next();  // STREAM-START
      next();
    }
    if (event_.type == YAML_STREAM_END_EVENT) return std::nullopt;
    if (event_.type != YAML_DOCUMENT_START_EVENT) fail("expected a document");
    next();
    anchors_.clear();
    values_ = 0;
    duplicates_.clear();
    line = event_.start_mark.line + 1;
    Json root = node(0, "");
    duplicates = std::move(duplicates_);
    if (event_.type != YAML_DOCUMENT_END_EVENT) fail("expected the end of the document");
    next();
    return root;
  }

 private:
  struct Anchored {
    Json value;
    std::size_t values;
  };

  void next() {
    if (has_event_) yaml_event_delete(&event_);
    has_event_ = false;
    if (!yaml_parser_parse(&parser_, &event_)) {
      const yaml_mark_t& at = parser_.problem_mark;
      std::string message = parser_.problem ? parser_.problem : "malformed YAML";
      if (parser_.context) message = std::string(parser_.context) + ": " + message;
      throw ReadError{at.line + 1, at.column + 1, message};
    }
    has_event_ = true;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw ReadError{event_.start_mark.line + 1, event_.start_mark.column + 1, what};
  }
  void count(std::size_t n) {
    values_ += n;
    if (values_ > max_document_values) fail("document too large (aliases expand too far)");
  }

  // The node whose first event is the current one; on return the current event follows it.
  Json node(int depth, const std::string& path) {
    if (depth > max_depth) fail("nested too deeply");
    const std::size_t before = values_;
    std::string anchor;
    Json out;
    switch (event_.type) {
      case YAML_ALIAS_EVENT: {
        auto it = anchors_.find(text_of(event_.data.alias.anchor));
        if (it == anchors_.end()) fail("unknown anchor '" + text_of(event_.data.alias.anchor) + "'");
        count(it->second.values);
        out = it->second.value;
        next();
        return out;
      }
      case YAML_SCALAR_EVENT:
        anchor = text_of(event_.data.scalar.anchor);
        count(1);
        out = scalar();
        next();
        break;
      case YAML_SEQUENCE_START_EVENT:
        anchor = text_of(event_.data.sequence_start.anchor);
        count(1);
        out = Json::array();
        next();
        while (event_.type != YAML_SEQUENCE_END_EVENT) {
          out.push_back(node(depth + 1, path + "[" + std::to_string(out.size()) + "]"));
        }
        next();
        break;
      case YAML_MAPPING_START_EVENT:
        anchor = text_of(event_.data.mapping_start.anchor);
        count(1);
        out = mapping(depth, path);
        break;
      default: fail("unexpected YAML event");
    }
    if (!anchor.empty()) anchors_[anchor] = Anchored{out, values_ - before};
    return out;
  }

  // A key given twice: the last value wins, as Go's decoders do, and the field is recorded
  // (the API server refuses it under fieldValidation=Strict and warns otherwise).
  Json mapping(int depth, const std::string& path) {
    Json out = Json::object();
    next();
    while (event_.type != YAML_MAPPING_END_EVENT) {
      // Kubernetes objects have string keys; sigs.k8s.io/yaml writes a scalar key as its text.
      if (event_.type != YAML_SCALAR_EVENT) fail("a mapping key must be a scalar");
      const std::string key = text_of(event_.data.scalar.value, event_.data.scalar.length);
      const std::string field = path.empty() ? key : path + "." + key;
      if (out.contains(key)) duplicates_.push_back(field);
      next();
      out[key] = node(depth + 1, field);
    }
    next();
    return out;
  }

  // Quoted (or !!str-tagged) scalars are strings; plain ones resolve by the core schema.
  Json scalar() const {
    const std::string value = text_of(event_.data.scalar.value, event_.data.scalar.length);
    const bool plain = event_.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    const bool tagged_string = text_of(event_.data.scalar.tag) == "tag:yaml.org,2002:str";
    return plain && !tagged_string ? plain_scalar(value) : Json(value);
  }

  yaml_parser_t parser_{};
  yaml_event_t event_{};
  bool has_event_ = false;
  bool started_ = false;
  std::map<std::string, Anchored> anchors_;
  std::size_t values_ = 0;
  std::vector<std::string> duplicates_;
};

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

ReadResult read_yaml(std::string_view text) {
  ReadResult out;
  try {
    YamlStream stream(text);
    std::size_t line = 0;
    std::vector<std::string> duplicates;
    while (auto doc = stream.document(line, duplicates)) {
      if (doc->is_null()) continue;  // only comments, or a bare `---`
      out.documents.push_back(Document{out.documents.size() + 1, line, std::move(*doc), std::move(duplicates)});
    }
  } catch (const ReadError& e) {
    out.error = SyntaxError{e.line, e.column, e.message};
  }
  return out;
}

}  // namespace

bool looks_like_json(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

ReadResult read_manifests(std::string_view text, bool json) { return json ? read_json(text) : read_yaml(text); }

}  // namespace rr::manifest_check
