#include "roundtrip.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "pb_check.hpp"
#include "rr/core/errors.hpp"
#include "yaml_to_json.hpp"

namespace rr::roundtrip {
namespace {

using nlohmann::json;

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string escape_pointer_token(const std::string& t) {
  std::string out;
  for (char c : t) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

std::optional<std::string> difference(const json& a, const json& b, const std::string& at) {
  if (a.is_number() && b.is_number()) {
    if (a.is_number_float() || b.is_number_float()) {
      if (a.get<double>() == b.get<double>()) return std::nullopt;
    } else if (a == b) {
      return std::nullopt;
    }
    return at;
  }
  if (a.type() != b.type()) return at;
  if (a.is_object()) {
    for (const auto& [k, v] : a.items()) {
      if (!b.contains(k)) return at + "/" + escape_pointer_token(k) + " (missing)";
      if (auto d = difference(v, b.at(k), at + "/" + escape_pointer_token(k))) return d;
    }
    for (const auto& [k, v] : b.items())
      if (!a.contains(k)) return at + "/" + escape_pointer_token(k) + " (added)";
    return std::nullopt;
  }
  if (a.is_array()) {
    if (a.size() != b.size())
      return at + " (" + std::to_string(a.size()) + " items, now " + std::to_string(b.size()) + ")";
    for (std::size_t i = 0; i < a.size(); ++i)
      if (auto d = difference(a[i], b[i], at + "/" + std::to_string(i))) return d;
    return std::nullopt;
  }
  if (a == b) return std::nullopt;
  return at;
}

// "apps.v1.Deployment" -> {"apps/v1", "Deployment"}; "core.v1.Pod" -> {"v1", "Pod"}.
std::optional<std::pair<std::string, std::string>> api_version_and_kind(const std::string& stem) {
  const auto kind_dot = stem.rfind('.');
  if (kind_dot == std::string::npos || kind_dot == 0) return std::nullopt;
  const auto version_dot = stem.rfind('.', kind_dot - 1);
  if (version_dot == std::string::npos) return std::nullopt;
  const std::string group = stem.substr(0, version_dot),
                    version = stem.substr(version_dot + 1, kind_dot - version_dot - 1);
  return std::make_pair(group == "core" ? version : group + "/" + version, stem.substr(kind_dot + 1));
}

// Kubernetes' convention (apimachinery's roundtrip.CompatibilityTestOptions): where a fixture's
// exact round trip is not expected, <stem>.after_roundtrip.<ext> holds what re-encoding it gives.
constexpr std::string_view kAfterRoundtrip = ".after_roundtrip";

// The forms (".json", ".pb", ".yaml") of one <group>.<version>.<Kind>: the fixtures and the
// after_roundtrip files present.
struct Forms {
  std::vector<std::string> fixtures;
  std::set<std::string> after;
};

struct Checker {
  const KindCodec* codec = nullptr;
  std::optional<std::string> json_encoded;  // the JSON form, decoded and encoded again

  // JSON text in, the same JSON out, or `after` (the after_roundtrip form as JSON text) when the
  // fixture has one; `as` names the form for messages.
  FixtureResult lossless(const std::string& file, const std::string& json_text, const char* as,
                         const std::string* after) {
    FixtureResult r{file, Outcome::Passed, ""};
    try {
      const std::string again = codec->reencode(json_text);
      if (auto d = first_difference(after ? *after : json_text, again); !d.empty()) {
        r.outcome = Outcome::Failed;
        r.detail = std::string(as) +
                   (after ? " does not re-encode as its after_roundtrip file" : " does not survive decode and encode") +
                   ": first difference at " + d;
        return r;
      }
      if (json_encoded) {
        if (auto d = first_difference(*json_encoded, again); !d.empty()) {
          r.outcome = Outcome::Failed;
          r.detail = std::string(as) + " decodes to another object than the JSON form: first difference at " + d;
        }
      } else {
        json_encoded = again;
      }
    } catch (const DecodeError& e) {
      r.outcome = Outcome::Failed;
      r.detail = std::string(as) + " does not decode: " + e.what();
    }
    return r;
  }
};

// A form's fixture through `checker`, against its after_roundtrip file when `forms` has one.
FixtureResult check_form(Checker& checker, const std::filesystem::path& dir, const std::string& stem,
                         const std::string& ext, const Forms& forms) {
  const std::string file = stem + ext;
  const bool has_after = forms.after.contains(ext);
  const std::filesystem::path after_path = dir / (stem + std::string(kAfterRoundtrip) + ext);
  try {
    if (ext == ".json") {
      const std::string after = has_after ? read_file(after_path) : std::string();
      return checker.lossless(file, read_file(dir / file), "JSON", has_after ? &after : nullptr);
    }
    if (ext == ".yaml") {
      const std::string after = has_after ? yaml_to_json(read_file(after_path)) : std::string();
      return checker.lossless(file, yaml_to_json(read_file(dir / file)), "YAML", has_after ? &after : nullptr);
    }
  } catch (const YamlError& e) {
    return {file, Outcome::Failed, std::string("YAML does not parse: ") + e.what()};
  } catch (const json::exception& e) {
    return {file, Outcome::Failed, std::string("the after_roundtrip file is not JSON: ") + e.what()};
  }
  if (!checker.codec->pb_reencode) return {file, Outcome::NotChecked, "the kind has no protobuf codec"};
  const std::string* json_form = checker.json_encoded ? &*checker.json_encoded : nullptr;
  const std::string after = has_after ? read_file(after_path) : std::string();
  const PbResult pb = check_pb_fixture(*checker.codec, read_file(dir / file), json_form, has_after ? &after : nullptr);
  return {file, pb.passed ? Outcome::Passed : Outcome::Failed, pb.detail};
}

}  // namespace

std::string first_difference(const std::string& expected_json, const std::string& actual_json) {
  const json a = json::parse(expected_json), b = json::parse(actual_json);
  auto d = difference(a, b, "");
  if (!d) return "";
  return d->empty() ? "/ (the whole value)" : *d;
}

Report check_fixtures(const std::filesystem::path& dir, std::span<const KindCodec> codecs) {
  std::map<std::pair<std::string, std::string>, const KindCodec*> by_kind;
  for (const auto& c : codecs) by_kind[{std::string(c.api_version), std::string(c.kind)}] = &c;

  // stem -> the forms present (JSON first, so the YAML and protobuf are compared with it).
  std::map<std::string, Forms> stems;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const auto ext = entry.path().extension().string();
    if (ext != ".json" && ext != ".yaml" && ext != ".pb") continue;
    const std::string stem = entry.path().stem().string();
    if (stem.ends_with(kAfterRoundtrip)) stems[stem.substr(0, stem.size() - kAfterRoundtrip.size())].after.insert(ext);
    else stems[stem].fixtures.push_back(ext);
  }
  Report report;
  const auto count = [&report](FixtureResult r) {
    switch (r.outcome) {
      case Outcome::Passed: ++report.passed; break;
      case Outcome::Failed: ++report.failed; break;
      case Outcome::Skipped: ++report.skipped; break;
      case Outcome::NotChecked: ++report.not_checked; break;
    }
    report.results.push_back(std::move(r));
  };
  for (auto& [stem, forms] : stems) {
    std::sort(forms.fixtures.begin(), forms.fixtures.end());  // .json < .pb < .yaml
    const auto gvk = api_version_and_kind(stem);
    Checker checker;
    if (gvk) {
      if (auto it = by_kind.find(*gvk); it != by_kind.end()) checker.codec = it->second;
    }
    for (const auto& ext : forms.fixtures) {
      if (checker.codec) {
        count(check_form(checker, dir, stem, ext, forms));
        continue;
      }
      count({stem + ext, Outcome::Skipped,
             gvk ? gvk->first + " " + gvk->second + " is not served by this API"
                 : "the file name is not <group>.<version>.<Kind>"});
    }
    // An expected re-encoding is not a fixture; one without its fixture is listed, not checked.
    for (const auto& ext : forms.after)
      if (std::find(forms.fixtures.begin(), forms.fixtures.end(), ext) == forms.fixtures.end())
        count({stem + std::string(kAfterRoundtrip) + ext, Outcome::Skipped,
               "there is no " + stem + ext + " to compare it with"});
  }
  return report;
}

std::optional<int> parse_fixture_args(int argc, char** argv, std::string_view program, std::string_view help,
                                      FixtureArgs& args) {
  std::vector<std::string> dirs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--verbose") {
      args.verbose = true;
    } else if (a == "--help" || a == "-h") {
      std::cout << help;
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << program << ": unknown option '" << a << "'\n";
      return 2;
    } else {
      dirs.push_back(a);
    }
  }
  if (dirs.size() != 1) {
    std::cerr << program << ": give one folder of fixtures (--help for usage)\n";
    return 2;
  }
  args.dir = dirs.front();
  return std::nullopt;
}

}  // namespace rr::roundtrip
