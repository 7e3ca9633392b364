#include "rr/wire_order/go_order.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "facts.hpp"
#include "go_order_facts.inc"

namespace rr::wire_order {

namespace {

using facts::kByName;
using facts::kMembers;
using facts::kRoots;
using facts::kStructs;
using facts::Shape;

constexpr std::int16_t kNone = -1;

std::int16_t root_of(std::string_view api_version, std::string_view kind) {
  const auto* end = std::end(kRoots);
  const auto* it = std::lower_bound(
      std::begin(kRoots), end, std::pair{api_version, kind},
      [](const facts::Root& root, const std::pair<std::string_view, std::string_view>& key) {
        return std::pair{root.api_version, root.kind} < key;
      });
  if (it == end || it->api_version != api_version || it->kind != kind) return kNone;
  return it->type;
}

// The position (Go order) of `name` among the struct's members, or -1.
int position_of(const facts::Struct& type, std::string_view name) {
  const std::uint16_t* begin = kByName + type.first;
  const std::uint16_t* end = begin + type.count;
  const std::uint16_t* it = std::lower_bound(begin, end, name, [&](std::uint16_t position, std::string_view key) {
    return kMembers[type.first + position].name < key;
  });
  if (it == end || kMembers[type.first + *it].name != name) return -1;
  return *it;
}

std::string_view string_member(const Json::object_t& object, const char* name) {
  auto it = object.find(name);
  if (it == object.end() || !it->second.is_string()) return {};
  return it->second.get_ref<const std::string&>();
}

// One present member of a struct, with where it goes.
struct Entry {
  std::uint32_t rank;  // Go position; undeclared members after, in the map's (alphabetical) order
  const Json::object_t::value_type* member;
  const facts::Member* fact;  // nullptr when the struct does not declare it
};

class Writer {
 public:
  explicit Writer(std::string& out)
      : out_(out), plain_(nlohmann::detail::output_adapter<char, std::string>(out), ' ') {}

  // An object written as the kind it says it is.
  void root(const Json& value) {
    if (!value.is_object()) return plain(value);
    const auto& object = value.get_ref<const Json::object_t&>();
    const std::int16_t type = root_of(string_member(object, "apiVersion"), string_member(object, "kind"));
    if (type == kNone) return plain(value);
    write_struct(object, type);
  }

  void plain(const Json& value) { plain_.dump(value, false, false, 0); }

  // An object written as the struct `type`, whatever it says it is.
  void as(const Json::object_t& object, std::int16_t type) { write_struct(object, type); }

 private:
  void write_value(const Json& value, std::int16_t child, Shape shape) {
    if (child == kNone && shape != Shape::Embedded) return plain(value);
    if (value.is_array()) {  // a list of the struct (or of embedded objects)
      out_.push_back('[');
      bool first = true;
      for (const Json& item : value) {
        if (!first) out_.push_back(',');
        first = false;
        write_value(item, child, shape);
      }
      out_.push_back(']');
      return;
    }
    if (shape == Shape::Embedded) return root(value);
    if (!value.is_object()) return plain(value);  // e.g. JSONSchemaPropsOrBool's bool
    const auto& object = value.get_ref<const Json::object_t&>();
    if (shape == Shape::Map) {
      out_.push_back('{');
      bool first = true;
      for (const auto& [key, item] : object) {
        if (!first) out_.push_back(',');
        first = false;
        write_key(key);
        write_value(item, child, Shape::Struct);
      }
      out_.push_back('}');
      return;
    }
    write_struct(object, child);
  }

  void write_struct(const Json::object_t& object, std::int16_t index) {
    const facts::Struct& type = kStructs[index];
    const std::size_t base = scratch_.size();
    std::uint32_t undeclared = type.count;
    for (const auto& member : object) {
      const int position = position_of(type, member.first);
      if (position < 0) {
        scratch_.push_back(Entry{undeclared++, &member, nullptr});
      } else {
        scratch_.push_back(Entry{static_cast<std::uint32_t>(position), &member, &kMembers[type.first + position]});
      }
    }
    // The entries of this object sit at the end of scratch_ while its members are written (their
    // own structs push above them), so the buffer is reused down the whole document.
    std::sort(scratch_.begin() + static_cast<std::ptrdiff_t>(base), scratch_.end(),
              [](const Entry& a, const Entry& b) { return a.rank < b.rank; });
    const std::size_t end = scratch_.size();
    out_.push_back('{');
    for (std::size_t i = base; i < end; ++i) {
      const Entry entry = scratch_[i];
      if (i != base) out_.push_back(',');
      if (entry.fact) {
        // A declared name (letters, digits, '$', '-') needs no escaping.
        out_.push_back('"');
        out_.append(entry.member->first);
        out_.append("\":");
        write_value(entry.member->second, entry.fact->child, entry.fact->shape);
      } else {
        write_key(entry.member->first);
        plain(entry.member->second);
      }
    }
    out_.push_back('}');
    scratch_.resize(base);
  }

  void write_key(const std::string& key) {
    plain(Json(key));
    out_.push_back(':');
  }

  std::string& out_;
  nlohmann::detail::serializer<Json> plain_;
  std::vector<Entry> scratch_;
};

}  // namespace

void dump_to(std::string& out, const Json& document) {
  Writer writer(out);
  writer.root(document);
}

std::string dump(const Json& document) {
  std::string out;
  dump_to(out, document);
  return out;
}

std::string dump_as(std::string_view definition, const Json& document) {
  const auto* end = std::end(kStructs);
  const auto* it = std::lower_bound(std::begin(kStructs), end, definition,
                                    [](const facts::Struct& type, std::string_view name) { return type.name < name; });
  if (it == end || it->name != definition || !document.is_object()) return dump(document);
  std::string out;
  Writer writer(out);
  writer.as(document.get_ref<const Json::object_t&>(), static_cast<std::int16_t>(it - std::begin(kStructs)));
  return out;
}

std::string dump_watch_event(std::string_view type, const Json& object) {
  std::string out;
  Writer writer(out);
  out.append("{\"type\":");
  writer.plain(Json(type));
  out.append(",\"object\":");
  writer.root(object);
  out.push_back('}');
  return out;
}

std::string_view struct_of(std::string_view api_version, std::string_view kind) {
  const std::int16_t type = root_of(api_version, kind);
  return type == kNone ? std::string_view() : kStructs[type].name;
}

}  // namespace rr::wire_order
