#include <string_view>
#include <utility>
#include <vector>

#include "load/kustomize_merge.hpp"

namespace rrgen {

namespace {
// Apart from the other files of rrgen_load's unity sources.
namespace json6902_detail {

// A JSON pointer's reference tokens ("/a~1b/0" -> "a/b", "0"); false when it is not one.
bool tokens_of(const std::string& pointer, std::vector<std::string>& tokens) {
  if (pointer.empty() || pointer.front() != '/') return false;
  std::string token;
  for (std::size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      tokens.push_back(std::move(token));
      token.clear();
    } else if (pointer[i] == '~') {
      if (i + 1 >= pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1')) return false;
      token += pointer[++i] == '0' ? '~' : '/';
    } else {
      token += pointer[i];
    }
  }
  return true;
}

// An array index: digits without a leading zero, below `limit` (or equal, when `end_ok`).
bool index_of(const std::string& token, std::size_t limit, bool end_ok, std::size_t& index) {
  if (token.empty() || token.size() > 9 || (token.size() > 1 && token[0] == '0')) return false;
  index = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return false;
    index = index * 10 + static_cast<std::size_t>(c - '0');
  }
  return end_ok ? index <= limit : index < limit;
}

std::size_t key_index(const Node& map, const std::string& key) {
  std::size_t i = 0;
  while (i < map.keys.size() && map.keys[i] != key) ++i;
  return i;
}

class Patcher {
 public:
  explicit Patcher(std::string& error) : error_(error) {}

  bool apply(Node& target, const Node& op) {
    if (!op.is_mapping()) return fail("an operation must be a mapping");
    const Node* name = op.find("op");
    const Node* path = op.find("path");
    if (!name || !name->is_scalar() || !path || !path->is_scalar()) return fail("an operation needs 'op' and 'path'");
    path_ = path->text;
    std::vector<std::string> tokens;
    if (!tokens_of(path_, tokens)) return fail("'" + path_ + "' is not a JSON pointer to a field");
    const std::string last = tokens.back();
    tokens.pop_back();
    Node* parent = walk(target, tokens);
    if (!parent) return false;
    const Node* value = op.find("value");
    if (name->text == "add" || name->text == "replace") {
      if (!value) return fail("'" + name->text + "' needs a value");
      return name->text == "add" ? add(*parent, last, *value) : replace(*parent, last, *value);
    }
    if (name->text == "remove") return remove(*parent, last);
    return fail("the operation '" + name->text + "' (only add, remove and replace)");
  }

 private:
  Node* walk(Node& root, const std::vector<std::string>& tokens) {
    Node* at = &root;
    for (const std::string& token : tokens) {
      std::size_t i = 0;
      if (at->is_mapping() && (i = key_index(*at, token)) < at->keys.size()) {
        at = &at->children[i];
      } else if (at->is_sequence() && index_of(token, at->children.size(), false, i)) {
        at = &at->children[i];
      } else {
        fail("nothing at '" + token + "'");
        return nullptr;
      }
    }
    return at;
  }

  bool add(Node& parent, const std::string& last, const Node& value) {
    if (parent.is_mapping()) {
      if (const std::size_t i = key_index(parent, last); i < parent.keys.size()) {
        parent.children[i] = value;
      } else {
        parent.keys.push_back(last);
        parent.key_locations.push_back({});
        parent.children.push_back(value);
      }
      return true;
    }
    std::size_t i = 0;
    if (parent.is_sequence() && last == "-") i = parent.children.size();
    else if (!parent.is_sequence() || !index_of(last, parent.children.size(), true, i)) return fail("no place to add");
    parent.children.insert(parent.children.begin() + static_cast<std::ptrdiff_t>(i), value);
    return true;
  }

  bool replace(Node& parent, const std::string& last, const Node& value) {
    std::size_t i = 0;
    if (parent.is_mapping() && (i = key_index(parent, last)) < parent.keys.size()) parent.children[i] = value;
    else if (parent.is_sequence() && index_of(last, parent.children.size(), false, i)) parent.children[i] = value;
    else return fail("nothing to replace");
    return true;
  }

  bool remove(Node& parent, const std::string& last) {
    std::size_t i = 0;
    if (parent.is_mapping() && (i = key_index(parent, last)) < parent.keys.size()) {
      parent.keys.erase(parent.keys.begin() + static_cast<std::ptrdiff_t>(i));
      parent.children.erase(parent.children.begin() + static_cast<std::ptrdiff_t>(i));
      if (i < parent.key_locations.size())
        parent.key_locations.erase(parent.key_locations.begin() + static_cast<std::ptrdiff_t>(i));
    } else if (parent.is_sequence() && index_of(last, parent.children.size(), false, i)) {
      parent.children.erase(parent.children.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      return fail("nothing to remove");
    }
    return true;
  }

  bool fail(const std::string& what) {
    error_ = "JSON patch" + (path_.empty() ? std::string() : " at '" + path_ + "'") + ": " + what;
    return false;
  }

  std::string& error_;
  std::string path_;
};

}  // namespace json6902_detail
}  // namespace

bool json6902_patch(Node& target, const Node& operations, std::string& error) {
  if (!operations.is_sequence()) {
    error = "a JSON patch must be a sequence of operations";
    return false;
  }
  json6902_detail::Patcher patcher(error);
  for (const Node& op : operations.children) {
    if (!patcher.apply(target, op)) return false;
  }
  return true;
}

}  // namespace rrgen
