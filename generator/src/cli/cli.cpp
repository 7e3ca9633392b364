#include "cli/cli.hpp"

#include <cctype>
#include <ostream>

#include "cli/cli_analyze.hpp"
#include "cli/cli_args.hpp"
#include "cli/cli_crd.hpp"
#include "cli/cli_create_api.hpp"
#include "cli/cli_dies.hpp"
#include "cli/cli_generate.hpp"
#include "cli/cli_image.hpp"
#include "cli/cli_init.hpp"
#include "cli/cli_openapi_facts.hpp"
#include "cli/cli_pin_image.hpp"
#include "cli/cli_project_config.hpp"
#include "cli/cli_types.hpp"
#include "cli/cli_validate.hpp"
#include "support/version.hpp"

namespace rrgen {
namespace {

constexpr const char* kUsage = R"(usage: rrgen <command> [options]

Commands:
  analyze   Find the API calls an operator's sources make through the rr runtime (Clang), read
            their +kubebuilder:rbac markers, and print the RBAC they need, checked against the spec.
  generate  Generate a reconciler from a reconciler spec and CRDs: types, wiring, test factories,
            RBAC, a kustomize config/ tree and dist/install.yaml (and, with --scaffold, the files
            you fill in).
  create api
            Add a kind to a project rrgen init made: its CRD, reconciler spec, hooks, tests and
            CMake wiring (rrgen/kinds.cmake), never touching a file of yours.
  crd       Write CustomResourceDefinitions from C++ structs and their kubebuilder markers (Clang),
            as controller-gen does from Go types.
  dies      Generate test factories ("dies") for the kinds of CRDs or the runtime's built-in kinds.
  image     Write a reproducible OCI image layout of an operator's executable and the shared
            libraries it loads, without a container daemon.
  init      Create a new operator project (CMake + find_package(rrgen), a CRD, a spec, hooks, tests).
  openapi-facts
            Copy the facts of Kubernetes' OpenAPI v3 documents, without their prose, into one
            document per group-version (how schemas/kubernetes-1.35/ is made).
  pin-image Pin the manager's image to a digest in a generated tree (config/manager's
            kustomization and dist/install.yaml), after the image is built.
  project-config
            Write the deploy tree of a project rrgen init made: every kind in one operator
            (config/ and dist/install.yaml).
  types     Generate C++ types from CRD manifests and Kubernetes OpenAPI v3 documents.
  validate  Check manifests offline as the local cluster admits them (schema, CEL, ObjectMeta and
            built-in validation); runs the runtime's rrgen-validate program.

Run 'rrgen <command> --help' for the options of a command.

Options:
  --help       Show this help.
  --version    Print the rrgen version.
)";

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) return usage_error(err, "no command");
  const std::string& cmd = args[0];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    out << kUsage;
    return 0;
  }
  if (cmd == "--version") {
    out << "rrgen " << kVersion << "\n";
    return 0;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "analyze") return run_analyze(rest, out, err);
  if (cmd == "generate") return run_generate(rest, out, err);
  if (cmd == "create") return run_create(rest, out, err);
  if (cmd == "crd") return run_crd(rest, out, err);
  if (cmd == "dies") return run_dies(rest, out, err);
  if (cmd == "image") return run_image(rest, out, err);
  if (cmd == "init") return run_init(rest, out, err);
  if (cmd == "openapi-facts") return run_openapi_facts(rest, out, err);
  if (cmd == "pin-image") return run_pin_image(rest, out, err);
  if (cmd == "project-config") return run_project_config(rest, out, err);
  if (cmd == "types") return run_types(rest, out, err);
  if (cmd == "validate") return run_validate(rest, out, err);
  return usage_error(err, "unknown command '" + cmd + "'");
}

}  // namespace rrgen
