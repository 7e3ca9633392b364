#include "rr/testing/detail/table.hpp"

namespace rr::testing::detail {

std::string focus_message(std::size_t focused, std::size_t total) {
  return std::to_string(focused) + " tests out of " + std::to_string(total) +
         " are still focused, so the test suite fails";
}

}  // namespace rr::testing::detail
