// `rrgen analyze --format=report` (--explain): every normalised rule of every role with what is
// behind it: the spec's derivation, the calls (file:line:col, callee, verbs) and the markers and
// rbac: entries; then the calls whose kind the analysis could not resolve.
#pragma once
#include <string>

#include "analyze/analysis.hpp"

namespace rrgen {

std::string analysis_report(const Analysis& analysis);

}  // namespace rrgen
