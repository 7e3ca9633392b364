// Strategic merge patch: each directive (cases after apimachinery's strategicpatch tests), the
// built-in schema's merge keys, a Deployment patch as `kubectl apply` sends it, and errors.
#include <doctest/doctest.h>

#include "rr/client/patch.hpp"
#include "rr/client/strategic_merge.hpp"
#include "rr/core/json.hpp"

namespace {

using rr::FieldPatch;
using rr::Json;
using rr::PatchStrategy;

// The shape of upstream's test type MergeItem, on the fallback tree.
const rr::StrategicSchema& test_schema() {
  static const rr::StrategicSchema schema = [] {
    rr::StrategicSchema s;
    s.add_fallback("mergingList", FieldPatch{PatchStrategy::Merge, "name"});
    s.add_fallback("mergingList.mergingList", FieldPatch{PatchStrategy::Merge, "name"});
    s.add_fallback("mergingIntList", FieldPatch{PatchStrategy::Merge, ""});
    s.add_fallback("replacingItem", FieldPatch{PatchStrategy::Replace, ""});
    s.add_fallback("retainKeysMap.mergingList", FieldPatch{PatchStrategy::Merge, "name"});
    return s;
  }();
  return schema;
}

Json apply(const char* original, const char* patch, const rr::StrategicSchema& schema = test_schema()) {
  return rr::apply_strategic_merge_patch(Json::parse(original), Json::parse(patch), schema);
}

Json builtin(const char* original, const char* patch) {
  return apply(original, patch, rr::builtin_strategic_schema());
}

struct StrategicMergeCase {
  const char* original;
  const char* patch;
  const char* result;
};

void check_cases(std::initializer_list<StrategicMergeCase> cases) {
  for (const StrategicMergeCase& c : cases) {
    CAPTURE(c.original);
    CAPTURE(c.patch);
    CHECK(apply(c.original, c.patch) == Json::parse(c.result));
  }
}

}  // namespace

TEST_CASE("strategic merge: objects merge as in a merge patch") {
  check_cases({
      {R"({"name":1})", R"({"value":1})", R"({"name":1,"value":1})"},
      {R"({"name":1,"other":"a"})", R"({"name":null,"value":1})", R"({"value":1,"other":"a"})"},
      {R"({"simpleMap":{"key1":1,"key2":1}})", R"({"simpleMap":{"key2":null}})", R"({"simpleMap":{"key1":1}})"},
      // unmatched nulls are ignored, also inside values new to the original
      {R"({"name":1})", R"({"other":null,"value":{"a":null,"b":1}})", R"({"name":1,"value":{"b":1}})"},
      // a list without metadata is replaced whole, as is a value of another type
      {R"({"nonMergingList":[{"name":1},{"name":2}]})", R"({"nonMergingList":[{"name":3}]})",
       R"({"nonMergingList":[{"name":3}]})"},
      {R"({"simpleMap":{"a":1}})", R"({"simpleMap":[1]})", R"({"simpleMap":[1]})"},
      {R"({"simpleMap":[1]})", R"({"simpleMap":{"a":1,"b":null}})", R"({"simpleMap":{"a":1}})"},
      // "" is a field like any other (found by fuzz_strategic_merge: it used to be skipped)
      {R"({"":12})", R"({"":32})", R"({"":32})"},
      {R"({"":{"a":1}})", R"({"":{"b":2}})", R"({"":{"a":1,"b":2}})"},
      {R"({"":1,"a":1})", R"({"":null})", R"({"a":1})"},
  });
}

TEST_CASE("strategic merge: $patch in an object") {
  check_cases({
      {R"({"name":1,"value":1})", R"({"$patch":"replace"})", R"({})"},
      {R"({"name":1,"value":1})", R"({"other":"a","$patch":"replace"})", R"({"other":"a"})"},
      {R"({"simpleMap":{"key1":1},"name":1})", R"({"simpleMap":{"$patch":"delete"}})", R"({"name":1})"},
      {R"({"simpleMap":{"a":1,"b":2}})", R"({"simpleMap":{"$patch":"replace","c":3}})", R"({"simpleMap":{"c":3}})"},
      // deleting what is not there adds nothing
      {R"({"name":1})", R"({"simpleMap":{"$patch":"delete"}})", R"({"name":1})"},
      {R"({"name":1})", R"({"$patch":"delete"})", R"({})"},
  });
  CHECK_THROWS_AS(apply(R"({"a":{}})", R"({"a":{"$patch":"merge"}})"), rr::PatchError);
  CHECK_THROWS_AS(apply(R"({})", R"({"$patch":1})"), rr::PatchError);
}

