// Reading kubeconfig files with client-go's clientcmd rules: the context chosen by
// current-context (or an override), its cluster and user, relative file paths resolved against
// the directory of the kubeconfig that names them, and $KUBECONFIG lists merged first-wins.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "rr/rest_config/rest_config.hpp"

namespace rr {

// One kubeconfig file; it must exist.
LoadedConfig load_kubeconfig_file(const std::string& path, std::string_view context_override = {});

// Kubeconfig text; relative paths in it resolve against `base_dir` (the working directory when
// empty), and `origin` names the text in error messages.
LoadedConfig load_kubeconfig_text(std::string_view yaml, std::string_view context_override = {},
                                  const std::string& base_dir = {},
                                  std::string_view origin = "<kubeconfig text>");

// Several kubeconfigs merged as client-go merges $KUBECONFIG: files that do not exist are
// skipped, for each cluster/user/context name the first file that defines it wins, and
// current-context comes from the first file that sets it.
LoadedConfig load_kubeconfig_files(const std::vector<std::string>& paths,
                                   std::string_view context_override = {});

// $KUBECONFIG split on ':' with empty entries and repeats dropped (filepath.SplitList + dedup).
std::vector<std::string> split_kubeconfig_list(std::string_view value);

}  // namespace rr
