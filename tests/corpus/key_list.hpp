// The corpus tests' committed lists (sample_exclusions.txt, schema_rejections.txt): one
// "<key> <reason>" a line, '#' lines are comments.
#pragma once
#include <fstream>
#include <map>
#include <string>

namespace corpus {

inline std::map<std::string, std::string> read_key_list(const std::string& path) {
  std::map<std::string, std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.find(' ');
    out[line.substr(0, space)] = space == std::string::npos ? "" : line.substr(space + 1);
  }
  return out;
}

}  // namespace corpus
