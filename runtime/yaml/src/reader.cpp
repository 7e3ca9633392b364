#include "rr/yaml/reader.hpp"

#include <map>
#include <set>
#include <variant>

#include <yaml.h>

#include "rr/core/go_quote.hpp"
#include "rr/yaml/scalars.hpp"

namespace rr::yaml {

namespace {

struct ReadError {
  SyntaxError error;
};

std::string text_of(const unsigned char* p, std::size_t n) { return std::string(reinterpret_cast<const char*>(p), n); }
std::string text_of(const yaml_char_t* p) { return p ? std::string(reinterpret_cast<const char*>(p)) : std::string(); }

std::string go_text_at(std::size_t line, const std::string& message) {
  return "yaml: " + (line ? "line " + std::to_string(line) + ": " : std::string()) + message;
}

// libyaml's event stream, one document at a time, as JSON values.
class Stream {
 public:
  explicit Stream(std::string_view text) {
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  ~Stream() {
    if (has_event_) yaml_event_delete(&event_);
    yaml_parser_delete(&parser_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // The next document's root, or nullopt at the end of the stream; `line` is its first node's.
  std::optional<Json> document(std::size_t& line, std::vector<DuplicateKey>& duplicates) {
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
      const std::string problem = parser_.problem ? parser_.problem : "unknown problem parsing YAML content";
      std::string message = parser_.context ? std::string(parser_.context) + ": " + problem : problem;
      // go-yaml's parser.fail(): a scanner error's line counts from 1, a parser error's as the
      // mark holds it (from 0), else the context's.
      std::size_t go_line = 0;
      if (at.line != 0) {
        go_line = at.line + (parser_.error == YAML_SCANNER_ERROR ? 1 : 0);
      } else if (parser_.context_mark.line != 0) {
        go_line = parser_.context_mark.line;
      }
      throw ReadError{{at.line + 1, at.column + 1, std::move(message), go_text_at(go_line, problem)}};
    }
    has_event_ = true;
  }
  [[noreturn]] void fail(const std::string& what) const {
    const std::size_t line = event_.start_mark.line + 1;
    throw ReadError{{line, event_.start_mark.column + 1, what, go_text_at(line, what)}};
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
        if (it == anchors_.end()) fail("unknown anchor '" + text_of(event_.data.alias.anchor) + "' referenced");
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

  bool plain() const {
    return event_.data.scalar.style == YAML_PLAIN_SCALAR_STYLE && text_of(event_.data.scalar.tag).empty();
  }

  // A key given twice: the last value wins, as Go's decoders do, and the key is recorded (the
  // API server refuses it under fieldValidation=Strict and warns otherwise).
  Json mapping(int depth, const std::string& path) {
    Json out = Json::object();
    next();
    while (event_.type != YAML_MAPPING_END_EVENT) {
      // Kubernetes objects have string keys; sigs.k8s.io/yaml writes a scalar key as its text.
      if (event_.type != YAML_SCALAR_EVENT) fail("a mapping key must be a scalar");
      std::string key = text_of(event_.data.scalar.value, event_.data.scalar.length);
      if (plain() && key == "<<") {
        next();
        const std::size_t line = event_.start_mark.line + 1;
        merge(out, node(depth + 1, path), path, line);
        continue;
      }
      std::string shown = go_quote(key);
      if (plain()) {
        auto resolved = plain_key(key);
        if (auto* bad = std::get_if<Unsupported>(&resolved)) fail(bad->message);
        const bool text = std::get<Json>(plain_scalar(key)).is_string();
        key = std::get<std::string>(resolved);
        if (!text) shown = key;  // %#v shows a number or bool bare
      }
      const std::string field = path.empty() ? key : path + "." + key;
      const bool repeated = out.contains(key);
      next();
      if (repeated) duplicates_.push_back(DuplicateKey{field, shown, event_.start_mark.line + 1});
      out[key] = node(depth + 1, field);
    }
    next();
    return out;
  }

  // A merge key (<<: *base, or a list of them): go-yaml v2 decodes the mapping(s) into the one
  // being read, where it stands, the earlier of a list winning. A key set twice that way counts as
  // repeated, as yaml.v2's strict decoder reports it.
  void merge(Json& out, const Json& value, const std::string& path, std::size_t line) {
    if (!value.is_object() && !value.is_array()) fail("map merge requires map or sequence of maps as the value");
    const auto take = [&](const Json& map) {
      for (auto it = map.begin(); it != map.end(); ++it) {
        if (out.contains(it.key())) {
          duplicates_.push_back(
              DuplicateKey{path.empty() ? it.key() : path + "." + it.key(), go_quote(it.key()), line});
        }
        out[it.key()] = *it;
      }
    };
    if (value.is_object()) return take(value);
    for (auto item = value.rbegin(); item != value.rend(); ++item) {
      if (!item->is_object()) fail("map merge requires map or sequence of maps as the value");
      take(*item);
    }
  }

  // Quoted (or tagged) scalars are strings; plain ones resolve as go-yaml v2 resolves them.
  Json scalar() const {
    std::string value = text_of(event_.data.scalar.value, event_.data.scalar.length);
    if (!plain()) return Json(std::move(value));
    auto resolved = plain_scalar(value);
    if (auto* bad = std::get_if<Unsupported>(&resolved)) fail(bad->message);
    return std::get<Json>(std::move(resolved));
  }

  yaml_parser_t parser_{};
  yaml_event_t event_{};
  bool has_event_ = false;
  bool started_ = false;
  std::map<std::string, Anchored> anchors_;
  std::size_t values_ = 0;
  std::vector<DuplicateKey> duplicates_;
};

}  // namespace

ReadResult read(std::string_view text, bool first_only) {
  ReadResult out;
  try {
    Stream stream(text);
    std::size_t line = 0;
    std::vector<DuplicateKey> duplicates;
    while (auto doc = stream.document(line, duplicates)) {
      if (doc->is_null()) {  // only comments, or a bare `---`
        if (first_only) break;
        continue;
      }
      out.documents.push_back(Document{out.documents.size() + 1, line, std::move(*doc), std::move(duplicates)});
      if (first_only) break;
    }
  } catch (const ReadError& e) {
    out.error = e.error;
  }
  return out;
}

}  // namespace rr::yaml
