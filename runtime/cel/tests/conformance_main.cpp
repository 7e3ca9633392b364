// Runs the CEL specification's conformance cases (cel-spec tests/simple, as JSON: see the README
// beside them) through rr::cel and prints `cel conformance: N passed, M failed, K skipped` with
// counts per file.
//
//   rr_cel_conformance DIR SKIPS KNOWN_FAILURES [--textproto-escapes FILE] [--min-passed N]
//                      [--write-known-failures] [--verbose]
//
// SKIPS lists the cases not run, each with a reason ("<file>/<section>/<test> :: <reason>", where
// the test or section may be `*`; a second case of the same name in a section is "<test>#2").
// KNOWN_FAILURES lists the cases that fail today, one id a line:
// the run fails when a case outside both lists fails, when a known failure passes (take it off
// the list: it only shrinks), and when an entry of either list names no case.
// --write-known-failures rewrites KNOWN_FAILURES with the cases failing now. --textproto-escapes
// lists cases whose expected value keeps text-format escapes the JSON conversion did not decode
// (decoded here, for those cases only). --min-passed fails the run when fewer cases pass, so a
// skip list that grows cannot hide a regression.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "conformance_types.hpp"
#include "conformance_values.hpp"
#include "rr/cel/program.hpp"
#include "utf8.hpp"

namespace fs = std::filesystem;
using rr::cel::Value;

namespace {

struct SkipEntry {
  std::string pattern;
  std::string reason;
  bool used = false;
};

bool matches_pattern(const std::string& pattern, const std::string& id) {
  if (pattern == id) return true;
  if (pattern.size() >= 2 && pattern.ends_with("/*")) return id.starts_with(pattern.substr(0, pattern.size() - 1));
  return false;
}

std::vector<std::string> read_lines(const fs::path& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    out.push_back(line);
  }
  return out;
}

struct Outcome {
  bool passed = false;
  std::string detail;
};

// A check_only case: the type the checker deduces is the one expected.
Outcome check_case(const rr::Json& test) {
  const rr::Json& typed = test["expected"].value("typed_result", rr::Json::object());
  std::string why;
  const auto want = rr::cel::conformance::type_text_of(typed.value("deduced_type", rr::Json()), why);
  if (!want) return {false, "deduced type: " + why};
  rr::cel::CompileOptions options;
  options.parse.macros = !test.value("disable_macros", false);
  options.container = test.value("container", "");
  const auto compiled = rr::cel::compile(test["expr"].get<std::string>(), options);
  if (!compiled.ok()) return {false, "compile: " + compiled.error_text};
  const std::string got = compiled.type.to_string();
  if (got != *want) return {false, "deduced " + got + ", want " + *want};
  return {true, ""};
}

// The protobuf text format's escapes the conversion kept as text: \uXXXX and \UXXXXXXXX (code
// points, as UTF-8) and \? in a string; \? in bytes.
Value decode_textproto_escapes(const Value& v) {
  if (v.kind() != rr::cel::Kind::String && v.kind() != rr::cel::Kind::Bytes) return v;
  const bool text = v.kind() == rr::cel::Kind::String;
  const std::string& in = text ? v.as_string() : v.as_bytes();
  std::string out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::size_t digits = i + 1 < in.size() && text ? (in[i + 1] == 'u' ? 4 : in[i + 1] == 'U' ? 8 : 0) : 0;
    if (in[i] == '\\' && digits != 0 && i + 2 + digits <= in.size()) {
      rr::cel::append_utf8(out, static_cast<std::uint32_t>(std::stoul(in.substr(i + 2, digits), nullptr, 16)));
      i += 1 + digits;
    } else if (in[i] == '\\' && i + 1 < in.size() && in[i + 1] == '?') {
      out += '?';
      ++i;
    } else {
      out += in[i];
    }
  }
  return text ? Value(out) : Value::bytes(out);
}

Outcome run_case(const rr::Json& test, bool textproto_escapes) {
  if (test.value("check_only", false)) return check_case(test);
  const rr::Json& expected = test["expected"];
  if (expected.contains("typed_result") && !expected["typed_result"].contains("result"))
    return {false, "typed_result without a value"};
  rr::cel::CompileOptions options;
  options.parse.macros = !test.value("disable_macros", false);
  options.container = test.value("container", "");
  options.check_functions = !test.value("disable_check", false);
  options.check_types = !test.value("disable_check", false);
  auto compiled = rr::cel::compile(test["expr"].get<std::string>(), options);
  if (!compiled.ok()) return {false, "compile: " + compiled.error_text};
  rr::cel::Activation activation;
  for (const auto& [name, binding] : test["bindings"].items()) {
    std::string why;
    if (binding.contains("eval_error")) {
      activation.set(name, Value::error(binding["eval_error"].dump()));
      continue;
    }
    auto v = rr::cel::conformance::value_of(binding, why);
    if (!v) return {false, "binding " + name + ": " + why};
    activation.set(name, std::move(*v));
  }
  const Value result = compiled.program->evaluate(activation);
  if (expected.contains("eval_error") || expected.contains("any_eval_errors")) {
    if (result.is_error()) return {true, ""};
    return {false, "expected an error, got " + rr::cel::debug_string(result)};
  }
  const rr::Json* want_json = nullptr;
  if (expected.contains("value")) want_json = &expected["value"];
  else if (expected.contains("typed_result")) want_json = &expected["typed_result"]["result"];
  else if (expected.contains("bool") || expected.size() == 1) want_json = &expected;
  if (want_json == nullptr) return {false, "unsupported expectation " + expected.dump()};
  std::string why;
  auto want = rr::cel::conformance::value_of(*want_json, why);
  if (!want) return {false, "expected value: " + why};
  if (textproto_escapes) want = decode_textproto_escapes(*want);
  if (result.is_error()) return {false, "got error: " + result.error_message()};
  if (!rr::cel::conformance::same_value(result, *want))
    return {false, "got " + rr::cel::debug_string(result) + ", want " + rr::cel::debug_string(*want)};
  return {true, ""};
}

