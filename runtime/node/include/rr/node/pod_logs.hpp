// The pods/log subresource's source: the node layer implements it, the API server serves it
// (GET .../pods/<name>/log) without knowing the node's types.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "rr/core/json.hpp"

namespace rr::node {

// The query parameters of pods/log (PodLogOptions).
struct PodLogOptions {
  std::string container;
  bool follow = false;
  bool previous = false;
  bool timestamps = false;
  std::optional<std::int64_t> tail_lines;
  std::optional<std::int64_t> since_seconds;
  std::optional<std::int64_t> limit_bytes;
};

class PodLogStream {
 public:
  virtual ~PodLogStream() = default;
  // Appends what is there (waiting up to `wait` for more when following); false once the log ended.
  virtual bool next(std::string& out, std::chrono::milliseconds wait) = 0;
};

class PodLogSource {
 public:
  virtual ~PodLogSource() = default;
  // The log of a pod this source runs; nullptr when it does not run it (a simulated pod: an empty
  // log). A request the kubelet refuses (no such container, no previous run) throws
  // std::invalid_argument with the kubelet's message (400 BadRequest).
  virtual std::unique_ptr<PodLogStream> open(const Json& pod, const PodLogOptions& options) = 0;
};

}  // namespace rr::node