TEST_CASE("strategic merge: lists of objects merge on the merge key") {
  check_cases({
      // patch items merge into their originals, in the patch's order; new items come first
      {R"({"mergingList":[{"name":1},{"name":2,"value":"b"},{"name":3}]})",
       R"({"mergingList":[{"name":3,"value":"c"},{"name":1,"value":"a"},{"name":2,"other":"x"}]})",
       R"({"mergingList":[{"name":3,"value":"c"},{"name":1,"value":"a"},{"name":2,"value":"b","other":"x"}]})"},
      {R"({"mergingList":[{"name":1},{"name":2,"value":"b"},{"name":3}]})",
       R"({"mergingList":[{"name":3,"value":"c"},{"name":1,"value":"a"}]})",
       R"({"mergingList":[{"name":2,"value":"b"},{"name":3,"value":"c"},{"name":1,"value":"a"}]})"},
      {R"({"mergingList":[{"name":"a"},{"name":"b"}]})", R"({"mergingList":[{"name":"c"}]})",
       R"({"mergingList":[{"name":"c"},{"name":"a"},{"name":"b"}]})"},
      // null inside an item deletes that field; nested merge lists merge too
      {R"({"mergingList":[{"name":1,"value":"a","mergingList":[{"name":"x","value":1}]}]})",
       R"({"mergingList":[{"name":1,"value":null,"mergingList":[{"name":"y"}]}]})",
       R"({"mergingList":[{"name":1,"mergingList":[{"name":"y"},{"name":"x","value":1}]}]})"},
      {R"({"mergingList":[]})", R"({"mergingList":[]})", R"({"mergingList":[]})"},
      {R"({})", R"({"mergingList":[{"name":1,"value":null,"other":"o"}]})", R"({"mergingList":[{"name":1,"other":"o"}]})"},
  });
}

TEST_CASE("strategic merge: $patch in list items") {
  check_cases({
      // delete removes every item with that key
      {R"({"mergingList":[{"name":1},{"name":1},{"name":2,"value":"a"},{"name":3},{"name":3}]})",
       R"({"mergingList":[{"name":1,"$patch":"delete"},{"name":3,"$patch":"delete"}]})",
       R"({"mergingList":[{"name":2,"value":"a"}]})"},
      {R"({"mergingList":[{"name":1},{"name":2}]})", R"({"mergingList":[{"$patch":"replace"}]})", R"({"mergingList":[]})"},
      {R"({"mergingList":[{"name":1,"value":"a"},{"name":2}]})",
       R"({"mergingList":[{"name":3,"value":{"$patch":"delete"}},{"$patch":"replace"}]})",
       R"({"mergingList":[{"name":3}]})"},
      // deleting a missing item is fine
      {R"({"mergingList":[{"name":"hello2"}]})",
       R"({"mergingList":[{"name":"hello"},{"$patch":"delete","name":"doesntexist"}]})",
       R"({"mergingList":[{"name":"hello"},{"name":"hello2"}]})"},
  });
  CHECK_THROWS_AS(apply(R"({"mergingList":[{"name":1}]})", R"({"mergingList":[{"$patch":"merge"}]})"), rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"mergingList":[{"name":1}]})", R"({"mergingList":[{"$patch":"bogus","name":1}]})"),
                  rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"mergingList":[{"name":1}]})", R"({"mergingList":[{"$patch":"delete"}]})"), rr::PatchError);
}

TEST_CASE("strategic merge: lists of primitives with strategy merge are sets") {
  check_cases({
      {R"({"mergingIntList":[1,2]})", R"({"mergingIntList":[2,3]})", R"({"mergingIntList":[1,2,3]})"},
      {R"({"mergingIntList":[1,2,3]})", R"({"mergingIntList":[3,1,2]})", R"({"mergingIntList":[3,1,2]})"},
      {R"({"mergingIntList":[1,2,3]})", R"({"mergingIntList":[3,1]})", R"({"mergingIntList":[2,3,1]})"},
      {R"({"mergingIntList":[1,1,2]})", R"({"mergingIntList":[2,2]})", R"({"mergingIntList":[1,2]})"},
      {R"({"nonMergingIntList":[1,2]})", R"({"nonMergingIntList":[2,3]})", R"({"nonMergingIntList":[2,3]})"},
  });
}

