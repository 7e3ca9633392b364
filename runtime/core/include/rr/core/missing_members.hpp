// rr::MissingMembers<N>: which of a generated struct's N required members its JSON lacked.
//
// An object stored before its CRD gained a required field, or one a mutating webhook has not
// completed yet, must stay readable. Decoding leaves such a member at its default value and sets
// its bit; the member counts as absent while the bit is set and the value still equals that
// default. Encoding then leaves it out (the round trip stays lossless) and validate() reports
// "Required value"; assigning a value makes it present again. Assigning the default itself cannot
// be told from never assigning: clear() marks every member present.
//
// Light on purpose: generated headers include it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace rr {

template <std::size_t N>
class MissingMembers {
  static_assert(N > 0, "only structs with required members hold a record");

 public:
  bool test(std::size_t i) const noexcept { return ((words_[i / 64] >> (i % 64)) & 1u) != 0; }
  void set(std::size_t i) noexcept { words_[i / 64] |= std::uint64_t{1} << (i % 64); }
  bool any() const noexcept {
    for (const std::uint64_t w : words_)
      if (w != 0) return true;
    return false;
  }
  // Decoding found member i missing: back to its default (T{}, so a schemaless member is null,
  // which `= {}` would not give) and recorded.
  template <class T>
  void mark(std::size_t i, T& value) {
    value = T{};
    set(i);
  }
  void clear() noexcept {
    for (std::uint64_t& w : words_) w = 0;
  }

  // Member i (holding `value`) is absent: decoded missing and not assigned since.
  template <class T>
  bool absent(std::size_t i, const T& value) const {
    return test(i) && value == T{};
  }
  // For two equal values of member i: whether both are absent or both present. Only the bits of
  // a member still at its default matter, so operator== agrees with the JSON both objects write.
  template <class T>
  bool same_presence(const MissingMembers& other, std::size_t i, const T& value) const {
    return test(i) == other.test(i) || !(value == T{});
  }

 private:
  std::uint64_t words_[(N + 63) / 64] = {};
};

}  // namespace rr
