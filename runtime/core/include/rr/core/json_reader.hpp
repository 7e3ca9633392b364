// A pull parser over JSON text. Generated decoders drive it directly, so typed decoding never
// builds a DOM (it is faster than nlohmann's DOM parse of the same bytes). The reader tracks the
// path to the current value itself, so every DecodeError carries a JSON pointer without any help
// from generated code.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/fwd.hpp"

namespace rr {

class UnknownFields;

enum class JsonKind { Object, Array, String, Number, Bool, Null };

class JsonReader {
 public:
  // Nesting deeper than max_depth is a DecodeError (no stack overflow on hostile input).
  explicit JsonReader(std::string_view text, std::size_t max_depth = 512);

  // Kind of the next value (skips whitespace); DecodeError at end of input or on a bad byte.
  JsonKind peek();

  // Objects: begin_object(); while (next_key()) { key(); read the value }  -- next_key() returns
  // false after consuming '}'. Every value must be read or skipped before the next next_key().
  void begin_object();
  bool next_key();
  std::string_view key() const noexcept;  // valid until the next next_key() at this depth

  // Arrays: begin_array(); while (next_item()) { read the value } -- false after consuming ']'.
  void begin_array();
  bool next_item();

  // Consumes a null and returns true, or returns false leaving the next value in place.
  bool try_null();

  // Scalars. A type mismatch or out-of-range number is a DecodeError at the current path.
  void read(std::string& out);
  void read(bool& out);
  void read(std::int32_t& out);
  void read(std::int64_t& out);
  void read(double& out);
  // The exact text of the next number token (for lossless Quantity numbers).
  std::string read_number_text();
  // Any value into a DOM.
  void read(Json& out);

  // Skips the next value. With `out`, appends it as minified JSON text.
  void skip();
  void skip(std::string& out);
  // Stores the value under key() into `fields` (used for members the schema does not declare).
  void capture_unknown(UnknownFields& fields);

  // Requires that only whitespace remains.
  void finish();

  // Throws DecodeError at the current path ("/spec/ports/2/port") and byte offset.
  [[noreturn]] void fail(std::string_view message) const;
  // For a required member missing from the object just finished: path is the object's path + key.
  [[noreturn]] void fail_missing(std::string_view key) const;
  std::string pointer() const;

 private:
  // One open object or array. Kept small; the vector only grows (levels are reused), so steady-state
  // decoding allocates nothing here.
  struct Level {
    std::string_view key;  // into the input, or into `owned` for keys with escapes
    std::string owned;     // decoded key with escapes; reserved past SSO so moves keep `key` valid
    std::size_t index = 0;
    bool is_object = false;
    bool first = true;     // no member/item seen yet
  };
  enum class Scan { Plain, Escaped };

  void skip_ws() noexcept;
  char next_significant();
  void expect(char c);
  void push(bool is_object);
  Scan scan_string(std::size_t& end);  // validates the string token at pos_, sets end past the quote
  void parse_string_into(std::string& out);
  std::string_view number_token();
  void scan_value(std::string* out);
  void read_dom(Json& out);
  [[noreturn]] void mismatch(std::string_view expected) const;
  [[noreturn]] void fail_at(std::size_t offset, std::string_view message) const;

  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t max_depth_;
  std::size_t depth_ = 0;     // open containers; stack_[0, depth_) are live
  std::vector<Level> stack_;
};

}  // namespace rr
