// Step Secret (child Secret) on its own: the password is generated once and kept. Every desired
// Secret carries a fresh password (the hooks here make it "fresh-password"); secret_merge keeps
// the one stored, so an existing Secret equals what was read and nothing is written.
// docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include <string>

#include "fixtures.hpp"
#include "rr/core/json.hpp"
#include "rr/testing/registration.hpp"

namespace {

using kvdb::KeyValueStore;
using kvdb_test::condition;
using kvdb_test::conditions;
using kvdb_test::fresh_password;
using kvdb_test::secret;
using kvdb_test::secret_name;
using kvdb_test::stored_password;
using rr::testing::new_event;
using Case = rr::testing::SubReconcilerTestCase<KeyValueStore>;

}  // namespace

RR_SUB_RECONCILER_TESTS("KeyValueStoreSecretReconciler", KeyValueStore, [](const Case&, const rr::Config&) {
  return kvdb::KeyValueStoreSecretReconciler(kvdb_test::hooks());
}) {
  // As the root reconciler hands it to its steps: conditions initialised.
  const auto store = kvdb_test::store().conditions(conditions({}));
  const auto password_set = store.status_secret_name(secret_name)
                                .conditions(conditions({.secret = condition("SecretReady", "True", "PasswordSet")}));
  const auto stored = secret(stored_password).uid("secret-uid");
  const std::string not_owned =
      R"(There is an existing Secret "test-kvdb-password" that the KeyValueStore does not own.)";

  return rr::testing::SubReconcilerTests<KeyValueStore>{
      {"creates the Secret with a new password, controlled by the store",
       {
           .resource = store,
           .expect_resource = password_set,
           .expect_events = {new_event(store.get(), rr::event_normal, "Created",
                                       R"(Created Secret "test-kvdb-password")")},
           .expect_creates = {secret(fresh_password).get()},
       }},
      // The point of the step: a reconcile after the first one must not change the password.
      {"the Secret exists: its password is kept, nothing written",
       {
           .resource = store,
           .given_objects = {stored.get()},
           .expect_resource = password_set,
       }},
      {"the labels were changed: they are put back, the password is kept",
       {
           .resource = store,
           .given_objects = {stored.metadata([](rr::ObjectMeta& m) {
                                     m.labels = {{"team", "storage"}};
                                   })
                                 .get()},
           .expect_resource = password_set,
           .expect_events = {new_event(store.get(), rr::event_normal, "Updated",
                                       R"(Updated Secret "test-kvdb-password")")},
           .expect_updates = {stored.get()},
       }},
      // The merge adds missing keys only: what else the Secret holds stays.
      {"the password was deleted from the Secret: a new one is stored, other keys kept",
       {
           .resource = store,
           .given_objects = {stored.data({{"note", rr::Bytes::encode("kept")}}).get()},
           .expect_resource = password_set,
           .expect_events = {new_event(store.get(), rr::event_normal, "Updated",
                                       R"(Updated Secret "test-kvdb-password")")},
           .expect_updates =
               {stored.data({{"note", rr::Bytes::encode("kept")}, {"password", rr::Bytes::encode(fresh_password)}})
                    .get()},
       }},
      {"a Secret of that name that the store does not own: SecretReady False NotOwned",
       {
           .resource = store,
           .given_objects = {stored.owner_references({}).get()},
           .expect_resource = store.conditions(conditions({
               .ready = condition("Ready", "False", "NotOwned", not_owned),
               .secret = condition("SecretReady", "False", "NotOwned", not_owned),
           })),
           .expect_tracks = {rr::testing::create_track_request("", "Secret", kvdb_test::test_namespace, secret_name)
                                 .by(kvdb_test::test_namespace, kvdb_test::store_name)},
           .expect_events = {new_event(
               store.get(), rr::event_warning, "CreationFailed",
               R"(Failed to create Secret "test-kvdb-password": secrets "test-kvdb-password" already exists)")},
           .expect_creates = {secret(fresh_password).get()},
       }},
  };
}

TEST_CASE("random_password: 32 letters and digits, a new one each time") {
  const std::string password = kvdb::random_password();
  CHECK(password.size() == 32);
  CHECK(password.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") ==
        std::string::npos);
  CHECK(kvdb::random_password() != password);
}

TEST_CASE("the default hooks generate a random password") {
  const kvdb::KeyValueStoreHooks hooks;
  CHECK(hooks.new_password().size() == 32);
  CHECK(hooks.new_password() != hooks.new_password());
}

TEST_CASE("secret_sanitize: the log sees the Secret's name and keys, never the password") {
  const auto shown = kvdb_test::hooks()->secret_sanitize(secret(stored_password).get());
  CHECK(shown["name"] == secret_name);
  CHECK(shown["keys"] == rr::Json::array({"password"}));
  CHECK(shown.dump().find(stored_password) == std::string::npos);
  CHECK(shown.dump().find(rr::Bytes::encode(stored_password).str()) == std::string::npos);
}
