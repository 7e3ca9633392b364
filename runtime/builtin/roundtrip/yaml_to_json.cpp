#include "yaml_to_json.hpp"

#include <yaml.h>

#include <cerrno>
#include <cstdlib>
#include <memory>

#include <nlohmann/json.hpp>

namespace rr::roundtrip {
namespace {

constexpr int kMaxDepth = 512;  // deeper input is refused before the recursion can exhaust the stack

class Parser {
 public:
  explicit Parser(std::string_view text) {
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  ~Parser() {
    if (has_event_) yaml_event_delete(&event_);
    yaml_parser_delete(&parser_);
  }
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  std::string run() {
    next();
    if (event_.type != YAML_STREAM_START_EVENT) fail("expected a YAML stream");
    next();
    if (event_.type == YAML_STREAM_END_EVENT) return "null";  // an empty file
    if (event_.type != YAML_DOCUMENT_START_EVENT) fail("expected a document");
    next();
    const nlohmann::ordered_json value = node(0);
    if (event_.type != YAML_DOCUMENT_END_EVENT) fail("expected the end of the document");
    next();
    if (event_.type != YAML_STREAM_END_EVENT) fail("more than one document");
    return value.dump();
  }

 private:
  void next() {
    if (has_event_) yaml_event_delete(&event_);
    has_event_ = false;
    if (!yaml_parser_parse(&parser_, &event_)) {
      throw YamlError(parser_.problem_mark.line + 1, parser_.problem_mark.column + 1,
                      parser_.problem ? parser_.problem : "malformed YAML");
    }
    has_event_ = true;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw YamlError(event_.start_mark.line + 1, event_.start_mark.column + 1, what);
  }

  // The node whose first event is the current one; on return the current event is the one after it.
  nlohmann::ordered_json node(int depth) {
    if (depth > kMaxDepth) fail("nested too deeply");
    switch (event_.type) {
      case YAML_ALIAS_EVENT: fail("aliases are not supported");
      case YAML_SCALAR_EVENT: return scalar();
      case YAML_SEQUENCE_START_EVENT: {
        nlohmann::ordered_json out = nlohmann::ordered_json::array();
        next();
        while (event_.type != YAML_SEQUENCE_END_EVENT) out.push_back(node(depth + 1));
        next();
        return out;
      }
      case YAML_MAPPING_START_EVENT: {
        nlohmann::ordered_json out = nlohmann::ordered_json::object();
        next();
        while (event_.type != YAML_MAPPING_END_EVENT) {
          if (event_.type != YAML_SCALAR_EVENT) fail("mapping keys must be strings");
          std::string key(reinterpret_cast<const char*>(event_.data.scalar.value), event_.data.scalar.length);
          if (out.contains(key)) fail("duplicate key '" + key + "'");
          next();
          out[key] = node(depth + 1);
        }
        next();
        return out;
      }
      default: fail("unexpected YAML event");
    }
  }

  // A scalar, then the next event. Plain scalars resolve by the YAML 1.2 core schema.
  nlohmann::ordered_json scalar() {
    const std::string text(reinterpret_cast<const char*>(event_.data.scalar.value), event_.data.scalar.length);
    const bool plain = event_.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    const bool tagged_string = event_.data.scalar.tag &&
                               std::string_view(reinterpret_cast<const char*>(event_.data.scalar.tag)) ==
                                   "tag:yaml.org,2002:str";
    nlohmann::ordered_json out;
    try {
      out = plain && !tagged_string ? resolve_plain(text) : nlohmann::ordered_json(text);
    } catch (const nlohmann::json::exception&) {
      fail("number out of range: " + text.substr(0, 40));  // no JSON number holds it (1e999)
    }
    next();
    return out;
  }

  static nlohmann::ordered_json resolve_plain(const std::string& t) {
    if (t.empty() || t == "~" || t == "null" || t == "Null" || t == "NULL") return nullptr;
    if (t == "true" || t == "True" || t == "TRUE") return true;
    if (t == "false" || t == "False" || t == "FALSE") return false;
    if (t == ".inf" || t == ".Inf" || t == ".INF" || t == ".nan" || t == ".NaN" || t == ".NAN")
      return t;  // no JSON form
    if (is_integer(t)) {
      // Integers keep their exact text when they do not fit 64 bits (rr's decoder reports it).
      errno = 0;
      char* end = nullptr;
      if (t[0] == '-') {
        const long long v = std::strtoll(t.c_str(), &end, 10);
        if (errno == 0 && *end == '\0') return v;
      } else {
        const unsigned long long v = std::strtoull(t.c_str(), &end, 10);
        if (errno == 0 && *end == '\0') return v;
      }
      return nlohmann::ordered_json::parse(t);
    }
    if (is_float(t)) return nlohmann::ordered_json::parse(t);
    return t;
  }
  static bool is_integer(const std::string& t) {
    std::size_t i = (t[0] == '-' || t[0] == '+') ? 1 : 0;
    if (i == t.size()) return false;
    for (; i < t.size(); ++i)
      if (t[i] < '0' || t[i] > '9') return false;
    return t[0] != '+';  // "+1" is not JSON; keep it a string rather than guess
  }
  // JSON's number grammar, which YAML 1.2's core float pattern contains for the texts Go writes.
  static bool is_float(const std::string& t) {
    std::size_t i = 0;
    if (i < t.size() && t[i] == '-') ++i;
    const std::size_t int_start = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    if (i == int_start || (t[int_start] == '0' && i - int_start > 1)) return false;
    if (i < t.size() && t[i] == '.') {
      const std::size_t frac = ++i;
      while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
      if (i == frac) return false;
    }
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
      ++i;
      if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
      const std::size_t exp = i;
      while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
      if (i == exp) return false;
    }
    return i == t.size();
  }

  yaml_parser_t parser_{};
  yaml_event_t event_{};
  bool has_event_ = false;
};

}  // namespace

std::string yaml_to_json(std::string_view yaml) { return Parser(yaml).run(); }

}  // namespace rr::roundtrip