TEST_CASE("strategic merge: $deleteFromPrimitiveList") {
  check_cases({
      {R"({"mergingIntList":[1,2,3]})", R"({"$deleteFromPrimitiveList/mergingIntList":[2]})",
       R"({"mergingIntList":[1,3]})"},
      {R"({"mergingIntList":[1,2,3,3]})", R"({"$deleteFromPrimitiveList/mergingIntList":[3]})",
       R"({"mergingIntList":[1,2]})"},
      {R"({"mergingIntList":[1,2]})", R"({"$deleteFromPrimitiveList/mergingIntList":[3]})", R"({"mergingIntList":[1,2]})"},
      {R"({"mergingIntList":null})", R"({"$deleteFromPrimitiveList/mergingIntList":[3]})", R"({"mergingIntList":null})"},
      {R"({"foo":["bar"]})", R"({"$deleteFromPrimitiveList/mergingIntList":[3]})", R"({"foo":["bar"]})"},
      {R"({"nonMergingIntList":[1,2,3]})", R"({"$deleteFromPrimitiveList/nonMergingIntList":[2]})",
       R"({"nonMergingIntList":[1,3]})"},
      // additions and deletions in one patch
      {R"({"mergingIntList":["a","b"]})",
       R"({"mergingIntList":["c"],"$deleteFromPrimitiveList/mergingIntList":["a"]})", R"({"mergingIntList":["c","b"]})"},
  });
  CHECK_THROWS_AS(apply(R"({"mergingIntList":[1]})", R"({"$deleteFromPrimitiveList/mergingIntList":1})"), rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"mergingIntList":1})", R"({"$deleteFromPrimitiveList/mergingIntList":[1]})"), rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"mergingIntList":[1]})", R"({"$deleteFromPrimitiveList/":[1]})"), rr::PatchError);
}

TEST_CASE("strategic merge: $setElementOrder") {
  check_cases({
      // the order list wins; server-only items keep their place relative to the server's order
      {R"({"mergingList":[{"name":1,"other":"a"},{"name":2,"value":2,"other":"b"}]})",
       R"({"$setElementOrder/mergingList":[{"name":4},{"name":1},{"name":2},{"name":3}],
           "mergingList":[{"name":4,"value":4},{"name":3,"value":3}]})",
       R"({"mergingList":[{"name":4,"value":4},{"name":1,"other":"a"},{"name":2,"value":2,"other":"b"},{"name":3,"value":3}]})"},
      {R"({"mergingList":[{"name":1},{"name":3}]})",
       R"({"$setElementOrder/mergingList":[{"name":3},{"name":2},{"name":1}],
           "mergingList":[{"name":3,"value":3},{"name":1,"value":1}]})",
       R"({"mergingList":[{"name":3,"value":3},{"name":1,"value":1}]})"},
      // reorder only
      {R"({"mergingIntList":[1,3]})", R"({"$setElementOrder/mergingIntList":[3,2,1]})", R"({"mergingIntList":[3,1]})"},
      {R"({"finalizers":["a","b","c"]})", R"({"$setElementOrder/finalizers":["b","c","a"]})",
       R"({"finalizers":["b","c","a"]})"},
      // with deletions
      {R"({"mergingIntList":[1,2,3,4]})",
       R"({"$setElementOrder/mergingIntList":[1,2],"$deleteFromPrimitiveList/mergingIntList":[3]})",
       R"({"mergingIntList":[1,2,4]})"},
      {R"({"mergingIntList":[1,2,3]})",
       R"({"$setElementOrder/mergingIntList":[1,2,4],"$deleteFromPrimitiveList/mergingIntList":[3],"mergingIntList":[4]})",
       R"({"mergingIntList":[1,2,4]})"},
      {R"({"name":"hi","mergingList":[{"name":"hello2"}]})",
       R"({"$setElementOrder/mergingList":[{"name":"hello"},{"name":"doesntexist"}],
           "mergingList":[{"name":"hello"},{"$patch":"delete","name":"doesntexist"}]})",
       R"({"name":"hi","mergingList":[{"name":"hello"},{"name":"hello2"}]})"},
      // a list new to the original, and an order for a list that exists nowhere
      {R"({})", R"({"$setElementOrder/mergingList":[{"name":2},{"name":1}],"mergingList":[{"name":2},{"name":1}]})",
       R"({"mergingList":[{"name":2},{"name":1}]})"},
      {R"({"a":1})", R"({"$setElementOrder/mergingList":[{"name":2}]})", R"({"a":1})"},
  });
  // the patch list's order must agree with the order list
  CHECK_THROWS_AS(apply(R"({"mergingList":[{"name":1},{"name":3},{"name":2}]})",
                        R"({"$setElementOrder/mergingList":[{"name":1},{"name":2},{"name":3}],
                            "mergingList":[{"name":3,"value":3},{"name":1,"value":1}]})"),
                  rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"mergingIntList":[1,3,2]})",
                        R"({"$setElementOrder/mergingIntList":[1,2,3],"mergingIntList":[3,1]})"),
                  rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"mergingList":[]})", R"({"$setElementOrder/mergingList":{"name":1}})"), rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"mergingList":[]})", R"({"$setElementOrder/mergingList":[{"value":1}],"mergingList":[{"name":1}]})"),
                  rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"mergingList":{"a":1}})", R"({"$setElementOrder/mergingList":[{"name":1}]})"), rr::PatchError);
  CHECK_THROWS_AS(apply(R"({})", R"({"$setElementOrder/":[]})"), rr::PatchError);
}

