// Object members the schema does not declare, kept so that decode -> encode loses nothing
// (a controller built against an older CRD must not drop a newer server's fields on update).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rr/core/fwd.hpp"

namespace rr {

class UnknownFields {
 public:
  // key -> the member's value as minified JSON text, in input order.
  using Entry = std::pair<std::string, std::string>;

  bool empty() const noexcept { return entries_.empty() && protobuf_.empty(); }
  std::size_t size() const noexcept { return entries_.size(); }
  const std::vector<Entry>& entries() const noexcept { return entries_; }
  // Replaces an existing key or appends. json_text must be valid minified JSON.
  void set(std::string key, std::string json_text);
  // Appends without looking for an existing key. The reader uses it once a bag is large, where a
  // lookup per member would make hostile input quadratic; a repeated key (only possible in input
  // that repeats a member name) is then kept twice and re-encoded as read. find() and == take the
  // last entry of a key as its value, as JSON decoders do.
  void append(std::string key, std::string json_text);
  const std::string* find(std::string_view key) const noexcept;
  bool erase(std::string_view key);  // removes every entry of the key
  void clear() noexcept { entries_.clear(), protobuf_.clear(); }
  // Protobuf fields the schema does not declare: their bytes (tags included), in input order,
  // written back after the declared ones.
  const std::string& protobuf() const noexcept { return protobuf_; }
  void append_protobuf(std::string_view field) { protobuf_.append(field); }
  // Order-insensitive: two bags are equal when they hold the same keys with the same values.
  bool operator==(const UnknownFields& other) const;

 private:
  std::vector<Entry> entries_;
  std::string protobuf_;
};

}  // namespace rr
