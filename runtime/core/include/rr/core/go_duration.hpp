// Durations written as Go writes them (time.ParseDuration / Duration.String): "15s", "1m30s",
// "500ms", "1.5h", "-2s", "0": the manager's flags (as controller-runtime's) and cert-manager's
// Certificate durations (rr::cert_manager) take them.
#pragma once
#include <chrono>
#include <string>
#include <string_view>

namespace rr {

// Units ns, us, µs, μs, ms, s, m, h; an optional sign; a bare "0". Throws std::invalid_argument
// with Go's messages: `time: invalid duration "x"`, `time: missing unit in duration "1"`,
// `time: unknown unit "d" in duration "1d"`.
std::chrono::nanoseconds parse_go_duration(std::string_view text);

// Go's Duration.String(): "0s", "500ms", "1.5s", "1m30s", "1h0m0s".
std::string format_go_duration(std::chrono::nanoseconds d);

}  // namespace rr