TEST_CASE("strategic merge: $retainKeys") {
  check_cases({
      {R"({"union":{"foo":"a","other":"b"}})", R"({"union":{"$retainKeys":["another","bar"],"another":"d","bar":"c"}})",
       R"({"union":{"another":"d","bar":"c"}})"},
      // retained keys keep their values and still merge
      {R"({"retainKeysMap":{"name":"foo","value":"a","other":"x"}})",
       R"({"retainKeysMap":{"$retainKeys":["name","value"],"value":"b"}})",
       R"({"retainKeysMap":{"name":"foo","value":"b"}})"},
      {R"({"retainKeysMap":{"name":"foo"}})", R"({"retainKeysMap":{"value":"bar"}})",
       R"({"retainKeysMap":{"name":"foo","value":"bar"}})"},
      // nulls and directives need not be listed
      {R"({"retainKeysMap":{"name":"foo","value":"a","mergingList":[{"name":1}]}})",
       R"({"retainKeysMap":{"$retainKeys":["mergingList"],"value":null,
           "$setElementOrder/mergingList":[{"name":2},{"name":1}],"mergingList":[{"name":2}]}})",
       R"({"retainKeysMap":{"mergingList":[{"name":2},{"name":1}]}})"},
  });
  CHECK_THROWS_AS(apply(R"({"u":{"a":1}})", R"({"u":{"$retainKeys":["a"],"b":2}})"), rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"u":{"a":1}})", R"({"u":{"$retainKeys":"a"}})"), rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"u":{"a":1}})", R"({"u":{"$retainKeys":[1]}})"), rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"u":{"a":1}})", R"({"u":{"$retainKeys":["a"],"":2}})"), rr::PatchError);
}

TEST_CASE("strategic merge: strategy replace, directives never reach the result") {
  check_cases({
      {R"({"replacingItem":{"a":1,"b":2}})", R"({"replacingItem":{"c":3}})", R"({"replacingItem":{"c":3}})"},
      // unknown "$" keys are dropped; values new to the original lose their directives
      {R"({"a":1})", R"({"$unknown":1,"b":{"$retainKeys":["c"],"c":1,"d":null}})", R"({"a":1,"b":{"c":1}})"},
      {R"({})", R"({"mergingList":[{"name":1,"$retainKeys":["name"]},{"name":2,"$patch":"delete"}]})",
       R"({"mergingList":[{"name":1}]})"},
      {R"({})", R"({"nonMergingList":[{"name":1,"x":null,"$patch":"replace"},5]})", R"({"nonMergingList":[{"name":1},5]})"},
      {R"({"l":[1]})", R"({"l":[[{"$x":1,"y":2}],[3]]})", R"({"l":[[{"y":2}],[3]]})"},
  });
}

