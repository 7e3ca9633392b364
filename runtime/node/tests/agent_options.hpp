// The run tests' image and agent options: the static test program when containers run in
// namespaces, the dynamic one with its libraries when they are plain processes.
#pragma once
#include <filesystem>
#include <optional>

#include "rr/node/node_agent.hpp"
#include "test_image.hpp"

namespace node_test {

// Makes <dir>/images and options over it (state in <dir>/state); nullopt when umoci failed.
inline std::optional<rr::node::NodeAgentOptions> test_agent_options(const std::filesystem::path& dir, bool namespaces) {
  if (!make_test_image(dir / "images", namespaces ? RR_NODE_TEST_PROGRAM : RR_NODE_TEST_PROGRAM_DYNAMIC, !namespaces)) {
    return std::nullopt;
  }
  rr::node::NodeAgentOptions options;
  options.namespaces = namespaces;
  options.image_dirs = {dir / "images"};
  options.state_dir = dir / "state";
  return options;
}

}  // namespace node_test
