// kubectl warns when its minor version is more than one away from the server's ("WARNING:
// version difference between client (1.32) and server (1.35) exceeds the supported minor version
// skew of +/-1"). rrgen-cluster and an operator's embedded local cluster (--local-cluster-kubeconfig)
// say so first, with the kubectl they found, so the warning is no surprise.
#pragma once
#include <optional>
#include <string>

namespace rr::apiserver_detail {

// Runs `<kubectl> version --client -o json`; a note when its minor version is more than one away
// from `server_minor`, nullopt when it is within one or kubectl cannot be run or read.
std::optional<std::string> kubectl_skew_note(const std::string& kubectl, int server_minor);

}  // namespace rr::apiserver_detail

namespace rr {

// The same against the version this local cluster reports (GET /version), for `kubectl` on PATH.
// Runs kubectl: call it for a person at a terminal only.
std::optional<std::string> kubectl_skew_note();

}  // namespace rr