TEST_CASE("strategic merge: malformed input") {
  CHECK_THROWS_AS(apply(R"({})", R"([1])"), rr::PatchError);
  CHECK_THROWS_AS(apply(R"([])", R"({})"), rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"mergingList":[{"name":1,"value":"a"}]})", R"({"mergingList":[{"value":"b"}]})"),
                  rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"mergingList":[{"name":1}]})", R"({"mergingList":[2]})"), rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"mergingIntList":[1]})", R"({"mergingIntList":[[2]]})"), rr::PatchError);
  CHECK_THROWS_AS(apply(R"({"mergingIntList":[1]})", R"({"mergingIntList":["a"]})"), rr::PatchError);
  // a merge-strategy list of objects without a declared key
  CHECK_THROWS_AS(apply(R"({"mergingIntList":[{"a":1}]})", R"({"mergingIntList":[{"a":2}]})"), rr::PatchError);
  try {
    apply(R"({"mergingList":[{"name":1}]})", R"({"mergingList":[{"value":"b"}]})");
  } catch (const rr::PatchError& e) {
    CHECK(std::string(e.what()).find("mergingList") != std::string::npos);
    CHECK(std::string(e.what()).find("\"name\"") != std::string::npos);
  }
}

TEST_CASE("builtin schema: kinds covered") {
  const rr::StrategicSchema& s = rr::builtin_strategic_schema();
  CHECK(s.covers("v1", "ConfigMap"));
  CHECK(s.covers("v1", "Pod"));
  CHECK(s.covers("v1", "Namespace"));
  CHECK(s.covers("apps/v1", "Deployment"));
  CHECK(s.covers("batch/v1", "CronJob"));
  CHECK(s.covers("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"));
  CHECK_FALSE(s.covers("v1", "Deployment"));
  CHECK_FALSE(s.covers("example.com/v1", "Widget"));
}

TEST_CASE("builtin schema: container ports merge on containerPort, Service ports on port") {
  const Json pod = builtin(
      R"({"apiVersion":"v1","kind":"Pod","spec":{"containers":[
            {"name":"a","image":"a:1","ports":[{"containerPort":80,"protocol":"TCP"}],
             "env":[{"name":"X","value":"1"}],"volumeMounts":[{"mountPath":"/d","name":"d"}]},
            {"name":"b","image":"b:1"}]}})",
      R"({"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"http"}],
            "env":[{"name":"Y","value":"2"}],"volumeMounts":[{"mountPath":"/d","readOnly":true}]}]}})");
  CHECK(pod["spec"]["containers"] == Json::parse(R"([
      {"name":"a","image":"a:1","ports":[{"containerPort":80,"protocol":"TCP","name":"http"}],
       "env":[{"name":"Y","value":"2"},{"name":"X","value":"1"}],"volumeMounts":[{"mountPath":"/d","name":"d","readOnly":true}]},
      {"name":"b","image":"b:1"}])"));

  const Json service = builtin(
      R"({"apiVersion":"v1","kind":"Service","spec":{"ports":[{"port":80,"targetPort":8080,"name":"http"}]}})",
      R"({"spec":{"ports":[{"port":80,"targetPort":9090},{"port":443,"name":"https"}]}})");
  CHECK(service["spec"]["ports"] == Json::parse(R"([{"port":80,"targetPort":9090,"name":"http"},{"port":443,"name":"https"}])"));

  // in a Service, containerPort is no key: ports without "port" are malformed
  CHECK_THROWS_AS(builtin(R"({"apiVersion":"v1","kind":"Service","spec":{"ports":[{"port":80}]}})",
                          R"({"spec":{"ports":[{"containerPort":80}]}})"),
                  rr::PatchError);
  // tolerations and args have no strategy: replaced whole
  const Json replaced = builtin(
      R"({"apiVersion":"v1","kind":"Pod","spec":{"tolerations":[{"key":"a"}],"containers":[{"name":"a","args":["x","y"]}]}})",
      R"({"spec":{"tolerations":[{"key":"b"}],"containers":[{"name":"a","args":["z"]}]}})");
  CHECK(replaced["spec"]["tolerations"] == Json::parse(R"([{"key":"b"}])"));
  CHECK(replaced["spec"]["containers"][0]["args"] == Json::parse(R"(["z"])"));
}

