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
      else if (key == "kinds") kinds(value, out);
      else unknown_key(key, n.key_locations[i]);
    }
    if (!n.find("duck"))
      diags_.error(n.location, "spec-missing-key",
                   "missing required key 'duck' (the duck type reconciled, e.g. duck: Conditions)");
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
  static const std::vector<std::string> keys = {"duck", "kinds"};
  return keys;
}

}  // namespace rrgen
