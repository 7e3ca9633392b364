// Faults the local cluster can inject, for clients that must survive a real API server's bad
// days: failed requests (500, 429 with Retry-After, 409 on writes), latency, watch streams cut
// short, resourceVersions reported expired (410). Seeded: the same seed and request sequence
// give the same faults.
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <vector>

namespace rr {

struct FaultOptions {
  // Share (0..1) of resource requests other than watches that fail with a code drawn from
  // fail_codes. 409 Conflict is only drawn for writes; a read draws from the other codes.
  double fail_rate = 0;
  std::vector<int> fail_codes = {500};
  int retry_after_seconds = 1;  // sent with 429 (header and details.retryAfterSeconds)
  // Added before every resource request other than a watch is served.
  std::chrono::milliseconds latency{0};
  // Watch streams: each event sent, and each idle second, ends the stream with this chance.
  double drop_watch_rate = 0;
  // Watch streams end after this many events (0: never).
  std::uint64_t drop_watch_after_events = 0;
  // Share of lists and watches that name a resourceVersion (other than "" and "0") answered 410
  // Expired: a list gets an HTTP 410, a watch an ERROR event carrying the Status.
  double expire_rate = 0;
  // Watches asking for the initial events (sendInitialEvents) are answered 422 as by a server
  // without the WatchList feature: clients must fall back to a list.
  bool refuse_watch_list = false;
  std::uint64_t seed = 1;
};

// What has been injected so far.
struct FaultCounters {
  std::map<int, std::uint64_t> failures;  // by HTTP code
  std::uint64_t delayed = 0;
  std::uint64_t watches_dropped = 0;
  std::uint64_t expired = 0;
  std::uint64_t total_failures() const {
    std::uint64_t n = 0;
    for (const auto& [code, count] : failures) n += count;
    return n;
  }
};

}  // namespace rr
