// `rrgen validate`: manifests checked offline as the local cluster admits them. The work is the
// runtime's (rr::manifest_check's rrgen-validate program), which the generator never links: this
// finds that program and runs it in rrgen's place, as git runs its subcommands.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace rrgen {

inline constexpr const char* validate_program = "rrgen-validate";

// Where rrgen-validate is looked for, in order: $RRGEN_EXEC_PATH, beside the running rrgen
// (`self_dir`: the build tree and an installed bin/), the install's libexec/rrgen, then each
// directory of PATH. Empty inputs add nothing.
std::vector<std::string> validate_program_candidates(const std::string& exec_path_env, const std::string& self_dir,
                                                     const std::string& path_env);

// Replaces this process with rrgen-validate and `args`; returns only when it cannot (2, after an
// error naming every place searched).
int run_validate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace rrgen
