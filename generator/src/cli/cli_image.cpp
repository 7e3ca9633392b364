// `rrgen image`: an OCI image layout of an operator's executable, reproducible, without a daemon
// (docs/image.md). The image name comes from --image, or from the spec's `image:` (so config/ and
// the image agree).
#include "cli/cli_image.hpp"

#include <cstdlib>
#include <ostream>

#include "cli/cli_args.hpp"
#include "cli/options.hpp"
#include "image/image_build.hpp"
#include "load/spec_reader.hpp"

namespace rrgen {
namespace {

constexpr const char* kImageUsage =
    R"(usage: rrgen image --executable FILE (--image REPO:TAG | --spec reconciler.yaml) --out DIR
                   [--port PORT]... [--label KEY=VALUE]... [--user UID] [--ca-bundle FILE] [--quiet]

Writes DIR as an OCI image layout (oci-layout, index.json, blobs/sha256/) of one image with one
layer holding exactly: FILE at /manager (the entrypoint), the dynamic loader and every shared
library FILE loads (read from its ELF headers, found as ld.so finds them on this machine), a CA
bundle at /etc/ssl/certs/ca-certificates.crt, /etc/passwd and /etc/group with root and nonroot
(65532), and /tmp. No shell, nothing else. Beside the layout: `digest` (the manifest's
sha256:...), `image-ref` (REPO:TAG@sha256:...), a `Dockerfile` of the same process on
gcr.io/distroless/cc-debian12:nonroot, and `files.txt` (the layer's files, sizes, sha256).

The image is byte-reproducible: every time stamp is SOURCE_DATE_EPOCH (0 when unset), every file
is root's, entries are sorted, and the gzip header is fixed. DIR is replaced as a whole, or left
as it was on any error.

Options:
  --executable FILE  The program to run (strip its debug sections first: docs/image.md).
  --image REPO:TAG   The image's name; the tag is "latest" when absent. Overrides --spec.
  --spec FILE        Take the name from this reconciler spec's `image:` field.
  --out DIR          The layout's directory (required).
  --port PORT        An exposed port: 8443, 8443/tcp, 53/udp. Repeatable.
  --label KEY=VALUE  A label, beside org.opencontainers.image.title/version/created. Repeatable.
  --user UID         The user (and group) the process runs as (default 65532, nonroot).
  --ca-bundle FILE   The CA certificates to ship (default /etc/ssl/certs/ca-certificates.crt).
  --quiet            Do not print the summary line.

Exit status: 0 success, 1 errors (nothing is written), 2 usage error.
)";

}  // namespace

int run_image(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  if (auto code = parse_options(args,
                                {Flag::Executable, Flag::Image, Flag::Spec, Flag::Out, Flag::Port, Flag::Label,
                                 Flag::User, Flag::CaBundle, Flag::Quiet},
                                kImageUsage, o, out, err))
    return *code;
  if (!o.operands.empty()) return usage_error(err, "unexpected argument '" + o.operands.front() + "'");
  if (o.executable.empty()) return usage_error(err, "--executable FILE is required");
  if (!o.out_given) return usage_error(err, "--out DIR is required");
  if (o.image.empty() && o.spec.empty()) return usage_error(err, "--image REPO:TAG or --spec FILE is required");

  image::ImageRequest request;
  request.executable = o.executable;
  request.ports = o.ports;
  request.labels = o.labels;
  if (!o.user.empty()) request.user = o.user;
  if (!o.ca_bundle.empty()) request.ca_bundle = o.ca_bundle;
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch) {
    const std::string text = epoch;
    if (text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos)
      return usage_error(err, "SOURCE_DATE_EPOCH '" + text + "' is not a number of seconds");
    request.epoch = std::stoll(text);
  }

  Diagnostics diags;
  std::string name = o.image;
  if (name.empty()) {
    SourceSet sources;
    if (auto spec = read_spec(sources, o.spec, diags)) name = spec->image;
  }
  if (!diags.has_errors()) {
    std::string error;
    if (auto ref = image::parse_image_ref(name, error)) request.ref = *ref;
    else diags.error(o.image.empty() ? Location{intern_file_name(o.spec)} : Location{}, "image-bad-name", error);
  }
  std::optional<image::ImageResult> result;
  if (!diags.has_errors()) result = image::build_image(request, diags);
  if (result) image::replace_directory(result->files, o.out_dir, diags);
  diags.print(err);
  if (diags.has_errors()) {
    err << "rrgen: " << diags.error_count() << " error(s); nothing written\n";
    return 1;
  }
  if (!o.quiet) {
    err << "rrgen: " << request.ref.text() << "@" << result->digest << ": " << result->file_count << " file(s), layer "
        << result->layer_gz_bytes << " bytes compressed (" << result->layer_bytes << " uncompressed, executable "
        << result->executable_bytes << ") in " << o.out_dir << "\n";
  }
  return 0;
}

}  // namespace rrgen
