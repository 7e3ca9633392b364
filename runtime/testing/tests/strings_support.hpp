// Lets doctest print the lists of failure messages these tests compare.
#pragma once
#include <doctest/doctest.h>

#include <string>
#include <vector>

using Strings = std::vector<std::string>;

namespace doctest {
template <>
struct StringMaker<Strings> {
  static String convert(const Strings& strings) {
    std::string out = "{";
    for (const auto& s : strings) out += "\n  [" + s + "]";
    out += strings.empty() ? "}" : "\n}";
    return String(out.c_str());
  }
};
}  // namespace doctest
