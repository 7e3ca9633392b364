// rrgen: Kubernetes CRDs and OpenAPI documents -> C++20 types. See cli.cpp.
#include <exception>
#include <iostream>

#include "cli/cli.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  try {
    return rrgen::run_cli(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
  } catch (const std::bad_alloc&) {
    std::cerr << "rrgen: error: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "rrgen: internal error: " << e.what() << "\n";
  }
  return 3;
}
