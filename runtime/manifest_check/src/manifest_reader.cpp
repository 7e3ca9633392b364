#include "rr/manifest_check/manifest_reader.hpp"

#include <charconv>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

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
  return std::strtod(text.c_str(), nullptr);
}

Json plain_scalar(const std::string& text) {
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  const std::string_view s = text;
  if (s == ".inf" || s == ".Inf" || s == ".INF" || s == "+.inf" || s == "+.Inf" || s == "+.INF") return text;
  return number_or_string(text);
}

struct BuildError : std::runtime_error {
  BuildError(const YAML::Mark& m, const std::string& what) : std::runtime_error(what), mark(m) {}
  YAML::Mark mark;
};

// Builds one document's JSON from the parser's events.
class JsonBuilder : public YAML::EventHandler {
 public:
  std::optional<Json> root;
  YAML::Mark root_mark;

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { add(mark, nullptr, anchor, 1); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) throw BuildError(mark, "unknown anchor");
    add(mark, it->second.value, YAML::NullAnchor, it->second.values);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    // "!" marks a quoted scalar (always a string); "?" a plain one.
    const bool quoted = tag == "!" || tag == "tag:yaml.org,2002:str";
    add(mark, quoted ? Json(value) : plain_scalar(value), anchor, 1);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, Json::array(), anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(mark, Json::object(), anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  struct Frame {
    Json value;
    YAML::Mark mark;
    YAML::anchor_t anchor;
    std::size_t values_before;
    std::optional<std::string> key;  // a map's key waiting for its value
  };
  struct Anchored {
    Json value;
    std::size_t values;
  };

  void count(const YAML::Mark& mark, std::size_t n) {
    values_ += n;
    if (values_ > max_document_values) throw BuildError(mark, "document too large (aliases expand too far)");
  }

  void open(const YAML::Mark& mark, Json value, YAML::anchor_t anchor) {
    if (!stack_.empty()) check_key_position(mark);
    count(mark, 1);
    stack_.push_back(Frame{std::move(value), mark, anchor, values_ - 1, std::nullopt});
  }

  // A map or sequence where a map expects its key: Kubernetes objects have string keys only.
  void check_key_position(const YAML::Mark& mark) const {
    const Frame& top = stack_.back();
    if (top.value.is_object() && !top.key) throw BuildError(mark, "a mapping key must be a scalar");
  }

  void close() {
    Frame done = std::move(stack_.back());
    stack_.pop_back();
    if (done.anchor != YAML::NullAnchor) anchors_[done.anchor] = Anchored{done.value, values_ - done.values_before};
    place(done.mark, std::move(done.value));
  }

  void add(const YAML::Mark& mark, Json value, YAML::anchor_t anchor, std::size_t values) {
    count(mark, values);
    if (anchor != YAML::NullAnchor) anchors_[anchor] = Anchored{value, values};
    if (!stack_.empty() && stack_.back().value.is_object() && !stack_.back().key) {
      if (!value.is_string()) {
        // sigs.k8s.io/yaml writes a non-string key as its text; null and numbers as YAML spelt them.
        if (value.is_null()) throw BuildError(mark, "a mapping key must not be null");
        if (!value.is_primitive()) throw BuildError(mark, "a mapping key must be a scalar");
        stack_.back().key = value.dump();
        return;
      }
      stack_.back().key = value.get<std::string>();
      return;
    }
    place(mark, std::move(value));
  }

  void place(const YAML::Mark& mark, Json value) {
    if (stack_.empty()) {
      root = std::move(value);
      root_mark = mark;
      return;
    }
    Frame& top = stack_.back();
    if (top.value.is_array()) {
      top.value.push_back(std::move(value));
    } else {
      top.value[*top.key] = std::move(value);  // a repeated key: the last wins, as Go's JSON decoder
      top.key.reset();
    }
  }

  std::vector<Frame> stack_;
  std::map<YAML::anchor_t, Anchored> anchors_;
  std::size_t values_ = 0;
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
  }
  return out;
}

ReadResult read_yaml(std::string_view text) {
  ReadResult out;
  std::istringstream in{std::string(text)};
  try {
    YAML::Parser parser(in);
    for (;;) {
      JsonBuilder builder;
      try {
        if (!parser.HandleNextDocument(builder)) break;
      } catch (const BuildError& e) {
        out.error = SyntaxError{static_cast<std::size_t>(e.mark.line + 1), static_cast<std::size_t>(e.mark.column + 1),
                                e.what()};
        return out;
      }
      if (!builder.root || builder.root->is_null()) continue;
      out.documents.push_back(Document{out.documents.size() + 1, static_cast<std::size_t>(builder.root_mark.line + 1),
                                       std::move(*builder.root)});
    }
  } catch (const YAML::Exception& e) {
    const std::size_t line = e.mark.is_null() ? 0 : static_cast<std::size_t>(e.mark.line + 1);
    const std::size_t column = e.mark.is_null() ? 0 : static_cast<std::size_t>(e.mark.column + 1);
    out.error = SyntaxError{line, column, e.msg};
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
