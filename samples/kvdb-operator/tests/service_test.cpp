// Step Service (child Service) on its own: the headless Service that gives each pod its DNS name.
// The API server owns part of a Service's spec (clusterIPs, ipFamilies ...), so service_merge
// copies only the selector, the ports and publishNotReadyAddresses.
// docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include <string>

#include "fixtures.hpp"
#include "rr/testing/registration.hpp"

namespace {

using kvdb::KeyValueStore;
using kvdb_test::condition;
using kvdb_test::conditions;
using kvdb_test::service;
using kvdb_test::ServiceDie;
using rr::testing::new_event;
using Case = rr::testing::SubReconcilerTestCase<KeyValueStore>;

}  // namespace

RR_SUB_RECONCILER_TESTS("KeyValueStoreServiceReconciler", KeyValueStore, [](const Case&, const rr::Config&) {
  return kvdb::KeyValueStoreServiceReconciler(kvdb_test::hooks());
}) {
  // As the root reconciler hands it to its steps: conditions initialised.
  const auto store = kvdb_test::store().conditions(conditions({}));
  const auto exposed = conditions({.service = condition("ServiceReady", "True", "Exposed")});
  // What the API server filled in when it created the headless Service.
  const auto allocated = [](ServiceDie s) {
    return s.uid("service-uid")
        .spec_cluster_i_ps({"None"})
        .spec_type("ClusterIP")
        .spec_session_affinity("None")
        .spec_ip_families({"IPv4"})
        .spec_ip_family_policy("SingleStack");
  };
  const std::string not_owned = R"(There is an existing Service "test-kvdb" that the KeyValueStore does not own.)";

  return rr::testing::SubReconcilerTests<KeyValueStore>{
      {"creates the headless Service: clusterIP None, port 6379, not-ready pods published",
       {
           .resource = store,
           .expect_resource = store.status_service_name("test-kvdb").conditions(exposed),
           .expect_events = {new_event(store.get(), rr::event_normal, "Created", R"(Created Service "test-kvdb")")},
           .expect_creates = {service().get()},
       }},
      {"the Service is as desired: nothing written",
       {
           .resource = store,
           .given_objects = {allocated(service()).get()},
           .expect_resource = store.status_service_name("test-kvdb").conditions(exposed),
       }},
      // A merge that replaced the whole spec would drop what the server set, and be refused.
      {"the store's port changed: the ports are updated, what the server set is kept",
       {
           .resource = store.spec_port(7000),
           .given_objects = {allocated(service(6379)).get()},
           .expect_resource = store.spec_port(7000).status_service_name("test-kvdb").conditions(exposed),
           .expect_events = {new_event(store.get(), rr::event_normal, "Updated", R"(Updated Service "test-kvdb")")},
           .expect_updates = {allocated(service(7000)).get()},
       }},
      {"a Service of that name that the store does not own: ServiceReady False NotOwned",
       {
           .resource = store,
           .given_objects = {service().owner_references({}).get()},
           .expect_resource = store.conditions(conditions({
               .ready = condition("Ready", "False", "NotOwned", not_owned),
               .service = condition("ServiceReady", "False", "NotOwned", not_owned),
           })),
           .expect_tracks = {rr::testing::create_track_request("", "Service", kvdb_test::test_namespace, "test-kvdb")
                                 .by(kvdb_test::test_namespace, kvdb_test::store_name)},
           .expect_events = {new_event(store.get(), rr::event_warning, "CreationFailed",
                                       R"(Failed to create Service "test-kvdb": services "test-kvdb" already exists)")},
           .expect_creates = {service().get()},
       }},
  };
}
