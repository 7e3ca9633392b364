// Duplicated members in a request body, which JSON parsers (ours too) silently resolve to the last
// one: the strict JSON decoder (sigs.k8s.io/json) names each by its path, the strict YAML
// decoder (yaml.v2 through sigs.k8s.io/yaml) by its line.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "rr/core/go_quote.hpp"
#include "rr/validation/decoding.hpp"
#include "rr/yaml/reader.hpp"

namespace rr::validation {

namespace {

constexpr std::size_t kMaxErrors = 100;  // as sigs.k8s.io/json keeps at most

// Where a value sits in its container: the root, a member's key or an item's index.
struct Step {
  enum Kind { Root, Key, Index } kind = Root;
  std::string name;
};

// One open object or array of the JSON scan. Frames keep their own step, not their whole path, so
// deep nesting costs memory in proportion to its depth.
struct Frame {
  bool object = false;
  Step at;
  std::set<std::string> keys;
  std::size_t index = 0;
};

class JsonScan {
 public:
  explicit JsonScan(std::string_view text) : text_(text) {}

  // False on text that is not JSON.
  bool run() {
    if (!value(Step{})) return false;
    while (!stack_.empty()) {
      skip_space();
      if (pos_ >= text_.size()) return false;
      Frame& top = stack_.back();
      const char c = text_[pos_];
      if (c == (top.object ? '}' : ']')) {
        ++pos_;
        stack_.pop_back();
        continue;
      }
      if (top.object ? !(top.keys.empty() || expect(',')) : !(top.index == 0 || expect(','))) return false;
      if (!member()) return false;
    }
    skip_space();
    return pos_ == text_.size();
  }

  std::vector<std::string> errors;
  // When set, every member's path in the order written (first occurrence of each).
  std::vector<std::string>* member_paths = nullptr;

 private:
  // The next member of the innermost container (after its comma, if any).
  bool member() {
    Frame& top = stack_.back();
    skip_space();
    if (!top.object) {
      return value(Step{Step::Index, std::to_string(top.index++)});
    }
    std::string key;
    if (!string(key)) return false;
    skip_space();
    if (!expect(':')) return false;
    const Step at{Step::Key, key};
    const bool first = top.keys.insert(key).second;
    if (!first) add("duplicate field " + go_quote(path_to(at)));
    if (first && member_paths) member_paths->push_back(path_to(at));
    return value(at);
  }

  // A value; an object or array opens a frame that run() continues.
  // The path of `last` inside the open frames: spec.containers[0].name.
  std::string path_to(const Step& last) const {
    std::string path;
    const auto append = [&path](const Step& step) {
      if (step.kind == Step::Index) path += "[" + step.name + "]";
      else if (step.kind == Step::Key) path += (path.empty() ? "" : ".") + step.name;
    };
    for (const Frame& frame : stack_) append(frame.at);
    append(last);
    return path;
  }

  bool value(const Step& at) {
    skip_space();
    if (pos_ >= text_.size()) return false;
    const char c = text_[pos_];
    if (c == '{' || c == '[') {
      ++pos_;
      if (stack_.size() > 10000) return false;
      stack_.push_back(Frame{.object = c == '{', .at = at, .keys = {}, .index = 0});
      skip_space();
      const char close = c == '{' ? '}' : ']';
      if (pos_ < text_.size() && text_[pos_] == close) {
        ++pos_;
        stack_.pop_back();
      }
      // run() reads the members: no recursion per level, so deep nesting cannot exhaust the stack.
      return true;
    }
    if (c == '"') {
      std::string ignored;
      return string(ignored);
    }
    const std::size_t start = pos_;
    while (pos_ < text_.size() &&
           std::string_view("+-.0123456789eEtruefalsn").find(text_[pos_]) != std::string_view::npos) {
      ++pos_;
    }
    return pos_ > start;
  }

