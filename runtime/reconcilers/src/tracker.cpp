// The TTL tracker (reconciler.io tracker/enqueue.go): exact references by name, and selector
// references by {group, kind}; every call renews the expiry, expired tracks are dropped lazily
// when observers are looked up.
//
// Observers are keyed by namespace/name only, without their kind (sharp edge Q13 kept on
// purpose): a tracker belongs to one controller (make_config creates one per Config), so every
// observer is of that controller's kind and the key is what the controller enqueues.
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <tuple>

#include "rr/core/json.hpp"
#include "rr/reconcilers/tracker.hpp"

namespace rr {

namespace {

using TimePoint = std::chrono::system_clock::time_point;
using Expiries = std::map<ObjectKey, TimePoint>;  // observer → expiry

// "apps/v1" → "apps"; "v1" → "" (the core group).
std::string api_group_of(std::string_view api_version) {
  const auto slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string() : std::string(api_version.substr(0, slash));
}

std::string string_member(const Json& object, std::string_view key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const Json& metadata_of(const Json& object) {
  static const Json empty = Json::object();
  if (!object.is_object()) return empty;
  auto it = object.find("metadata");
  return it != object.end() && it->is_object() ? *it : empty;
}

std::map<std::string, std::string> labels_of(const Json& metadata) {
  std::map<std::string, std::string> labels;
  auto it = metadata.find("labels");
  if (it == metadata.end() || !it->is_object()) return labels;
  for (const auto& [k, v] : it->items()) {
    if (v.is_string()) labels.emplace(k, v.get<std::string>());
  }
  return labels;
}

struct ExactKey {
  std::string group, kind, namespace_, name;
  auto operator<=>(const ExactKey&) const = default;
};

struct GroupKind {
  std::string group, kind;
  auto operator<=>(const GroupKind&) const = default;
};

// One selector track of one observer: {selector text, namespace} ("" namespace = any).
struct MatcherKey {
  std::string selector, namespace_;
  auto operator<=>(const MatcherKey&) const = default;
};

struct Matcher {
  Selector selector;
  TimePoint expiry;
};

using Matchers = std::map<ObjectKey, std::map<MatcherKey, Matcher>>;  // observer → its selector tracks

class TtlTracker final : public Tracker {
 public:
  TtlTracker(std::chrono::nanoseconds lease, WallClock clock) : lease_(lease), clock_(std::move(clock)) {}

  void track_reference(const TrackReference& ref, const ObjectKey& observer) override {
    if (auto error = ref.validation_error()) throw std::invalid_argument(*error);
    const TimePoint expiry = clock_() + std::chrono::duration_cast<TimePoint::duration>(lease_);
    std::lock_guard lock(mutex_);
    if (ref.selector) {
      auto& tracks = inexact_[GroupKind{ref.api_group, ref.kind}][observer];
      tracks.insert_or_assign(MatcherKey{ref.selector->str(), ref.namespace_}, Matcher{*ref.selector, expiry});
    } else {
      exact_[ExactKey{ref.api_group, ref.kind, ref.namespace_, ref.name}].insert_or_assign(observer, expiry);
    }
  }

  std::vector<ObjectKey> get_observers(const Json& object) override {
    const Json& metadata = metadata_of(object);
    const std::string group = api_group_of(string_member(object, "apiVersion"));
    const std::string kind = string_member(object, "kind");
    const std::string ns = string_member(metadata, "namespace");
    const TimePoint now = clock_();

    std::set<ObjectKey> found;
    std::lock_guard lock(mutex_);
    if (auto it = exact_.find(ExactKey{group, kind, ns, string_member(metadata, "name")}); it != exact_.end()) {
      collect_exact(it->second, now, found);
      if (it->second.empty()) exact_.erase(it);
    }
    if (auto it = inexact_.find(GroupKind{group, kind}); it != inexact_.end()) {
      collect_matching(it->second, ns, labels_of(metadata), now, found);
      if (it->second.empty()) inexact_.erase(it);
    }
    return {found.begin(), found.end()};
  }

 private:
  static void collect_exact(Expiries& observers, TimePoint now, std::set<ObjectKey>& found) {
    for (auto it = observers.begin(); it != observers.end();) {
      if (it->second < now) {
        it = observers.erase(it);
        continue;
      }
      found.insert(it->first);
      ++it;
    }
  }

  static void collect_matching(Matchers& matchers, const std::string& ns,
                               const std::map<std::string, std::string>& labels, TimePoint now,
                               std::set<ObjectKey>& found) {
    for (auto observer = matchers.begin(); observer != matchers.end();) {
      auto& tracks = observer->second;
      for (auto track = tracks.begin(); track != tracks.end();) {
        if (track->second.expiry < now) {
          track = tracks.erase(track);
          continue;
        }
        const bool in_namespace = track->first.namespace_.empty() || track->first.namespace_ == ns;
        if (in_namespace && track->second.selector.matches(labels)) found.insert(observer->first);
        ++track;
      }
      observer = tracks.empty() ? matchers.erase(observer) : std::next(observer);
    }
  }

  std::chrono::nanoseconds lease_;
  WallClock clock_;
  std::mutex mutex_;
  std::map<ExactKey, Expiries> exact_;
  std::map<GroupKind, Matchers> inexact_;
};

}  // namespace

void Tracker::track_object(const Json& object, const ObjectKey& observer) {
  const Json& metadata = metadata_of(object);
  track_reference(TrackReference{api_group_of(string_member(object, "apiVersion")), string_member(object, "kind"),
                                 string_member(metadata, "namespace"), string_member(metadata, "name"), std::nullopt},
                  observer);
}

std::shared_ptr<Tracker> make_tracker(std::chrono::nanoseconds lease, WallClock clock) {
  // Sharp edge Q15: a zero lease would expire every track at once; 20 h is a day-scale default
  // that still outlives controller-runtime's default 10 h resync.
  if (lease <= std::chrono::nanoseconds::zero()) lease = std::chrono::hours(20);
  if (!clock) clock = [] { return std::chrono::system_clock::now(); };
  return std::make_shared<TtlTracker>(lease, std::move(clock));
}

}  // namespace rr
