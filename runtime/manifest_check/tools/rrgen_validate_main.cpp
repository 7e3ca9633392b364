// rrgen-validate: manifests checked offline as the local cluster admits a dry-run create of each
// document (`rrgen validate` runs this program). Exit 0: all admitted; 1: a document or CRD
// refused; 2: usage, or an input that cannot be read or parsed.
#include <exception>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "rr/manifest_check/checker.hpp"
#include "rr/manifest_check/inputs.hpp"
#include "rr/manifest_check/report.hpp"

namespace {

constexpr const char* usage_text =
    R"(usage: rrgen validate [--crd FILE|DIR]... [--policy FILE|DIR]... [--kubernetes-version 1.35]
                      [--strict] [--output text|json] FILE|DIR|-...

Checks every document of the manifests (multi-document YAML or JSON; a directory's *.yaml, *.yml
and *.json files, recursively; - is stdin) as the local cluster admits a server-side dry-run
create: schema and defaults, CEL rules with their cost limits, ObjectMeta and the API server's
validation of built-in kinds, and the admission policies given with --policy. A custom resource
needs its CRD given with --crd.

Options:
  --crd FILE|DIR            CustomResourceDefinitions to serve (other documents there are skipped);
                            each is admitted as the API server admits a CRD (admission
                            policies and bindings there are taken as with --policy)
  --policy FILE|DIR         ValidatingAdmissionPolicy, MutatingAdmissionPolicy, their bindings and
                            the params objects they use (created first), created in the cluster
                            before the manifests are checked: Deny refuses, Warn warns
  --kubernetes-version V    the Kubernetes version whose rules apply (1.35 only)
  --strict                  unknown fields are errors (fieldValidation=Strict), not warnings
  --output text|json, -o    compiler-style lines (default), or a JSON array of outcomes
  --help                    show this help

Exit status: 0 all admitted, 1 any document or CRD refused, 2 usage or unreadable input.
)";

struct Args {
  std::vector<std::string> crds, policies, operands;
  bool strict = false;
  bool json = false;
};

int usage_error(const std::string& message) {
  std::cerr << "rrgen validate: error: " << message << "\nRun 'rrgen validate --help' for usage.\n";
  return 2;
}

// 0 parsed, 1 help printed, 2 usage error (printed).
int parse(const std::vector<std::string>& argv, Args& args) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    std::string arg = argv[i], value;
    const bool has_inline = arg.starts_with("--") && arg.find('=') != std::string::npos;
    if (has_inline) {
      value = arg.substr(arg.find('=') + 1);
      arg = arg.substr(0, arg.find('='));
    }
    auto take_value = [&]() -> bool {
      if (has_inline) return true;
      if (i + 1 >= argv.size()) return false;
      value = argv[++i];
      return true;
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << usage_text;
      return 1;
    }
    if (arg == "--strict" && !has_inline) {
      args.strict = true;
    } else if (arg == "--crd") {
      if (!take_value()) return usage_error("--crd needs a file or directory");
      args.crds.push_back(value);
    } else if (arg == "--policy") {
      if (!take_value()) return usage_error("--policy needs a file or directory");
      args.policies.push_back(value);
    } else if (arg == "--kubernetes-version") {
      if (!take_value()) return usage_error("--kubernetes-version needs a version");
      if (value != "1.35" && value != "v1.35") {
        return usage_error("--kubernetes-version " + value + ": only 1.35 is known (the runtime's built-in kinds)");
      }
    } else if (arg == "--output" || arg == "-o") {
      if (!take_value()) return usage_error("--output needs text or json");
      if (value != "text" && value != "json") return usage_error("--output " + value + ": expected text or json");
      args.json = value == "json";
    } else if (arg == "--") {
      args.operands.insert(args.operands.end(), argv.begin() + static_cast<std::ptrdiff_t>(i) + 1, argv.end());
      break;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return usage_error("unknown option '" + argv[i] + "'");
    } else {
      args.operands.push_back(arg);
    }
  }
  if (args.operands.empty()) return usage_error("no manifests given (a file, a directory or - for stdin)");
  return 0;
}

int run(const Args& args) {
  using namespace rr::manifest_check;
  std::vector<InputError> errors;
  std::vector<Outcome> outcomes;
  Checker checker(args.strict);
  auto report = [&](Outcome&& added) {
    if (added.refusal || !added.warnings.empty()) outcomes.push_back(std::move(added));
  };
  // Admission policies and bindings (from --crd and --policy), and the other --policy documents,
  // their params, which are created first, as a policy's params exist before it is applied.
  std::vector<std::pair<std::string, Document>> policies, params;
  for (const InputFile& file : read_inputs(args.crds, errors)) {
    for (const Document& doc : file.read.documents) {
      if (is_admission_policy(doc.object)) {
        policies.emplace_back(file.name, doc);
      } else if (auto added = checker.add_crd(file.name, doc)) {
        report(std::move(*added));
      }
    }
  }
  for (const InputFile& file : read_inputs(args.policies, errors)) {
    for (const Document& doc : file.read.documents) {
      if (is_admission_policy(doc.object)) {
        policies.emplace_back(file.name, doc);
      } else if (auto added = checker.add_crd(file.name, doc)) {
        report(std::move(*added));  // a params kind's CRD given with its policy: served, as with --crd
      } else {
        params.emplace_back(file.name, doc);
      }
    }
  }
  for (const auto& [name, doc] : params) report(checker.add_object(name, doc));
  for (const auto& [name, doc] : policies) report(checker.add_object(name, doc));
  for (const InputFile& file : read_inputs(args.operands, errors)) {
    for (const Document& doc : file.read.documents) outcomes.push_back(checker.check(file.name, doc));
  }
  if (args.json) {
    write_json(std::cout, outcomes, errors);
  } else {
    write_text(std::cout, outcomes, errors);
  }
  std::cout.flush();
  if (!errors.empty()) return 2;
  for (const Outcome& o : outcomes) {
    if (o.refusal) return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  Args args;
  const int parsed = parse(std::vector<std::string>(argv + 1, argv + argc), args);
  if (parsed == 1) return 0;
  if (parsed != 0) return parsed;
  try {
    return run(args);
  } catch (const std::bad_alloc&) {
    std::cerr << "rrgen validate: error: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "rrgen validate: internal error: " << e.what() << "\n";
  }
  return 3;
}
