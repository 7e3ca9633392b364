// ValidateObjectMetaAccessorUpdate: what an update may not change, in the API server's words.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rr/validation/object_meta.hpp"

using namespace rr::validation;
using rr::Json;

namespace {

using Texts = std::vector<std::string>;

Texts update_texts(const Json& now, const Json& old) {
  Texts out;
  for (const FieldError& e : validate_object_meta_update(now, old)) out.push_back(e.to_string());
  return out;
}

const Json kOldMeta = Json::parse(R"({"name":"a","namespace":"ns","uid":"u1","resourceVersion":"5","generation":2,
    "creationTimestamp":"2020-01-01T00:00:00Z"})");

Json with_member(Json base, const char* key, Json value) {
  base[key] = std::move(value);
  return base;
}

}  // namespace

TEST_CASE("an unchanged update has no findings") { CHECK(update_texts(kOldMeta, kOldMeta).empty()); }

TEST_CASE("name, namespace and uid are immutable") {
  CHECK(update_texts(with_member(kOldMeta, "name", "b"), kOldMeta) ==
        Texts{"metadata.name: Invalid value: \"b\": field is immutable"});
  CHECK(update_texts(with_member(kOldMeta, "namespace", "other"), kOldMeta) ==
        Texts{"metadata.namespace: Invalid value: \"other\": field is immutable"});
  CHECK(update_texts(with_member(kOldMeta, "uid", "u2"), kOldMeta) ==
        Texts{"metadata.uid: Invalid value: \"u2\": field is immutable"});
  // A types.UID goes through encoding/json, which escapes '<' where %q would not.
  CHECK(update_texts(with_member(kOldMeta, "uid", "<u>"), kOldMeta) ==
        Texts{"metadata.uid: Invalid value: \"\\u003cu\\u003e\": field is immutable"});
}

TEST_CASE("timestamps and the grace period are immutable; unset shows as null") {
  CHECK(update_texts(with_member(kOldMeta, "creationTimestamp", "2021-01-01T00:00:00Z"), kOldMeta) ==
        Texts{"metadata.creationTimestamp: Invalid value: \"2021-01-01T00:00:00Z\": field is immutable"});
  Json removed = kOldMeta;
  removed.erase("creationTimestamp");
  CHECK(update_texts(removed, kOldMeta) ==
        Texts{"metadata.creationTimestamp: Invalid value: null: field is immutable"});
  CHECK(update_texts(with_member(kOldMeta, "deletionGracePeriodSeconds", 30), kOldMeta) ==
        Texts{"metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable"});
  CHECK(update_texts(with_member(kOldMeta, "deletionTimestamp", "2020-02-02T00:00:00Z"), kOldMeta) ==
        Texts{"metadata.deletionTimestamp: Invalid value: \"2020-02-02T00:00:00Z\": field is immutable"});
}

TEST_CASE("an update names its resourceVersion and never decrements generation") {
  Json no_rv = kOldMeta;
  no_rv.erase("resourceVersion");
  CHECK(update_texts(no_rv, kOldMeta) ==
        Texts{"metadata.resourceVersion: Invalid value: \"\": must be specified for an update"});
  CHECK(update_texts(with_member(kOldMeta, "generation", 1), kOldMeta) ==
        Texts{"metadata.generation: Invalid value: 1: must not be decremented"});
  CHECK(update_texts(with_member(kOldMeta, "generation", 3), kOldMeta).empty());
}

TEST_CASE("no new finalizers once the object is being deleted; removing them is fine") {
  const Json deleting = with_member(with_member(kOldMeta, "deletionTimestamp", "2020-02-02T00:00:00Z"), "finalizers",
                                    Json::array({"keep"}));
  CHECK(
      update_texts(with_member(deleting, "finalizers", Json::array({"keep", "b/x", "a/x", "b/x"})), deleting) ==
      Texts{"metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new "
            "finalizers []string{\"a/x\", \"b/x\"}"});
  CHECK(update_texts(with_member(deleting, "finalizers", Json::array()), deleting).empty());
  // Not being deleted: adding is fine.
  CHECK(update_texts(with_member(kOldMeta, "finalizers", Json::array({"a/x"})), kOldMeta).empty());
}

TEST_CASE("the new labels, annotations, owner references and managed fields are validated again") {
  CHECK(update_texts(with_member(kOldMeta, "labels", Json::object({{"app", "has space"}})), kOldMeta).size() == 1);
  CHECK(update_texts(with_member(kOldMeta, "annotations", Json::object({{"a b", "x"}})), kOldMeta).size() == 1);
  CHECK(update_texts(
            with_member(kOldMeta, "ownerReferences", Json::parse(R"([{"apiVersion":"v1","kind":"K","name":"n"}])")),
            kOldMeta) == Texts{"metadata.ownerReferences.uid: Invalid value: \"\": must not be empty"});
}

TEST_CASE("upstream's deletion-field and generation cases (objectmeta_test.go)") {
  const Json base = Json::parse(R"({"name":"test","resourceVersion":"1"})");
  const Json now_ts = "1970-01-01T00:16:40Z";
  const Json later_ts = "1970-01-01T00:33:20Z";
  CHECK(update_texts(with_member(base, "deletionTimestamp", now_ts), base) ==
        Texts{"metadata.deletionTimestamp: Invalid value: \"1970-01-01T00:16:40Z\": field is immutable"});
  CHECK(update_texts(base, with_member(base, "deletionTimestamp", now_ts)) ==
        Texts{"metadata.deletionTimestamp: Invalid value: null: field is immutable"});
  CHECK(
      update_texts(with_member(base, "deletionTimestamp", later_ts), with_member(base, "deletionTimestamp", now_ts)) ==
      Texts{"metadata.deletionTimestamp: Invalid value: \"1970-01-01T00:33:20Z\": field is immutable"});
  CHECK(update_texts(base, with_member(base, "deletionGracePeriodSeconds", 30)) ==
        Texts{"metadata.deletionGracePeriodSeconds: Invalid value: null: field is immutable"});
  CHECK(update_texts(with_member(base, "deletionGracePeriodSeconds", 40),
                     with_member(base, "deletionGracePeriodSeconds", 30)) ==
        Texts{"metadata.deletionGracePeriodSeconds: Invalid value: 40: field is immutable"});
  CHECK(update_texts(with_member(base, "generation", 4), with_member(base, "generation", 5)) ==
        Texts{"metadata.generation: Invalid value: 4: must not be decremented"});
  // Finalizers: adding or changing while deleting is refused, removing is not.
  const Json deleting = with_member(with_member(base, "deletionTimestamp", now_ts), "finalizers", Json::array({"x/a"}));
  CHECK(
      update_texts(with_member(deleting, "finalizers", Json::array({"x/b"})), deleting) ==
      Texts{"metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new "
            "finalizers []string{\"x/b\"}"});
}