TEST_CASE("builtin schema: metadata lists, kinds without trees, template paths") {
  // finalizers are a set, ownerReferences merge on uid, in every kind (and in unknown ones)
  const Json cm = builtin(
      R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"finalizers":["a"],"ownerReferences":[{"uid":"1","name":"x"}]},"data":{"k":"v"}})",
      R"({"metadata":{"finalizers":["b"],"ownerReferences":[{"uid":"1","controller":true}]},"data":{"k2":"v2"}})");
  CHECK(cm["metadata"]["finalizers"] == Json::parse(R"(["b","a"])"));
  CHECK(cm["metadata"]["ownerReferences"] == Json::parse(R"([{"uid":"1","name":"x","controller":true}])"));
  CHECK(cm["data"] == Json::parse(R"({"k":"v","k2":"v2"})"));

  const Json widget = builtin(
      R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"finalizers":["a"]},"spec":{"containers":[{"name":"a"}]}})",
      R"({"metadata":{"finalizers":["b"]},"spec":{"containers":[{"name":"b"}]}})");
  CHECK(widget["metadata"]["finalizers"] == Json::parse(R"(["b","a"])"));
  CHECK(widget["spec"]["containers"] == Json::parse(R"([{"name":"b"}])"));

  // CronJob: containers sit under spec.jobTemplate.spec.template.spec
  const Json cron = builtin(
      R"({"apiVersion":"batch/v1","kind":"CronJob","spec":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"1"}]}}}}}})",
      R"({"spec":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"2"}]}}}}}})");
  CHECK(cron["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"] == Json::parse(R"([{"name":"a","image":"2"}])"));
  // Deployment status conditions merge on type
  const Json status = builtin(
      R"({"apiVersion":"apps/v1","kind":"Deployment","status":{"conditions":[{"type":"Available","status":"False"},{"type":"Progressing","status":"True"}]}})",
      R"({"status":{"conditions":[{"type":"Available","status":"True"}]}})");
  CHECK(status["status"]["conditions"] ==
        Json::parse(R"([{"type":"Available","status":"True"},{"type":"Progressing","status":"True"}])"));
}

TEST_CASE("builtin schema: a Deployment patch as kubectl apply sends it") {
  // Live object: an injected sidecar, server-set annotations, status. The user's previous config
  // (last-applied) had env A,B, port 80, args -a -b and no strategy; the new config has env B,C,
  // ports 80,443, args -c, image 1.1 and strategy Recreate. kubectl's three-way patch:
  const Json live = Json::parse(R"({
    "apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"web","namespace":"default","finalizers":["x/keep"],
      "annotations":{"kubectl.kubernetes.io/last-applied-configuration":"old","deployment.kubernetes.io/revision":"1"}},
    "spec":{"replicas":2,
      "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}},
      "selector":{"matchLabels":{"app":"web"}},
      "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[
        {"name":"istio-proxy","image":"proxy:1"},
        {"name":"web","image":"nginx:1.0","args":["-a","-b"],
         "env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],
         "ports":[{"containerPort":80,"protocol":"TCP"}],
         "resources":{"limits":{"cpu":"1"}}}]}}},
    "status":{"replicas":2,"conditions":[{"type":"Available","status":"True"}]}})");
  const Json patch = Json::parse(R"({
    "metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"new"}},
    "spec":{
      "strategy":{"$retainKeys":["type"],"type":"Recreate"},
      "template":{"spec":{
        "$setElementOrder/containers":[{"name":"web"}],
        "containers":[{
          "name":"web","image":"nginx:1.1","args":["-c"],
          "$setElementOrder/env":[{"name":"B"},{"name":"C"}],
          "env":[{"name":"C","value":"3"},{"$patch":"delete","name":"A"}],
          "$setElementOrder/ports":[{"containerPort":80},{"containerPort":443}],
          "ports":[{"containerPort":443,"protocol":"TCP"}]}]}}}})");
  Json expected = live;
  expected["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] = "new";
  expected["spec"]["strategy"] = Json::parse(R"({"type":"Recreate"})");
  expected["spec"]["template"]["spec"]["containers"] = Json::parse(R"([
    {"name":"istio-proxy","image":"proxy:1"},
    {"name":"web","image":"nginx:1.1","args":["-c"],
     "env":[{"name":"B","value":"2"},{"name":"C","value":"3"}],
     "ports":[{"containerPort":80,"protocol":"TCP"},{"containerPort":443,"protocol":"TCP"}],
     "resources":{"limits":{"cpu":"1"}}}])");
  CHECK(rr::apply_strategic_merge_patch(live, patch, rr::builtin_strategic_schema()) == expected);

  // The same patch without the kind in the original picks the tree from the patch's kind.
  Json bare = live;
  bare.erase("kind");
  Json typed_patch = patch;
  typed_patch["kind"] = "Deployment";
  typed_patch["apiVersion"] = "apps/v1";
  Json expected_bare = expected;
  expected_bare["kind"] = "Deployment";
  CHECK(rr::apply_strategic_merge_patch(bare, typed_patch, rr::builtin_strategic_schema()) == expected_bare);
}
