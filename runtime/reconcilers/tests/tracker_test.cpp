#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rr/core/json.hpp"
#include "rr/reconcilers/tracker.hpp"

using namespace std::chrono_literals;

namespace {

// A clock the test moves by hand.
struct ManualClock {
  std::shared_ptr<std::chrono::system_clock::time_point> now =
      std::make_shared<std::chrono::system_clock::time_point>(std::chrono::system_clock::time_point{} + 1'700'000'000s);
  rr::WallClock clock() const {
    return [now = now] { return *now; };
  }
  void advance(std::chrono::nanoseconds d) const { *now += std::chrono::duration_cast<std::chrono::system_clock::duration>(d); }
};

rr::Json object(std::string api_version, std::string kind, std::string ns, std::string name,
                std::map<std::string, std::string> labels = {}) {
  rr::Json metadata = {{"name", name}};
  if (!ns.empty()) metadata["namespace"] = ns;
  if (!labels.empty()) metadata["labels"] = labels;
  return {{"apiVersion", api_version}, {"kind", kind}, {"metadata", metadata}};
}

std::vector<rr::ObjectKey> sorted(std::vector<rr::ObjectKey> keys) {
  std::sort(keys.begin(), keys.end());
  return keys;
}

rr::TrackReference by_name(std::string group, std::string kind, std::string ns, std::string name) {
  return {std::move(group), std::move(kind), std::move(ns), std::move(name), std::nullopt};
}

rr::TrackReference by_selector(std::string group, std::string kind, std::string ns, rr::Selector selector) {
  return {std::move(group), std::move(kind), std::move(ns), {}, std::move(selector)};
}

rr::Selector app(const std::string& value) { return rr::Selector::from_labels({{"app", value}}); }

const rr::ObjectKey observer_a{"ns", "a"};
const rr::ObjectKey observer_b{"ns", "b"};

}  // namespace

TEST_CASE("TrackReference: validation") {
  CHECK_FALSE(by_name("", "ConfigMap", "ns", "x").validation_error().has_value());
  CHECK_FALSE(by_name("apps", "Deployment", "", "x").validation_error().has_value());
  CHECK_FALSE(by_selector("testing.rrgen.dev", "TestChild", "", rr::Selector{}).validation_error().has_value());

  SUBCASE("name or selector, not both, not neither") {
    CHECK(by_name("", "ConfigMap", "ns", "").validation_error() ==
          "invalid Reference:\nName or Selector: one of them must be set");
    rr::TrackReference both = by_selector("", "ConfigMap", "ns", rr::Selector{});
    both.name = "x";
    CHECK(both.validation_error() == "invalid Reference:\nName and Selector: only one of them may be set");
  }
  SUBCASE("errors are sorted, one per line") {
    const auto error = by_name("Example.COM", "Not-A-Kind", "Bad_NS", "x").validation_error();
    REQUIRE(error.has_value());
    CHECK(error->rfind("invalid Reference:\nAPIGroup: a lowercase RFC 1123 subdomain must consist of", 0) == 0);
    const auto kind_at = error->find("\nKind: a valid C identifier must start with alphabetic character");
    const auto ns_at = error->find("\nNamespace: a lowercase RFC 1123 label must consist of");
    CHECK(kind_at != std::string::npos);
    CHECK(ns_at != std::string::npos);
    CHECK(kind_at < ns_at);
  }
  SUBCASE("lengths") {
    const auto long_ns = by_name("", "ConfigMap", std::string(64, 'a'), "x").validation_error();
    REQUIRE(long_ns.has_value());
    CHECK(long_ns->find("Namespace: must be no more than 63 characters") != std::string::npos);
    CHECK_FALSE(by_name("", "ConfigMap", std::string(63, 'a'), "x").validation_error().has_value());
    CHECK(by_name("", "", "", "x").validation_error()->find("Kind: a valid C identifier") != std::string::npos);
  }
}

TEST_CASE("Tracker: invalid references throw") {
  auto tracker = rr::make_tracker(1h);
  CHECK_THROWS_AS(tracker->track_reference(by_name("", "ConfigMap", "ns", ""), observer_a), std::invalid_argument);
}

TEST_CASE("Tracker: exact references") {
  ManualClock clock;
  auto tracker = rr::make_tracker(1h, clock.clock());
  tracker->track_reference(by_name("", "ConfigMap", "ns", "config"), observer_a);
  tracker->track_reference(by_name("", "ConfigMap", "ns", "config"), observer_b);
  tracker->track_reference(by_name("apps", "Deployment", "ns", "config"), observer_b);

  CHECK(sorted(tracker->get_observers(object("v1", "ConfigMap", "ns", "config"))) ==
        std::vector<rr::ObjectKey>{observer_a, observer_b});
  // The version is not part of the reference; the group is.
  CHECK(tracker->get_observers(object("apps/v1beta1", "Deployment", "ns", "config")) ==
        std::vector<rr::ObjectKey>{observer_b});
  CHECK(tracker->get_observers(object("extensions/v1", "Deployment", "ns", "config")).empty());
  CHECK(tracker->get_observers(object("v1", "ConfigMap", "other", "config")).empty());
  CHECK(tracker->get_observers(object("v1", "ConfigMap", "ns", "other")).empty());
  CHECK(tracker->get_observers(object("v1", "Secret", "ns", "config")).empty());
}

TEST_CASE("Tracker: selector references") {
  ManualClock clock;
  auto tracker = rr::make_tracker(1h, clock.clock());
  tracker->track_reference(by_selector("", "ConfigMap", "ns", app("web")), observer_a);
  tracker->track_reference(by_selector("", "ConfigMap", "", app("web")), observer_b);  // any namespace

  CHECK(sorted(tracker->get_observers(object("v1", "ConfigMap", "ns", "x", {{"app", "web"}, {"tier", "1"}}))) ==
        std::vector<rr::ObjectKey>{observer_a, observer_b});
  CHECK(tracker->get_observers(object("v1", "ConfigMap", "elsewhere", "x", {{"app", "web"}})) ==
        std::vector<rr::ObjectKey>{observer_b});
  CHECK(tracker->get_observers(object("v1", "ConfigMap", "ns", "x", {{"app", "db"}})).empty());
  CHECK(tracker->get_observers(object("v1", "ConfigMap", "ns", "x")).empty());

  // The empty selector matches everything of the kind.
  tracker->track_reference(by_selector("", "Secret", "", rr::Selector{}), observer_a);
  CHECK(tracker->get_observers(object("v1", "Secret", "any", "s")) == std::vector<rr::ObjectKey>{observer_a});

  // An observer matched by two of its selectors is reported once, as are exact+selector matches.
  tracker->track_reference(by_selector("", "ConfigMap", "ns", rr::Selector{}), observer_a);
  tracker->track_reference(by_name("", "ConfigMap", "ns", "x"), observer_a);
  CHECK(sorted(tracker->get_observers(object("v1", "ConfigMap", "ns", "x", {{"app", "web"}}))) ==
        std::vector<rr::ObjectKey>{observer_a, observer_b});
}

TEST_CASE("Tracker: tracks expire after the lease and every call renews them") {
  ManualClock clock;
  auto tracker = rr::make_tracker(1h, clock.clock());
  const rr::Json config = object("v1", "ConfigMap", "ns", "config", {{"app", "web"}});
  tracker->track_reference(by_name("", "ConfigMap", "ns", "config"), observer_a);
  tracker->track_reference(by_selector("", "ConfigMap", "", app("web")), observer_b);

  clock.advance(59min);
  tracker->track_reference(by_name("", "ConfigMap", "ns", "config"), observer_a);  // now expires at 1h59
  clock.advance(1h);
  // At 1h59: observer_b's track expired at 1h; observer_a's is exactly at its expiry, still alive.
  CHECK(tracker->get_observers(config) == std::vector<rr::ObjectKey>{observer_a});
  clock.advance(1s);
  CHECK(tracker->get_observers(config).empty());

  // Expired entries are gone for good; a new track starts over.
  tracker->track_reference(by_selector("", "ConfigMap", "", app("web")), observer_b);
  CHECK(tracker->get_observers(config) == std::vector<rr::ObjectKey>{observer_b});
}

TEST_CASE("Tracker: a zero lease means 20 hours (sharp edge Q15)") {
  ManualClock clock;
  auto tracker = rr::make_tracker(0ns, clock.clock());
  const rr::Json config = object("v1", "ConfigMap", "ns", "config");
  tracker->track_reference(by_name("", "ConfigMap", "ns", "config"), observer_a);
  clock.advance(20h);
  CHECK(tracker->get_observers(config) == std::vector<rr::ObjectKey>{observer_a});
  clock.advance(1s);
  CHECK(tracker->get_observers(config).empty());
}

TEST_CASE("Tracker: track_object from JSON takes group, kind, namespace and name") {
  auto tracker = rr::make_tracker(1h);
  tracker->track_object(object("apps/v1", "Deployment", "ns", "web"), observer_a);
  CHECK(tracker->get_observers(object("apps/v1", "Deployment", "ns", "web")) == std::vector<rr::ObjectKey>{observer_a});
  CHECK(tracker->get_observers(object("v1", "Deployment", "ns", "web")).empty());
  // Cluster-scoped observers and tracked objects.
  tracker->track_object(object("v1", "Namespace", "", "team"), rr::ObjectKey{"", "cluster-owner"});
  CHECK(tracker->get_observers(object("v1", "Namespace", "", "team")) ==
        std::vector<rr::ObjectKey>{rr::ObjectKey{"", "cluster-owner"}});
}
