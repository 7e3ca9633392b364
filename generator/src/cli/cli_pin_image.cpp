#include "cli/cli_pin_image.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

#include "cli/cli_args.hpp"
#include "cli/install_yaml.hpp"
#include "cli/options.hpp"
#include "load/yaml_copy.hpp"
#include "load/yaml_load.hpp"
#include "support/image_reference.hpp"
#include "support/output.hpp"

namespace rrgen {
namespace {

constexpr const char* kPinImageUsage =
    R"(usage: rrgen pin-image --out DIR (--digest sha256:<64 hex> | --digest-file FILE) [--quiet]

Pins the manager's image to a digest in a tree `rrgen generate` wrote into DIR: the `controller`
entry of config/manager/kustomization.yaml's images gets `digest:` (its newName and newTag stay),
and dist/install.yaml is rendered again from config/default, so its Deployment runs
<newName>:<newTag>@<digest>, as `kubectl kustomize config/default` then does. Files are written
only where their content changed: pinning the same digest twice writes nothing.

Options:
  --out DIR          The directory `rrgen generate --out` wrote (required).
  --digest DIGEST    The image's digest, sha256: and 64 lower-case hex digits.
  --digest-file FILE The file holding it (the `digest` file `rrgen image` writes); one of the
                     two is required.
  --quiet            Do not print the summary line.

Exit status: 0 success, 1 errors (nothing is written), 2 usage error.
)";

constexpr const char* kManagerKustomization = "config/manager/kustomization.yaml";

// The files of DIR, read on first use; `overrides` stand in for the ones about to change.
class DiskFiles {
 public:
  DiskFiles(std::filesystem::path root, std::map<std::string, std::string> overrides)
      : root_(std::move(root)), files_(std::move(overrides)) {}

  const std::string* operator()(const std::string& path) {
    if (auto it = files_.find(path); it != files_.end()) return &it->second;
    std::error_code ec;
    const std::filesystem::path p = root_ / path;
    if (!std::filesystem::is_regular_file(p, ec)) return nullptr;
    std::ifstream in(p, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof()) return nullptr;
    return &files_.emplace(path, text.str()).first->second;
  }

 private:
  std::filesystem::path root_;
  std::map<std::string, std::string> files_;
};

// config/manager/kustomization.yaml with `digest` on its controller entry, written as rrgen
// generate writes it; nullopt (with an error) when the file has no such entry.
std::optional<std::string> pinned_kustomization(const std::string* name, std::string_view text,
                                                const std::string& digest, Diagnostics& diags) {
  std::vector<Node> docs = load_yaml(name, text, diags);
  if (diags.has_errors()) return std::nullopt;
  Node* entry = nullptr;
  if (docs.size() == 1 && docs[0].is_mapping()) {
    for (std::size_t i = 0; i < docs[0].keys.size(); ++i) {
      if (docs[0].keys[i] != "images" || !docs[0].children[i].is_sequence()) continue;
      for (Node& e : docs[0].children[i].children) {
        const Node* n = e.is_mapping() ? e.find("name") : nullptr;
        if (n && n->text == "controller") entry = &e;
      }
    }
  }
  if (!entry) {
    diags.error({name}, "pin-image-no-entry",
                "no images entry named 'controller' (rrgen generate writes one; is this a tree it wrote?)");
    return std::nullopt;
  }
  Node value;
  value.plain = false;
  value.text = digest;
  bool replaced = false;
  for (std::size_t i = 0; i < entry->keys.size(); ++i) {
    if (entry->keys[i] == "digest") {
      entry->children[i] = value;
      replaced = true;
    }
  }
  if (!replaced) {
    entry->keys.push_back("digest");
    entry->key_locations.push_back({});
    entry->children.push_back(std::move(value));
  }
  return manifest_file({yaml_copy(docs[0])});
}

}  // namespace

int run_pin_image(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  if (auto code = parse_options(args, {Flag::Out, Flag::Digest, Flag::DigestFile, Flag::Quiet}, kPinImageUsage, o, out,
                                err))
    return *code;
  if (!o.out_given) return usage_error(err, "--out DIR is required");
  if (!o.digest.empty() && !o.digest_file.empty()) return usage_error(err, "give --digest or --digest-file, not both");
  if (!o.digest_file.empty()) {
    std::ifstream in(o.digest_file, std::ios::binary);
    if (!in) return usage_error(err, "--digest-file '" + o.digest_file + "' cannot be read");
    std::getline(in, o.digest);
  }
  if (o.digest.empty()) return usage_error(err, "--digest sha256:<64 hex> (or --digest-file FILE) is required");
  if (!o.operands.empty()) return usage_error(err, "unexpected argument '" + o.operands.front() + "'");
  if (!is_valid_digest(o.digest))
    return usage_error(err, "--digest '" + o.digest + "' is not a digest: sha256: and 64 lower-case hex digits");

  namespace fs = std::filesystem;
  Diagnostics diags;
  std::error_code ec;
  for (const char* required : {kManagerKustomization, kInstallYamlPath}) {
    if (!fs::is_regular_file(fs::path(o.out_dir) / required, ec))
      diags.error({intern_file_name(o.out_dir)}, "pin-image-not-generated",
                  std::string("no ") + required + " here: pin-image works on a tree rrgen generate wrote");
  }
  std::optional<std::string> kustomization, install;
  if (!diags.has_errors()) {
    DiskFiles disk(o.out_dir, {});
    SourceSet sources;
    const std::string path = (fs::path(o.out_dir) / kManagerKustomization).string();
    if (const std::string* text = disk(kManagerKustomization)) {
      const std::string* name = sources.add(path, *text);
      kustomization = pinned_kustomization(name, sources.content(name), o.digest, diags);
    } else {
      diags.error({intern_file_name(path)}, "pin-image-not-generated", "cannot read the file");
    }
  }
  if (kustomization) {
    DiskFiles pinned(o.out_dir, {{kManagerKustomization, *kustomization}});
    install = install_yaml(std::ref(pinned), diags);
  }
  std::size_t written = 0;
  if (install) {
    for (const auto& [path, content] :
         {std::pair{kManagerKustomization, *kustomization}, std::pair{kInstallYamlPath, *install}}) {
      bool changed = false;
      if (!write_file_if_changed((fs::path(o.out_dir) / path).string(), content, diags, changed)) break;
      written += changed ? 1 : 0;
    }
  }
  diags.print(err);
  if (diags.has_errors()) return 1;
  if (!o.quiet) out << "rrgen: pinned the manager image to " << o.digest << ": " << written << " file(s) written\n";
  return 0;
}

}  // namespace rrgen
