#include "load/yaml_load.hpp"

#include <yaml.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace rrgen {

const std::string* SourceSet::read(const std::string& path, Diagnostics& diags, const LoadLimits& limits) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error({}, "input-unreadable", "cannot open '" + path + "': " + std::strerror(errno));
    return nullptr;
  }
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) {
    diags.error({}, "input-unreadable", "cannot read '" + path + "'");
    return nullptr;
  }
  std::string text = std::move(buf).str();
  if (text.size() > limits.max_file_bytes) {
    diags.error({intern_file_name(path), 0, 0}, "input-too-large",
                "file is " + std::to_string(text.size()) + " bytes; the limit is " +
                    std::to_string(limits.max_file_bytes));
    return nullptr;
  }
  return add(path, std::move(text));
}

const std::string* SourceSet::add(std::string name, std::string content) {
  names_.push_back(intern_file_name(name));
  contents_.push_back(std::move(content));
  return names_.back();
}

std::string_view SourceSet::content(const std::string* name) const {
  // Interned names repeat when a file is added twice: the latest text is the one being read.
  for (std::size_t i = names_.size(); i-- > 0;)
    if (names_[i] == name) return contents_[i];
  return {};
}

namespace {

// Builds Node trees from libyaml events with an explicit stack (no recursion on input depth).
class TreeBuilder {
 public:
  TreeBuilder(const std::string* file, Diagnostics& diags, const LoadLimits& limits)
      : file_(file), diags_(diags), limits_(limits) {}

