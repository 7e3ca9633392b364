// RFC 6902 JSON Patch: applying a patch. The target is copied first, so a failing operation
// leaves nothing half-applied (the patch is atomic, as the RFC requires).
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "json_pointer.hpp"
#include "rr/client/patch.hpp"
#include "rr/core/json.hpp"

namespace rr {
namespace {

using Tokens = std::vector<std::string>;

std::string pointer_text(const Tokens& tokens, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += "/" + detail::escape_json_pointer_token(tokens[i]);
  return out;
}

[[noreturn]] void fail(std::string message) { throw PatchError(std::move(message)); }

// "an object", "a string", ... for messages.
std::string a_type(const Json& j) {
  const std::string name = j.type_name();
  if (j.is_null()) return name;
  return (name[0] == 'a' || name[0] == 'o' ? "an " : "a ") + name;
}

// An array index as RFC 6901 spells it: "0" or digits without a leading zero.
std::size_t parse_index(const std::string& token, const Tokens& tokens, std::size_t depth) {
  const bool digits_only = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
  std::size_t index = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), index);
  if (!digits_only || (token.size() > 1 && token[0] == '0') || ec != std::errc() ||
      end != token.data() + token.size()) {
    fail("\"" + token + "\" is not an array index at \"" + pointer_text(tokens, depth + 1) + "\"");
  }
  return index;
}

// The value `tokens[0..count)` names; it must exist.
Json& resolve(Json& doc, const Tokens& tokens, std::size_t count) {
  Json* at = &doc;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string& token = tokens[i];
    if (at->is_object()) {
      const auto it = at->find(token);
      if (it == at->end()) fail("path \"" + pointer_text(tokens, i + 1) + "\" does not exist");
      at = &*it;
    } else if (at->is_array()) {
      if (token == "-") fail("\"-\" at \"" + pointer_text(tokens, i + 1) + "\" names no existing element");
      const std::size_t index = parse_index(token, tokens, i);
      if (index >= at->size()) {
        fail("index " + token + " at \"" + pointer_text(tokens, i + 1) + "\" is out of range (the array has " +
             std::to_string(at->size()) + " elements)");
      }
      at = &(*at)[index];
    } else {
      fail("path \"" + pointer_text(tokens, i + 1) + "\" does not exist (\"" + pointer_text(tokens, i) +
           "\" is " + a_type(*at) + ", not an object or array)");
    }
  }
  return *at;
}

void add(Json& doc, const Tokens& path, Json value) {
  if (path.empty()) {
    doc = std::move(value);
    return;
  }
  Json& parent = resolve(doc, path, path.size() - 1);
  const std::string& last = path.back();
  if (parent.is_object()) {
    parent[last] = std::move(value);
  } else if (parent.is_array()) {
    if (last == "-") {
      parent.push_back(std::move(value));
      return;
    }
    const std::size_t index = parse_index(last, path, path.size() - 1);
    if (index > parent.size()) {
      fail("index " + last + " at \"" + pointer_text(path, path.size()) + "\" is out of range (the array has " +
           std::to_string(parent.size()) + " elements)");
    }
    parent.insert(parent.begin() + static_cast<std::ptrdiff_t>(index), std::move(value));
  } else {
    fail("cannot add at \"" + pointer_text(path, path.size()) + "\": \"" + pointer_text(path, path.size() - 1) +
         "\" is " + a_type(parent) + ", not an object or array");
  }
}

Json remove(Json& doc, const Tokens& path) {
  if (path.empty()) fail("cannot remove the whole document");
  resolve(doc, path, path.size());  // reports a missing target with the right message
  Json& parent = resolve(doc, path, path.size() - 1);
  const std::string& last = path.back();
  Json removed;
  if (parent.is_object()) {
    const auto it = parent.find(last);
    removed = std::move(*it);
    parent.erase(it);
  } else {
    const auto it = parent.begin() + static_cast<std::ptrdiff_t>(parse_index(last, path, path.size() - 1));
    removed = std::move(*it);
    parent.erase(it);
  }
  return removed;
}

bool is_proper_prefix(const Tokens& prefix, const Tokens& of) {
  if (prefix.size() >= of.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (prefix[i] != of[i]) return false;
  }
  return true;
}

const std::string& string_member(const Json& op, const char* name, const std::string& op_name) {
  const auto it = op.find(name);
  if (it == op.end()) fail(std::string("\"") + name + "\" is missing (required by \"" + op_name + "\")");
  if (!it->is_string()) fail(std::string("\"") + name + "\" must be a string, not " + a_type(*it));
  return it->get_ref<const std::string&>();
}

const Json& value_member(const Json& op, const std::string& op_name) {
  const auto it = op.find("value");
  if (it == op.end()) fail("\"value\" is missing (required by \"" + op_name + "\")");
  return *it;
}

void apply_one(Json& doc, const Json& op) {
  if (!op.is_object()) fail("an operation must be an object, not " + a_type(op));
  const auto op_it = op.find("op");
  if (op_it == op.end()) fail("\"op\" is missing");
  if (!op_it->is_string()) fail("\"op\" must be a string, not " + a_type(*op_it));
  const std::string& name = op_it->get_ref<const std::string&>();
  if (name != "add" && name != "remove" && name != "replace" && name != "move" && name != "copy" &&
      name != "test") {
    fail("unknown op \"" + name + "\" (expected add, remove, replace, move, copy or test)");
  }
  const Tokens path = detail::parse_json_pointer(string_member(op, "path", name));

  if (name == "add") {
    add(doc, path, value_member(op, name));
  } else if (name == "remove") {
    remove(doc, path);
  } else if (name == "replace") {
    const Json& value = value_member(op, name);
    resolve(doc, path, path.size()) = value;
  } else if (name == "test") {
    const Json& value = value_member(op, name);
    const Json& actual = resolve(doc, path, path.size());
    if (actual != value) {
      fail("test failed: \"" + pointer_text(path, path.size()) + "\" is " + actual.dump() + ", not " + value.dump());
    }
  } else {
    const Tokens from = detail::parse_json_pointer(string_member(op, "from", name));
    if (name == "copy") {
      add(doc, path, resolve(doc, from, from.size()));
    } else if (is_proper_prefix(from, path)) {
      fail("cannot move \"" + pointer_text(from, from.size()) + "\" into its own child \"" +
           pointer_text(path, path.size()) + "\"");
    } else if (from == path) {
      resolve(doc, from, from.size());  // moving a value onto itself: it must still exist
    } else {
      add(doc, path, remove(doc, from));
    }
  }
}

}  // namespace

Json apply_json_patch(const Json& target, const Json& patch) {
  if (!patch.is_array()) {
    throw PatchError("a JSON patch must be an array of operations, not " + a_type(patch));
  }
  Json doc = target;
  for (std::size_t i = 0; i < patch.size(); ++i) {
    try {
      apply_one(doc, patch[i]);
    } catch (const PatchError& e) {
      std::string where = "JSON patch operation " + std::to_string(i);
      const Json& op = patch[i];
      if (op.is_object() && op.contains("op") && op["op"].is_string()) {
        where += " (" + op["op"].get<std::string>();
        if (op.contains("path") && op["path"].is_string()) {
          const std::string& path = op["path"].get_ref<const std::string&>();
          where += path.empty() ? std::string(" \"\"") : " " + path;  // the root would be invisible
        }
        where += ")";
      }
      throw PatchError(where + ": " + e.what());
    }
  }
  return doc;
}

}  // namespace rr