struct FileCounts {
  int passed = 0, failed = 0, skipped = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: rr_cel_conformance DIR SKIPS KNOWN_FAILURES [--textproto-escapes FILE] [--min-passed N]"
                 " [--write-known-failures] [--verbose]\n";
    return 2;
  }
  const fs::path dir = argv[1];
  const fs::path skips_path = argv[2];
  const fs::path known_path = argv[3];
  bool write_known = false, verbose = false;
  int min_passed = 0;
  std::map<std::string, bool> escaped;  // id -> seen
  for (int i = 4; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--write-known-failures") write_known = true;
    else if (a == "--verbose") verbose = true;
    else if (a == "--min-passed" && i + 1 < argc) min_passed = std::stoi(argv[++i]);
    else if (a == "--textproto-escapes" && i + 1 < argc)
      for (const auto& line : read_lines(argv[++i])) escaped[line] = false;
    else {
      std::cerr << "rr_cel_conformance: unknown argument " << a << "\n";
      return 2;
    }
  }

  std::vector<SkipEntry> skips;
  bool bad_lists = false;
  for (const auto& line : read_lines(skips_path)) {
    const auto sep = line.find(" :: ");
    SkipEntry e;
    e.pattern = line.substr(0, sep);
    if (sep != std::string::npos) e.reason = line.substr(sep + 4);
    if (e.reason.empty()) {
      std::cerr << skips_path.filename().string() << ": entry without a reason: " << line << "\n";
      bad_lists = true;
    }
    skips.push_back(std::move(e));
  }
  std::map<std::string, bool> known;  // id -> seen
  for (const auto& line : read_lines(known_path)) known[line] = false;

  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());

  std::map<std::string, FileCounts> per_file;
  std::vector<std::string> failing, unexpected, now_passing;
  int passed = 0, failed = 0, skipped = 0;
  for (const auto& file : files) {
    std::ifstream in(file);
    const rr::Json doc = rr::Json::parse(in);
    const std::string stem = file.stem().string();
    FileCounts& counts = per_file[stem];
    std::map<std::string, int> seen_ids;
    for (const auto& section : doc["sections"]) {
      for (const auto& test : section["tests"]) {
        std::string id = stem + "/" + section["name"].get<std::string>() + "/" + test["name"].get<std::string>();
        if (const int n = ++seen_ids[id]; n > 1) id += "#" + std::to_string(n);
        bool skip = false;
        for (auto& s : skips)
          if (matches_pattern(s.pattern, id)) {
            s.used = true;
            skip = true;
          }
        if (skip) {
          ++skipped;
          ++counts.skipped;
          continue;
        }
        if (verbose) std::cout << "RUN " << id << std::endl;
        Outcome outcome;
        try {
          const auto e = escaped.find(id);
          if (e != escaped.end()) e->second = true;
          outcome = run_case(test, e != escaped.end());
        } catch (const std::exception& e) {
          outcome = {false, std::string("exception: ") + e.what()};
        }
        const auto k = known.find(id);
        if (k != known.end()) k->second = true;
        if (outcome.passed) {
          ++passed;
          ++counts.passed;
          if (k != known.end()) now_passing.push_back(id);
        } else {
          ++failed;
          ++counts.failed;
          failing.push_back(id);
          if (k == known.end()) unexpected.push_back(id + ": " + outcome.detail);
          if (verbose)
            std::cout << "FAIL " << id << ": " << test["expr"].get<std::string>() << " -> " << outcome.detail << "\n";
        }
      }
    }
  }

  for (const auto& [file, c] : per_file)
    std::cout << "  " << file << ": " << c.passed << " passed, " << c.failed << " failed, " << c.skipped
              << " skipped\n";
  for (const auto& s : skips)
    if (!s.used) {
      std::cerr << "skip entry matches no case: " << s.pattern << "\n";
      bad_lists = true;
    }
  if (write_known) {
    std::ofstream out(known_path);
    out << "# Conformance cases that fail today (rr_cel_conformance --write-known-failures). The test fails when\n"
           "# one of them passes: take it off this list. It only shrinks.\n";
    for (const auto& id : failing) out << id << "\n";
    std::cout << "wrote " << failing.size() << " known failures to " << known_path.string() << "\n";
  } else {
    for (const auto& [id, seen] : known)
      if (!seen) {
        std::cerr << "known failure names no case that runs: " << id << "\n";
        bad_lists = true;
      }
    for (const auto& [id, seen] : escaped)
      if (!seen) {
        std::cerr << "textproto-escapes entry names no case that runs: " << id << "\n";
        bad_lists = true;
      }
    if (passed < min_passed) {
      std::cerr << passed << " cases passed, fewer than --min-passed " << min_passed << "\n";
      bad_lists = true;
    }
    for (const auto& u : unexpected) std::cerr << "unexpected failure: " << u << "\n";
    for (const auto& p : now_passing) std::cerr << "known failure now passes (remove it from the list): " << p << "\n";
  }
  std::cout << "cel conformance: " << passed << " passed, " << failed << " failed, " << skipped << " skipped\n";
  if (write_known) return 0;
  return (unexpected.empty() && now_passing.empty() && !bad_lists) ? 0 : 1;
}