  std::vector<Node> run(std::string_view text) {
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    std::vector<Node> docs;
    bool ok = true;
    for (bool done = false; !done && ok;) {
      yaml_event_t ev;
      if (!yaml_parser_parse(&parser, &ev)) {
        Location at{file_, static_cast<std::uint32_t>(parser.problem_mark.line + 1),
                    static_cast<std::uint32_t>(parser.problem_mark.column + 1)};
        std::string msg = parser.problem ? parser.problem : "invalid YAML";
        if (parser.context) msg = std::string(parser.context) + ": " + msg;
        diags_.error(at, "yaml-syntax", msg);
        if (parser.context && (parser.context_mark.line != parser.problem_mark.line ||
                               parser.context_mark.column != parser.problem_mark.column)) {
          diags_.note({file_, static_cast<std::uint32_t>(parser.context_mark.line + 1),
                       static_cast<std::uint32_t>(parser.context_mark.column + 1)},
                      std::string(parser.context) + " started here");
        }
        ok = false;
        break;
      }
      done = ev.type == YAML_STREAM_END_EVENT;
      ok = handle(ev, docs);
      yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    if (!ok) docs.clear();
    return docs;
  }

 private:
  Location at(const yaml_mark_t& m) const {
    return {file_, static_cast<std::uint32_t>(m.line + 1), static_cast<std::uint32_t>(m.column + 1)};
  }

  static std::string anchor_of(const yaml_char_t* a) {
    return a ? std::string(reinterpret_cast<const char*>(a)) : std::string();
  }

  bool count(std::size_t n, const yaml_mark_t& m) {
    nodes_ += n;
    if (nodes_ > limits_.max_nodes) {
      diags_.error(at(m), "input-too-large",
                   "document has more than " + std::to_string(limits_.max_nodes) + " nodes (after expanding aliases)");
      return false;
    }
    return true;
  }

  static std::size_t size_of(const Node& n) {
    std::size_t total = 1;
    std::vector<const Node*> work{&n};
    while (!work.empty()) {
      const Node* x = work.back();
      work.pop_back();
      total += x->children.size();
      for (const auto& c : x->children) work.push_back(&c);
    }
    return total;
  }

  // Attaches a finished node to its parent (or to the document list).
  bool attach(Node node, const std::string& anchor, std::vector<Node>& docs) {
    if (!anchor.empty()) anchors_[anchor] = node;
    if (stack_.empty()) {
      docs.push_back(std::move(node));
      return true;
    }
    Frame& parent = stack_.back();
    if (parent.node.is_sequence()) {
      parent.node.children.push_back(std::move(node));
      return true;
    }
    if (!parent.have_key) {
      if (!node.is_scalar()) {
        diags_.error(node.location, "yaml-complex-key", "mapping keys must be scalars");
        return false;
      }
      parent.key = std::move(node.text);
      parent.key_location = node.location;
      parent.have_key = true;
      return true;
    }
    for (const auto& k : parent.node.keys) {
      if (k == parent.key) {
        diags_.error(parent.key_location, "yaml-duplicate-key", "duplicate mapping key '" + parent.key + "'");
        return false;
      }
    }
    parent.node.keys.push_back(std::move(parent.key));
    parent.node.key_locations.push_back(parent.key_location);
    parent.node.children.push_back(std::move(node));
    parent.have_key = false;
    return true;
  }

  bool open(Node::Kind kind, const yaml_event_t& ev, const yaml_char_t* anchor) {
    if (stack_.size() >= limits_.max_depth) {
      diags_.error(at(ev.start_mark), "input-too-deep",
                   "nesting exceeds " + std::to_string(limits_.max_depth) + " levels");
      return false;
    }
    if (!count(1, ev.start_mark)) return false;
    Frame f;
    f.node.kind = kind;
    f.node.location = at(ev.start_mark);
    f.anchor = anchor_of(anchor);
    stack_.push_back(std::move(f));
    return true;
  }

  bool close(std::vector<Node>& docs) {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    return attach(std::move(f.node), f.anchor, docs);
  }

  bool handle(const yaml_event_t& ev, std::vector<Node>& docs) {
    switch (ev.type) {
      case YAML_DOCUMENT_START_EVENT:
        anchors_.clear();
        return true;
      case YAML_SCALAR_EVENT: {
        if (!count(1, ev.start_mark)) return false;
        Node n;
        n.kind = Node::Kind::Scalar;
        n.location = at(ev.start_mark);
        n.text.assign(reinterpret_cast<const char*>(ev.data.scalar.value), ev.data.scalar.length);
        n.plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        if (ev.data.scalar.tag) {
          const std::string tag(reinterpret_cast<const char*>(ev.data.scalar.tag));
          if (tag == "tag:yaml.org,2002:str") n.plain = false;
        }
        return attach(std::move(n), anchor_of(ev.data.scalar.anchor), docs);
      }
      case YAML_SEQUENCE_START_EVENT:
        return open(Node::Kind::Sequence, ev, ev.data.sequence_start.anchor);
      case YAML_MAPPING_START_EVENT:
        return open(Node::Kind::Mapping, ev, ev.data.mapping_start.anchor);
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT:
        return close(docs);
      case YAML_ALIAS_EVENT: {
        const std::string name = anchor_of(ev.data.alias.anchor);
        auto it = anchors_.find(name);
        if (it == anchors_.end()) {
          diags_.error(at(ev.start_mark), "yaml-syntax", "unknown alias '*" + name + "'");
          return false;
        }
        if (!count(size_of(it->second), ev.start_mark)) return false;
        return attach(it->second, {}, docs);
      }
      default:
        return true;
    }
  }

  struct Frame {
    Node node;
    std::string anchor;
    std::string key;
    Location key_location;
    bool have_key = false;
  };

  const std::string* file_;
  Diagnostics& diags_;
  const LoadLimits& limits_;
  std::vector<Frame> stack_;
  std::map<std::string, Node> anchors_;
  std::size_t nodes_ = 0;
};

}  // namespace

std::vector<Node> load_yaml(const std::string* file, std::string_view text, Diagnostics& diags,
                            const LoadLimits& limits) {
  return TreeBuilder(file, diags, limits).run(text);
}

}  // namespace rrgen
