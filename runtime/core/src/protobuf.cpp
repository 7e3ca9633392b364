#include "rr/core/protobuf.hpp"

#include <bit>
#include <cstring>

#include "rr/core/errors.hpp"

namespace rr {

void PbWriter::varint(std::uint64_t v) {
  char buf[10];
  std::size_t n = 0;
  do {
    buf[n++] = static_cast<char>((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v != 0);
  out_.append(buf, n);
}

void PbWriter::double_field(int field, double v) {
  tag(field, WireType::Fixed64);
  auto bits = std::bit_cast<std::uint64_t>(v);
  char buf[8];
  for (char& c : buf) c = static_cast<char>(bits & 0xff), bits >>= 8;  // little-endian
  out_.append(buf, 8);
}

void PbWriter::bytes_field(int field, std::string_view v) {
  tag(field, WireType::Bytes);
  varint(v.size());
  out_.append(v);
}

// One byte is reserved for the length, which fits it for messages under 128 bytes (most); a
// longer one moves the message up by the extra bytes.
std::size_t PbWriter::begin_message(int field) {
  tag(field, WireType::Bytes);
  out_.push_back('\0');
  return out_.size();
}

void PbWriter::end_message(std::size_t mark) {
  const std::size_t size = out_.size() - mark;
  if (size < 0x80) {
    out_[mark - 1] = static_cast<char>(size);
    return;
  }
  std::string len;
  PbWriter(len).varint(size);
  out_.insert(mark, len.size() - 1, '\0');
  std::memcpy(out_.data() + mark - 1, len.data(), len.size());
}

void PbReader::fail(const std::string& message) const { throw DecodeError("", offset(), "protobuf: " + message); }

std::uint64_t PbReader::varint() {
  std::uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= data_.size()) fail("truncated varint");
    const auto b = static_cast<std::uint8_t>(data_[pos_++]);
    v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  fail("varint longer than ten bytes");
}

bool PbReader::next() {
  if (pos_ >= data_.size()) return false;
  tag_start_ = pos_;
  const std::uint64_t tag = varint();
  const std::uint64_t field = tag >> 3;
  const auto type = static_cast<std::uint8_t>(tag & 7);
  if (field == 0 || field > 536870911) fail("bad field number " + std::to_string(field));
  if (type != 0 && type != 1 && type != 2 && type != 5) fail("unsupported wire type " + std::to_string(type));
  field_ = static_cast<int>(field);
  type_ = static_cast<WireType>(type);
  return true;
}

void PbReader::expect(WireType t) {
  if (type_ != t)
    fail("field " + std::to_string(field_) + " has wire type " + std::to_string(static_cast<int>(type_)) +
         ", expected " + std::to_string(static_cast<int>(t)));
}

std::uint64_t PbReader::read_varint_field() {
  expect(WireType::Varint);
  return varint();
}

double PbReader::read_double() {
  expect(WireType::Fixed64);
  if (data_.size() - pos_ < 8) fail("truncated fixed64");
  std::uint64_t bits = 0;
  for (int i = 7; i >= 0; --i) bits = (bits << 8) | static_cast<std::uint8_t>(data_[pos_ + i]);
  pos_ += 8;
  return std::bit_cast<double>(bits);
}

// The length of a length-delimited field, checked against what is left.
std::size_t PbReader::length() {
  expect(WireType::Bytes);
  const std::uint64_t size = varint();
  if (size > data_.size() - pos_) fail("length " + std::to_string(size) + " past the end of the input");
  return static_cast<std::size_t>(size);
}

std::string_view PbReader::read_bytes() {
  const std::size_t size = length();
  const std::string_view out = data_.substr(pos_, size);
  pos_ += size;
  return out;
}

PbReader PbReader::read_message() {
  const std::size_t size = length();
  PbReader out(data_.substr(pos_, size), base_ + pos_);
  out.omit_empty_strings_ = omit_empty_strings_;
  pos_ += size;
  return out;
}

std::string_view PbReader::skip_raw() {
  switch (type_) {
    case WireType::Varint: (void)varint(); break;
    case WireType::Bytes: pos_ += length(); break;
    case WireType::Fixed64:
    case WireType::Fixed32: {
      const std::size_t n = type_ == WireType::Fixed64 ? 8 : 4;
      if (data_.size() - pos_ < n) fail("truncated fixed-size field");
      pos_ += n;
      break;
    }
  }
  return data_.substr(tag_start_, pos_ - tag_start_);
}

PbEnvelope decode_envelope(std::string_view data) {
  if (!data.starts_with(kPbMagic)) throw DecodeError("", 0, "protobuf: no k8s\\0 envelope magic");
  PbEnvelope e;
  PbReader r(data.substr(kPbMagic.size()), kPbMagic.size());
  while (r.next()) {
    switch (r.field()) {
      case 1: {
        PbReader t = r.read_message();
        while (t.next()) {
          if (t.field() == 1) e.api_version = t.read_bytes();
          else if (t.field() == 2) e.kind = t.read_bytes();
          else t.skip();
        }
        break;
      }
      case 2: e.raw = r.read_bytes(); break;
      case 3: e.content_encoding = r.read_bytes(); break;
      case 4: e.content_type = r.read_bytes(); break;
      default: r.skip();
    }
  }
  return e;
}

std::string encode_envelope(const PbEnvelope& e) {
  std::string out(kPbMagic);
  out.reserve(e.raw.size() + e.api_version.size() + e.kind.size() + 32);
  PbWriter w(out);
  const std::size_t type_meta = w.begin_message(1);
  w.bytes_field(1, e.api_version);
  w.bytes_field(2, e.kind);
  w.end_message(type_meta);
  w.bytes_field(2, e.raw);
  w.bytes_field(3, e.content_encoding);
  w.bytes_field(4, e.content_type);
  return out;
}

}  // namespace rr