  bool string(std::string& out) {
    if (!expect('"')) return false;
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) return false;
      const char e = text_[pos_++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          if (pos_ + 4 > text_.size()) return false;
          unsigned code = 0;
          for (int i = 0; i < 4; ++i) {
            const char h = text_[pos_++];
            code <<= 4;
            if (h >= '0' && h <= '9') code |= static_cast<unsigned>(h - '0');
            else if (h >= 'a' && h <= 'f') code |= static_cast<unsigned>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F') code |= static_cast<unsigned>(h - 'A' + 10);
            else return false;
          }
          append_utf8(out, code);
          break;
        }
        default: out += e;
      }
    }
    return false;
  }

  // A lone surrogate becomes U+FFFD, as Go's decoder makes it; pairs are joined.
  void append_utf8(std::string& out, unsigned code) {
    if (code >= 0xD800 && code < 0xDC00 && pos_ + 6 <= text_.size() && text_[pos_] == '\\' && text_[pos_ + 1] == 'u') {
      unsigned low = 0;
      bool ok = true;
      for (std::size_t i = pos_ + 2; i < pos_ + 6; ++i) {
        const char h = text_[i];
        low <<= 4;
        if (h >= '0' && h <= '9') low |= static_cast<unsigned>(h - '0');
        else if (h >= 'a' && h <= 'f') low |= static_cast<unsigned>(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F') low |= static_cast<unsigned>(h - 'A' + 10);
        else ok = false;
      }
      if (ok && low >= 0xDC00 && low < 0xE000) {
        pos_ += 6;
        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
      }
    }
    if (code >= 0xD800 && code < 0xE000) code = 0xFFFD;
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  void add(std::string error) {
    if (errors.size() >= kMaxErrors) return;
    for (const auto& seen : errors) {
      if (seen == error) return;
    }
    errors.push_back(std::move(error));
  }

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool expect(char c) {
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::vector<Frame> stack_;
};

}  // namespace

std::vector<std::string> duplicate_json_fields(std::string_view text) {
  JsonScan scan(text);
  if (!scan.run()) return {};
  return std::move(scan.errors);
}

void order_as_written(std::vector<std::string>& fields, std::string_view text) {
  if (fields.size() < 2) return;
  std::vector<std::string> paths;
  JsonScan scan(text);
  scan.member_paths = &paths;
  if (!scan.run()) return;
  std::map<std::string_view, std::size_t> position;
  for (std::size_t i = 0; i < paths.size(); ++i) position.emplace(paths[i], i);
  const auto at = [&position](const std::string& field) {
    const auto it = position.find(field);
    return it == position.end() ? SIZE_MAX : it->second;
  };
  std::stable_sort(fields.begin(), fields.end(),
                   [&at](const std::string& a, const std::string& b) { return at(a) < at(b); });
}

}  // namespace rr::validation

namespace rr::validation {

// rr::yaml's keys of the first document (go-yaml's Unmarshal reads no further): a repeated one is
// reported at the line of its value, as yaml.v2's strict decoder does.
std::optional<std::string> duplicate_yaml_keys(std::string_view text) {
  const yaml::ReadResult read = yaml::read(text, /*first_only=*/true);
  if (read.error || read.documents.empty() || read.documents[0].duplicates.empty()) return std::nullopt;
  std::string error = "yaml: unmarshal errors:";
  std::size_t shown = 0;
  for (const yaml::DuplicateKey& key : read.documents[0].duplicates) {
    if (++shown > kMaxErrors) break;
    error += "\n  line " + std::to_string(key.line) + ": key " + key.shown + " already set in map";
  }
  return error;
}

std::vector<std::string> yaml_error_warnings(std::string_view error) {
  constexpr std::string_view kPrefix = "yaml: unmarshal errors:\n";
  if (error.substr(0, kPrefix.size()) != kPrefix) return {std::string(error)};
  std::vector<std::string> lines;
  std::string_view rest = error.substr(kPrefix.size());
  while (true) {
    const std::size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    lines.emplace_back(line);
    if (nl == std::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
  return lines;
}

}  // namespace rr::validation
