#include "load/spec_duck.hpp"

#include <algorithm>
#include <cctype>

#include "load/spec_reader.hpp"

namespace rrgen {
namespace spec_duck {
namespace {

std::string quote(std::string_view s) { return "'" + std::string(s) + "'"; }

bool pascal(std::string_view s) {
  return !s.empty() && s.front() >= 'A' && s.front() <= 'Z' &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
}

bool is_string(const Node& n) { return n.is_scalar() && resolve_scalar(n) == ScalarType::String; }

class DuckReader {
 public:
  explicit DuckReader(Diagnostics& diags) : diags_(diags) {}

  SpecDuck read(const Node& n) {
    SpecDuck out;
    out.location = n.location;
    for (std::size_t i = 0; i < n.keys.size(); ++i) {
      const std::string& key = n.keys[i];
      const Node& value = n.children[i];
      if (key == "duck") name(value, out);
      else if (key == "type") cpp_type(value, out);
      else if (key == "header") header(value, out);
      else if (key == "kinds") kinds(value, out);
      else unknown_key(key, n.key_locations[i]);
    }
    if (!n.find("duck"))
      diags_.error(n.location, "spec-missing-key",
                   "missing required key 'duck' (the duck type reconciled, e.g. duck: Conditions)");
    // Your own duck needs both: the wiring names the type and includes the header.
    if (n.find("type") && !n.find("header"))
      diags_.error(n.location, "spec-missing-key", "missing key 'header' (the header that declares the duck's 'type')");
    if (n.find("header") && !n.find("type"))
      diags_.error(n.location, "spec-missing-key", "missing key 'type' (the C++ type of the duck 'header' declares)");
    if (!n.find("kinds"))
      diags_.error(n.location, "spec-missing-key", "missing required key 'kinds' (the kinds the duck applies to)");
    return out;
  }

 private:
  Diagnostics& diags_;

  void unknown_key(std::string_view key, Location at) {
    const std::string near = closest_match(key, spec_duck_keys());
    diags_.error(at, "spec-unknown-key",
                 "unknown key " + quote(key) + " in a duck resource" +
                     (near.empty() ? "" : "; did you mean " + quote(near) + "?"));
  }

  void name(const Node& value, SpecDuck& out) {
    out.name_location = value.location;
    if (!is_string(value)) {
      diags_.error(value.location, "spec-wrong-type", "'duck' must be a string, not " + describe(value));
      return;
    }
    if (!pascal(value.text))
      diags_.error(value.location, "spec-bad-name",
                   "duck " + quote(value.text) + " must be a PascalCase identifier like 'Conditions'");
    out.name = value.text;
  }

  void cpp_type(const Node& value, SpecDuck& out) {
    if (!is_string(value)) {
      diags_.error(value.location, "spec-wrong-type", "'type' must be a string, not " + describe(value));
      return;
    }
    if (!qualified_name(value.text))
      diags_.error(value.location, "spec-bad-value",
                   "type " + quote(value.text) + " must be a C++ type name like 'watcher::ConditionsOnly'");
    out.cpp_type = value.text;
  }

  void header(const Node& value, SpecDuck& out) {
    if (!is_string(value)) {
      diags_.error(value.location, "spec-wrong-type", "'header' must be a string, not " + describe(value));
      return;
    }
    const std::string& h = value.text;
    if (h.empty() || h.front() == '/' || h.find_first_of(" \t\"<>") != std::string::npos)
      diags_.error(value.location, "spec-bad-value",
                   "header " + quote(h) +
                       " must be an include path like 'conditions_only.hpp' (relative, no spaces, quotes or brackets)");
    out.header = h;
  }

  // "a::b::C", optionally with a leading "::".
  static bool qualified_name(std::string_view s) {
    if (s.rfind("::", 0) == 0) s.remove_prefix(2);
    for (;;) {
      const std::size_t cut = s.find("::");
      const std::string_view part = s.substr(0, cut);
      if (part.empty() || std::isdigit(static_cast<unsigned char>(part.front())) ||
          !std::all_of(part.begin(), part.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
        return false;
      if (cut == std::string_view::npos) return true;
      s.remove_prefix(cut + 2);
    }
  }

  void kinds(const Node& value, SpecDuck& out) {
    out.kinds_location = value.location;
    if (!value.is_sequence()) {
      diags_.error(value.location, "spec-wrong-type", "'kinds' must be a sequence of strings, not " + describe(value));
      return;
    }
    // The operator may take other kinds at run time, but it must have a default to run at all.
    if (value.children.empty()) {
      diags_.error(value.location, "spec-duck-kinds",
                   "'kinds' must list at least one kind the duck applies to (the operator's default kinds)");
      return;
    }
    for (const Node& item : value.children) {
      if (!is_string(item)) {
        diags_.error(item.location, "spec-wrong-type", "each item of 'kinds' must be a string, not " + describe(item));
        continue;
      }
      auto ref = parse_kind_ref(item.text, item.location, diags_);
      if (!ref) continue;
      const auto first = std::find_if(out.kinds.begin(), out.kinds.end(),
                                      [&](const KindRef& k) { return k.text == ref->text; });
      if (first != out.kinds.end()) {
        diags_.error(item.location, "spec-duck-kinds", "kind " + quote(ref->text) + " is listed twice");
        diags_.note(first->location, "first listed here");
        continue;
      }
      out.kinds.push_back(std::move(*ref));
    }
  }
};

}  // namespace
}  // namespace spec_duck

std::optional<SpecDuck> read_spec_duck(const Node& n, Diagnostics& diags) {
  if (!n.is_mapping()) return std::nullopt;
  return spec_duck::DuckReader(diags).read(n);
}

const std::vector<std::string>& spec_duck_keys() {
  static const std::vector<std::string> keys = {"duck", "type", "header", "kinds"};
  return keys;
}

}  // namespace rrgen
