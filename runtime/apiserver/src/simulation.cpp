#include "simulation.hpp"

#include "rr/client/label_selector.hpp"
#include "rr/core/meta.hpp"
#include "rr/core/time.hpp"

namespace rr::apiserver_detail {

SimulatedKinds find_simulated_kinds(const Cluster& cluster) {
  return SimulatedKinds{.deployment = cluster.find_kind({"apps", "v1", "Deployment"}),
                        .replica_set = cluster.find_kind({"apps", "v1", "ReplicaSet"}),
                        .stateful_set = cluster.find_kind({"apps", "v1", "StatefulSet"}),
                        .job = cluster.find_kind({"batch", "v1", "Job"}),
                        .pod = cluster.find_kind({"", "v1", "Pod"}),
                        .claim = cluster.find_kind({"", "v1", "PersistentVolumeClaim"})};
}

Simulation::Simulation(Cluster& cluster, const SimulatedKinds& kinds, std::atomic<long long>& writes,
                       const std::function<bool(const Json&)>& runs_on_node)
    : cluster_(cluster),
      kinds_(kinds),
      writes_(writes),
      runs_on_node_(runs_on_node),
      now_(Time::from(cluster.now()).str()) {}

void Simulation::made_for(const KindInfo& kind, const Json& owner) {
  owner_kind_ = kind;
  owner_ = owner;
}

Json Simulation::create(const KindInfo& kind, const Json& object) {
  Json created = cluster_.create(kind, object);
  ++writes_;
  if (!owner_kind_) return created;
  bool owner_there = false;
  try {
    owner_there = string_at(cluster_.get(*owner_kind_, key_of(owner_)), "/metadata/uid"_json_pointer) ==
                  string_at(owner_, "/metadata/uid"_json_pointer);
  } catch (const ApiError& e) {
    if (!is_not_found(e.status())) throw;
  }
  if (owner_there) return created;
  try {
    cluster_.remove(kind, key_of(created));
    ++writes_;
  } catch (const ApiError&) {
    // Already gone (the collector or a user): nothing is left over either way.
  }
  throw OwnerGone();
}

Json Simulation::update(const KindInfo& kind, const Json& object) {
  Json updated = cluster_.update(kind, object);
  ++writes_;
  return updated;
}

Json Simulation::update_status(const KindInfo& kind, const Json& object) {
  Json updated = kind.has_status ? cluster_.update_status(kind, object) : cluster_.update(kind, object);
  ++writes_;
  return updated;
}

void Simulation::remove(const KindInfo& kind, const ObjectKey& key) {
  cluster_.remove(kind, key);
  ++writes_;
}

std::int64_t int_at(const Json& object, const Json::json_pointer& at, std::int64_t fallback) {
  return object.contains(at) && object.at(at).is_number_integer() ? object.at(at).get<std::int64_t>() : fallback;
}

std::string string_at(const Json& object, const Json::json_pointer& at, std::string fallback) {
  return object.contains(at) && object.at(at).is_string() ? object.at(at).get<std::string>() : fallback;
}

bool is_terminating(const Json& object) {
  return object.contains("/metadata/deletionTimestamp"_json_pointer) &&
         !object.at("/metadata/deletionTimestamp"_json_pointer).is_null();
}

Json controller_ref(const Json& owner) {
  return Json{{"apiVersion", owner.value("apiVersion", "")},
              {"kind", owner.value("kind", "")},
              {"name", string_at(owner, "/metadata/name"_json_pointer)},
              {"uid", string_at(owner, "/metadata/uid"_json_pointer)},
              {"controller", true},
              {"blockOwnerDeletion", true}};
}

bool controlled_by(const Json& object, const Json& owner) {
  const std::string uid = string_at(owner, "/metadata/uid"_json_pointer);
  const Json refs = object.contains("/metadata/ownerReferences"_json_pointer)
                        ? object.at("/metadata/ownerReferences"_json_pointer)
                        : Json::array();
  if (!refs.is_array()) return false;
  for (const Json& ref : refs) {
    if (ref.is_object() && ref.value("controller", false) && ref.value("uid", "") == uid) return true;
  }
  return false;
}

std::string selector_text(const Json& selector) {
  if (!selector.is_object()) return {};
  return Selector::from(selector.get<LabelSelector>()).str();
}

std::uint64_t stable_hash(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

std::string safe_suffix(std::uint64_t hash, std::size_t length) {
  static constexpr std::string_view alphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string out;
  for (std::size_t i = 0; i < length; ++i) {
    out += alphabet[hash % alphabet.size()];
    hash /= alphabet.size();
    if (hash == 0) hash = stable_hash(out);  // 64 bits hold 13 characters; longer suffixes rehash
  }
  return out;
}

}  // namespace rr::apiserver_detail
