// Kubernetes' protobuf wire format: a reader and a writer of the proto2 encoding gogo-protobuf's
// generated Go code writes (ascending field numbers, non-packed repeated scalars, map entries
// sorted by key), and the `k8s\0` + runtime.Unknown envelope around a whole object.
// Malformed input (a truncated varint, a length past the end, a wrong wire type) throws
// rr::DecodeError with the byte offset; nothing reads past the input.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rr {

enum class WireType : std::uint8_t { Varint = 0, Fixed64 = 1, Bytes = 2, Fixed32 = 5 };

class PbWriter {
 public:
  explicit PbWriter(std::string& out) : out_(out) {}

  void varint(std::uint64_t v);
  void tag(int field, WireType type) {
    varint((static_cast<std::uint64_t>(field) << 3) | static_cast<std::uint64_t>(type));
  }
  // proto int32/int64 (a negative int32 is sign-extended: ten bytes), bool, double, string/bytes.
  void int32_field(int field, std::int32_t v) { int64_field(field, v); }
  void int64_field(int field, std::int64_t v) {
    tag(field, WireType::Varint);
    varint(static_cast<std::uint64_t>(v));
  }
  void bool_field(int field, bool v) {
    tag(field, WireType::Varint);
    varint(v ? 1 : 0);
  }
  void double_field(int field, double v);
  void bytes_field(int field, std::string_view v);
  // A nested message: begin_message(n), its fields, end_message(mark) (which writes the length in
  // front of them, so the writer needs no size pass).
  std::size_t begin_message(int field);
  void end_message(std::size_t mark);
  void raw(std::string_view bytes) { out_.append(bytes); }

 private:
  std::string& out_;
};

class PbReader {
 public:
  explicit PbReader(std::string_view data, std::size_t base_offset = 0) : data_(data), base_(base_offset) {}

  // The next field's tag; false at the end of the message.
  bool next();
  int field() const noexcept { return field_; }
  WireType wire_type() const noexcept { return type_; }

  // The current field's value, checked against its wire type.
  std::int32_t read_int32() { return static_cast<std::int32_t>(read_varint_field()); }
  std::int64_t read_int64() { return static_cast<std::int64_t>(read_varint_field()); }
  bool read_bool() { return read_varint_field() != 0; }
  double read_double();
  std::string_view read_bytes();
  // A nested message's reader (offsets in errors stay those of the whole input).
  PbReader read_message();
  // Skips the current field; skip_raw also returns its bytes, tag included (for unknown fields).
  void skip() { (void)skip_raw(); }
  std::string_view skip_raw();

  // Go's JSON of a protobuf-decoded object omits the empty strings Go always writes to the wire
  // (non-pointer `omitempty` members): with this set, an optional string member read as "" stays
  // unset, as if absent. Nested readers inherit it. Off for byte-exact round trips.
  void set_omit_empty_strings(bool omit) noexcept { omit_empty_strings_ = omit; }
  bool omit_empty_strings() const noexcept { return omit_empty_strings_; }

  std::size_t offset() const noexcept { return base_ + pos_; }
  bool done() const noexcept { return pos_ >= data_.size(); }
  [[noreturn]] void fail(const std::string& message) const;

 private:
  std::uint64_t varint();
  std::uint64_t read_varint_field();
  std::size_t length();
  void expect(WireType t);

  std::string_view data_;
  std::size_t base_ = 0, pos_ = 0, tag_start_ = 0;
  int field_ = 0;
  WireType type_ = WireType::Varint;
  bool omit_empty_strings_ = false;
};

// What Kubernetes sends as application/vnd.kubernetes.protobuf: "k8s\0" then a runtime.Unknown
// (typeMeta{apiVersion=1, kind=2}=1, raw=2, contentEncoding=3, contentType=4).
struct PbEnvelope {
  std::string api_version, kind;
  std::string raw;  // the object's message
  std::string content_encoding, content_type;
  bool operator==(const PbEnvelope&) const = default;
};
inline constexpr std::string_view kPbMagic{"k8s\0", 4};
PbEnvelope decode_envelope(std::string_view data);
// As Go writes it: every member, the empty strings too.
std::string encode_envelope(const PbEnvelope& e);

}  // namespace rr
