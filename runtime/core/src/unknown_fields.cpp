#include "rr/core/unknown_fields.hpp"

#include <algorithm>

namespace rr {

void UnknownFields::set(std::string key, std::string json_text) {
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
    if (it->first == key) {
      it->second = std::move(json_text);
      return;
    }
  }
  entries_.emplace_back(std::move(key), std::move(json_text));
}

void UnknownFields::append(std::string key, std::string json_text) {
  entries_.emplace_back(std::move(key), std::move(json_text));
}

const std::string* UnknownFields::find(std::string_view key) const noexcept {
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
    if (it->first == key) return &it->second;
  return nullptr;
}

bool UnknownFields::erase(std::string_view key) {
  const auto it = std::remove_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.first == key; });
  if (it == entries_.end()) return false;
  entries_.erase(it, entries_.end());
  return true;
}

namespace {
// The bag as a key-sorted list with one (the last) entry per key.
std::vector<const UnknownFields::Entry*> normalised(const std::vector<UnknownFields::Entry>& entries) {
  std::vector<const UnknownFields::Entry*> v;
  v.reserve(entries.size());
  for (const auto& e : entries) v.push_back(&e);
  std::stable_sort(v.begin(), v.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
  std::vector<const UnknownFields::Entry*> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    if (i + 1 == v.size() || v[i + 1]->first != v[i]->first) out.push_back(v[i]);  // last of a run
  return out;
}
}  // namespace

bool UnknownFields::operator==(const UnknownFields& other) const {
  if (protobuf_ != other.protobuf_) return false;
  // Small bags are built by set() and have unique keys: same size + every entry found is equality.
  if (entries_.size() <= 16 && other.entries_.size() <= 16) {
    if (entries_.size() != other.entries_.size()) return false;
    for (const auto& e : entries_) {
      const std::string* v = other.find(e.first);
      if (v == nullptr || *v != e.second) return false;
    }
    return true;
  }
  const auto a = normalised(entries_);
  const auto b = normalised(other.entries_);
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (*a[i] != *b[i]) return false;
  return true;
}

}  // namespace rr
