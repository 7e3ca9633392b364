// The ordering rules of apimachinery's strategicpatch (normalizeElementOrder, mergeSortedSlice):
// the patch's order wins for the items it names, the server's for the rest.
#include "strategic_merge_order.hpp"

#include <algorithm>
#include <vector>

namespace rr::strategic {
namespace {

struct Ranked {
  const Json* item;
  long rank;  // index in the list the sequence is sorted by; -1 = absent (sorted last)
};

std::vector<Ranked> ranked_by(const std::vector<const Json*>& items, const Json& by, std::string_view merge_key) {
  std::vector<Ranked> out;
  out.reserve(items.size());
  for (const Json* item : items) out.push_back({item, index_of_item(by, *item, merge_key)});
  std::stable_sort(out.begin(), out.end(), [](const Ranked& a, const Ranked& b) {
    if (a.rank < 0 || b.rank < 0) return a.rank >= 0 && b.rank < 0;
    return a.rank < b.rank;
  });
  return out;
}

}  // namespace

const Json* item_identity(const Json& item, std::string_view merge_key) {
  if (merge_key.empty()) return &item;
  if (!item.is_object()) return nullptr;
  const auto it = item.find(merge_key);
  return it == item.end() ? nullptr : &*it;
}

long index_of_item(const Json& list, const Json& item, std::string_view merge_key) {
  const Json* id = item_identity(item, merge_key);
  if (id == nullptr || !list.is_array()) return -1;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Json* other = item_identity(list[i], merge_key);
    if (other != nullptr && *other == *id) return static_cast<long>(i);
  }
  return -1;
}

Json order_items(const Json& merged, const Json& wanted, const Json& server, std::string_view merge_key) {
  std::vector<const Json*> named, server_only;
  for (const Json& item : merged) {
    (index_of_item(wanted, item, merge_key) >= 0 ? named : server_only).push_back(&item);
  }
  const std::vector<Ranked> right = ranked_by(named, wanted, merge_key);
  const std::vector<Ranked> left = ranked_by(server_only, server, merge_key);

  Json out = Json::array();
  std::size_t i = 0, j = 0;
  while (i < left.size() || j < right.size()) {
    bool take_left = j >= right.size();
    if (i < left.size() && j < right.size()) {
      const long left_at = left[i].rank;  // rank by `server` already
      const long right_at = index_of_item(server, *right[j].item, merge_key);
      take_left = left_at >= 0 && right_at >= 0 && left_at < right_at;
    }
    out.push_back(take_left ? *left[i++].item : *right[j++].item);
  }
  return out;
}

}  // namespace rr::strategic
