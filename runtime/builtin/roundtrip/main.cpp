// rrgen-roundtrip: Kubernetes' own fixtures through rr::builtin's types (roundtrip.hpp).
//   rrgen-roundtrip [--verbose] DIR
// Prints each failure (and with --verbose every fixture), then
//   roundtrip: N passed, M failed, K skipped[, P not checked]
// Exit status: 0 when nothing failed, 1 when something did, 2 on a usage error or unreadable DIR.
#include <iostream>
#include <string>
#include <vector>

#include "roundtrip.hpp"

// Declared by rr_builtin_types.hpp, which also includes every type's header: this file needs only
// the table, and a mismatch would not link.
std::span<const rr::KindCodec> rr_builtin_types_kinds() noexcept;

namespace {

const char* label(rr::roundtrip::Outcome o) {
  switch (o) {
    case rr::roundtrip::Outcome::Passed: return "passed";
    case rr::roundtrip::Outcome::Failed: return "FAILED";
    case rr::roundtrip::Outcome::Skipped: return "skipped";
    case rr::roundtrip::Outcome::NotChecked: return "not checked";
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  rr::roundtrip::FixtureArgs args;
  if (const auto status = rr::roundtrip::parse_fixture_args(
          argc, argv, "rrgen-roundtrip",
          "usage: rrgen-roundtrip [--verbose] DIR\n\n"
          "Decodes and re-encodes every fixture of DIR (<group>.<version>.<Kind>.json/.yaml/.pb, the\n"
          "layout of k8s.io/api's testdata) with the runtime's built-in kinds, and prints\n"
          "'roundtrip: N passed, M failed, K skipped'. Skipped: kinds this API does not serve.\n"
          "Where <stem>.after_roundtrip.<ext> exists, that form must re-encode as it instead.\n",
          args))
    return *status;
  const bool verbose = args.verbose;
  rr::roundtrip::Report report;
  try {
    report = rr::roundtrip::check_fixtures(args.dir, rr_builtin_types_kinds());
  } catch (const std::exception& e) {
    std::cerr << "rrgen-roundtrip: " << e.what() << "\n";
    return 2;
  }
  for (const auto& r : report.results) {
    if (!verbose && r.outcome != rr::roundtrip::Outcome::Failed) continue;
    std::cout << label(r.outcome) << ": " << r.file << (r.detail.empty() ? "" : ": " + r.detail) << "\n";
  }
  std::cout << "roundtrip: " << report.passed << " passed, " << report.failed << " failed, " << report.skipped
            << " skipped";
  if (report.not_checked) std::cout << ", " << report.not_checked << " not checked (kinds without a protobuf codec)";
  std::cout << "\n";
  return report.failed ? 1 : 0;
}
