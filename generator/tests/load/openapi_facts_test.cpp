// rrgen openapi-facts' transformation (load/openapi_facts.cpp) on small hand-written documents:
// what it keeps, what it drops, where each definition goes, and the conflicts it reports.
#include "load/openapi_facts.hpp"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "load/yaml_load.hpp"

using namespace rrgen;

namespace {

struct Run {
  SourceSet sources;
  Diagnostics diags;
  std::vector<std::vector<Node>> loaded;
  OpenApiFacts facts;

  // Each input is one file, named as given.
  explicit Run(const std::vector<std::pair<std::string, std::string>>& inputs,
               const std::map<std::string, ProtoMessage>* protos = nullptr) {
    std::vector<const Node*> docs;
    for (const auto& [name, text] : inputs) {
      const std::string* file = sources.add(name, text);
      loaded.push_back(load_yaml(file, sources.content(file), diags));
    }
    for (const auto& file : loaded)
      for (const Node& doc : file) docs.push_back(&doc);
    REQUIRE_FALSE(diags.has_errors());
    facts = openapi_facts(docs, diags, protos);
  }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& f : facts.files.files) out.push_back(f.path);
    return out;
  }
  std::string file(const std::string& path) const {
    for (const auto& f : facts.files.files)
      if (f.path == path) return f.content;
    FAIL("no output file " << path);
    return {};
  }
  // The file from "openapi:" on (after the header comment).
  std::string body(const std::string& path) const {
    const std::string text = file(path);
    return text.substr(text.find("openapi:"));
  }
  std::vector<std::string> messages() const {
    std::vector<std::string> out;
    for (const auto& d : diags.all()) out.push_back(format(d));
    return out;
  }
};

// A document of group-version `prefix` ("/apis/apps/v1") with the given paths and schemas (JSON).
std::string document(const std::string& paths, const std::string& schemas) {
  return R"({"openapi": "3.0.0", "info": {"title": "Kubernetes", "version": "unversioned"},
  "paths": {)" +
         paths + R"(}, "components": {"securitySchemes": {"BearerToken": {"type": "apiKey"}},
  "schemas": {)" +
         schemas + "}}}";
}

const std::string kDeploymentPaths = R"(
  "/apis/apps/v1/namespaces/{namespace}/deployments": {
    "get": {"description": "list or watch objects of kind Deployment", "operationId": "listAppsV1NamespacedDeployment",
            "responses": {"200": {"description": "OK"}}, "tags": ["apps_v1"],
            "x-kubernetes-action": "list",
            "x-kubernetes-group-version-kind": {"group": "apps", "kind": "Deployment", "version": "v1"}},
    "parameters": [{"in": "path", "name": "namespace", "required": true, "schema": {"type": "string"}}]},
  "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale": {
    "put": {"x-kubernetes-action": "put", "requestBody": {"content": {}},
            "x-kubernetes-group-version-kind": {"group": "autoscaling", "kind": "Scale", "version": "v1"}}},
  "/apis/apps/v1/": {"get": {"description": "get available resources", "operationId": "getAppsV1APIResources"}})";

const std::string kDeployment = R"(
  "io.k8s.api.apps.v1.Deployment": {
    "description": "Deployment enables declarative updates for Pods and ReplicaSets.",
    "type": "object",
    "properties": {
      "spec": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.core.v1.PodSpec"}], "default": {},
               "description": "Specification of the desired behavior."},
      "replicas": {"description": "Number of desired pods.", "type": "integer", "format": "int32",
                   "minimum": 0, "maximum": 1e3, "default": 1},
      "description": {"description": "a member called description is a name, not prose", "type": "string",
                      "default": "", "pattern": "^[a-z]+$", "minLength": 1, "maxLength": 63, "example": "web"},
      "paused": {"type": "boolean", "default": false, "nullable": true},
      "mode": {"type": "string", "enum": ["Always", "1", "true"], "title": "Mode",
               "externalDocs": {"url": "https://example.com"}},
      "labels": {"type": "object", "additionalProperties": {"type": "string", "description": "a value"},
                 "x-kubernetes-map-type": "granular"},
      "extra": {"type": "object", "additionalProperties": true, "x-kubernetes-preserve-unknown-fields": true},
      "ports": {"type": "array", "items": {"type": "object", "description": "a port",
                "properties": {"port": {"type": "integer"}, "protocol": {"type": "string", "default": "TCP"}},
                "required": ["port"]},
                "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", "protocol"],
                "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "port",
                "x-kubernetes-validations": [{"rule": "self.size() < 10", "message": "too many"}]},
      "size": {"oneOf": [{"type": "integer"}, {"type": "string", "description": "as text"}]}
    },
    "required": ["spec"],
    "x-kubernetes-group-version-kind": [{"group": "apps", "kind": "Deployment", "version": "v1"}],
    "x-kubernetes-unions": [{"discriminator": "type", "fields-to-discriminateBy": {"a": "A"}}]
  })";

const std::string kPodSpec = R"(
  "io.k8s.api.core.v1.PodSpec": {"description": "PodSpec, as %s describes it", "type": "object",
    "properties": {"hostname": {"type": "string", "description": "the %s hostname"}}})";

const std::string kPod = R"(
  "io.k8s.api.core.v1.Pod": {"type": "object", "properties": {"spec": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.core.v1.PodSpec"}]}},
    "x-kubernetes-group-version-kind": [{"group": "", "kind": "Pod", "version": "v1"}]})";

const std::string kCorePaths = R"(
  "/api/v1/namespaces/{namespace}/pods/{name}": {"get": {"x-kubernetes-action": "get",
    "x-kubernetes-group-version-kind": {"group": "", "kind": "Pod", "version": "v1"}}})";

// apimachinery's shapes: named by the kinds of every group (so owned by none), or by none.
const std::string kMachinery = R"(
  "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent": {"type": "object", "x-kubernetes-group-version-kind": [
    {"group": "", "kind": "WatchEvent", "version": "v1"}, {"group": "apps", "kind": "WatchEvent", "version": "v1"}]},
  "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {"type": "object", "description": "metadata",
    "properties": {"name": {"type": "string"}}},
  "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {"type": "string", "format": "int-or-string"})";

std::string pod_spec(const std::string& words) {
  std::string s = kPodSpec;
  for (std::size_t at; (at = s.find("%s")) != std::string::npos;) s.replace(at, 2, words);
  return s;
}

}  // namespace

TEST_CASE("openapi-facts keeps every fact of a schema and drops the prose") {
  Run r({{"/in/apis__apps__v1_openapi.json", document(kDeploymentPaths, kDeployment)}});
  CHECK(r.messages().empty());
  CHECK(r.names() == std::vector<std::string>{"apps-v1.yaml"});
  const std::string text = r.file("apps-v1.yaml");
  CHECK(text.starts_with("# Code generated by rrgen. DO NOT EDIT.\n# Kubernetes API facts, group-version apps/v1:\n"));
  CHECK(text.find("rrgen openapi-facts") != std::string::npos);
  CHECK(text.find("\n#   apis__apps__v1_openapi.json\n") != std::string::npos);  // the basename only
  CHECK(text.find("/in/") == std::string::npos);
  CHECK(r.body("apps-v1.yaml").substr(r.body("apps-v1.yaml").find("components:")) ==
        R"(components:
  schemas:
    io.k8s.api.apps.v1.Deployment:
      type: object
      properties:
        spec:
          allOf:
          - $ref: "#/components/schemas/io.k8s.api.core.v1.PodSpec"
          default: {}
        replicas:
          type: integer
          format: int32
          minimum: 0
          maximum: 1000
          default: 1
        description:
          type: string
          default: ""
          pattern: ^[a-z]+$
          minLength: 1
          maxLength: 63
        paused:
          type: boolean
          default: false
          nullable: true
        mode:
          type: string
          enum:
          - Always
          - "1"
          - "true"
        labels:
          type: object
          additionalProperties:
            type: string
          x-kubernetes-map-type: granular
        extra:
          type: object
          additionalProperties: true
          x-kubernetes-preserve-unknown-fields: true
        ports:
          type: array
          items:
            type: object
            properties:
              port:
                type: integer
              protocol:
                type: string
                default: TCP
            required:
            - port
          x-kubernetes-list-type: map
          x-kubernetes-list-map-keys:
          - port
          - protocol
          x-kubernetes-patch-strategy: merge
          x-kubernetes-patch-merge-key: port
          x-kubernetes-validations:
          - rule: self.size() < 10
            message: too many
        size:
          oneOf:
          - type: integer
          - type: string
      required:
      - spec
      x-kubernetes-group-version-kind:
      - group: apps
        kind: Deployment
        version: v1
      x-kubernetes-unions:
      - discriminator: type
        fields-to-discriminateBy:
          a: A
)");
  CHECK(r.facts.documents == 1);
  CHECK(r.facts.definitions == 1);
  CHECK(r.facts.repeated == 0);
}

TEST_CASE("openapi-facts keeps of paths only each operation's action and group-version-kind") {
  Run r({{"apps.json", document(kDeploymentPaths, kDeployment)}});
  const std::string body = r.body("apps-v1.yaml");
  CHECK(body.substr(0, body.find("components:")) ==
        R"(openapi: "3.0.0"
info:
  title: Kubernetes apps/v1 API facts
  version: unversioned
paths:
  /apis/apps/v1/namespaces/{namespace}/deployments:
    get:
      x-kubernetes-action: list
      x-kubernetes-group-version-kind:
        group: apps
        kind: Deployment
        version: v1
  /apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale:
    put:
      x-kubernetes-action: put
      x-kubernetes-group-version-kind:
        group: autoscaling
        kind: Scale
        version: v1
)");
}

TEST_CASE("openapi-facts writes a definition of several inputs once, in the file of its group-version") {
  Run r({{"api__v1_openapi.json", document(kCorePaths, kPod + "," + pod_spec("core") + "," + kMachinery)},
         {"apis__apps__v1_openapi.json",
          document(kDeploymentPaths, kDeployment + "," + pod_spec("apps") + "," + kMachinery)}});
  CHECK(r.messages().empty());
  CHECK(r.names() == std::vector<std::string>{"apimachinery.yaml", "apps-v1.yaml", "core-v1.yaml"});
  CHECK(r.facts.definitions == 6);
  CHECK(r.facts.repeated == 4);  // PodSpec and the three apimachinery shapes, again in apps/v1
  const std::string core = r.file("core-v1.yaml"), apps = r.file("apps-v1.yaml");
  CHECK(core.find("io.k8s.api.core.v1.PodSpec:") != std::string::npos);
  CHECK(core.find("io.k8s.api.core.v1.Pod:") < core.find("io.k8s.api.core.v1.PodSpec:"));  // input order
  CHECK(apps.find("PodSpec:") == std::string::npos);
  CHECK(apps.find("$ref: \"#/components/schemas/io.k8s.api.core.v1.PodSpec\"") != std::string::npos);
  CHECK(core.find("#   api__v1_openapi.json  apis__apps__v1_openapi.json\n") != std::string::npos);
  CHECK(apps.find("#   apis__apps__v1_openapi.json\n") != std::string::npos);
  CHECK(core.find("/api/v1/namespaces/{namespace}/pods/{name}:") != std::string::npos);
  const std::string machinery = r.body("apimachinery.yaml");
  CHECK(machinery.find("paths: {}") != std::string::npos);
  for (const char* name : {"meta.v1.WatchEvent:", "meta.v1.ObjectMeta:", "intstr.IntOrString:"}) {
    CHECK(machinery.find(name) != std::string::npos);
    CHECK(core.find(name) == std::string::npos);
  }
  // The order given does not matter: inputs are read in the order of their names.
  Run reversed({{"apis__apps__v1_openapi.json",
                 document(kDeploymentPaths, kDeployment + "," + pod_spec("apps") + "," + kMachinery)},
                {"api__v1_openapi.json", document(kCorePaths, kPod + "," + pod_spec("core") + "," + kMachinery)}});
  REQUIRE(reversed.names() == r.names());
  for (const auto& name : r.names()) CHECK(reversed.file(name) == r.file(name));
}

TEST_CASE("openapi-facts rejects a definition two inputs give differently, and writes nothing") {
  std::string other = kPodSpec;
  other.replace(other.find("\"type\": \"string\""), 16, "\"type\": \"integer\"");
  Run r({{"core.json", document(kCorePaths, kPod + "," + pod_spec("one"))},
         {"apps.json", document(kDeploymentPaths, kDeployment + "," + other)}});
  REQUIRE(r.diags.has_errors());
  const auto messages = r.messages();
  REQUIRE(messages.size() == 2);
  // apps.json is read first (inputs are read in the order of their names).
  CHECK(messages[0].starts_with("core.json:"));
  CHECK(messages[0].find(": error: definition 'io.k8s.api.core.v1.PodSpec' differs from its first occurrence: at "
                         "properties.hostname, 'type: string' here, 'type: integer' there [openapi-facts-conflict]") !=
        std::string::npos);
  CHECK(messages[1].starts_with("apps.json:"));
  CHECK(messages[1].find("note: first occurrence") != std::string::npos);
  // Descriptions may differ: only facts are compared.
  Run same({{"core.json", document(kCorePaths, kPod + "," + pod_spec("one"))},
            {"apps.json", document(kDeploymentPaths, kDeployment + "," + pod_spec("two"))}});
  CHECK(same.messages().empty());
}

TEST_CASE("openapi-facts reports what it cannot place or does not know, with its position") {
  Run unknown(
      {{"a.json", document(kCorePaths, R"("io.k8s.api.core.v1.X": {"type": "object", "xml": {"name": "x"}})")}});
  REQUIRE(unknown.messages().size() == 1);
  CHECK(unknown.messages()[0] ==
        "a.json:5:58: error: schema keyword 'xml' is neither a fact the converter keeps nor prose it drops "
        "(load/openapi_facts.cpp) [openapi-facts-unknown-keyword]");

  Run mixed({{"b.json", document(kCorePaths + "," + kDeploymentPaths, kPod)}});
  REQUIRE_FALSE(mixed.messages().empty());
  CHECK(mixed.messages()[0].find("path '/apis/apps/v1/namespaces/{namespace}/deployments' is not under group-version "
                                 "core/v1 like the paths before it [openapi-facts-path]") != std::string::npos);

  Run crd({{"c.yaml", std::string("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n")}});
  REQUIRE(crd.messages().size() == 1);
  CHECK(crd.messages()[0].starts_with("c.yaml:1:1: error: not an OpenAPI v3 document"));
}

TEST_CASE("openapi-facts --proto-root: each property gets its protobuf field") {
  Diagnostics proto_diags;
  const std::map<std::string, ProtoMessage> protos = resolve_proto_types(
      {read_proto(intern_file_name("core.proto"), R"(syntax = "proto2";
package k8s.io.api.core.v1;
message Volume {
  optional string name = 1;
  optional VolumeSource volumeSource = 2;
}
message VolumeSource {
  optional HostPath hostPath = 1;
  map<string, ExtraValue> extra = 2;
  optional string uID = 3;
}
message HostPath {
  optional string path = 1;
}
message ExtraValue {
  repeated string items = 1;
}
message Orphan {
  optional int64 count = 1;
  repeated int32 unused = 2;
}
)",
                  proto_diags)},
      proto_diags);
  REQUIRE_FALSE(proto_diags.has_errors());
  const std::string schemas = R"(
  "io.k8s.api.core.v1.Volume": {"type": "object", "properties": {
      "name": {"type": "string"},
      "hostPath": {"$ref": "#/components/schemas/io.k8s.api.core.v1.HostPath"},
      "extra": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
      "uid": {"type": "string"}}},
  "io.k8s.api.core.v1.HostPath": {"type": "object", "properties": {"path": {"type": "string"}}},
  "io.k8s.api.core.v1.Orphan": {"type": "object", "properties": {"apiVersion": {"type": "string"},
      "count": {"type": "integer"}, "extra": {"type": "string"}}},
  "io.k8s.api.core.v1.NoMessage": {"type": "object", "properties": {"a": {"type": "string"}}})";
  Run run({{"core.json", document(kCorePaths, kPod + "," + kPodSpec + "," + schemas)}}, &protos);
  const std::string core = run.body("core-v1.yaml");
  // Volume's own field; the fields of the Go struct it embeds (VolumeSource, field 2); a map of a
  // message that only wraps a list; a name that differs in case only (Go's UID).
  CHECK(core.find(R"(        name:
          type: string
          x-rrgen-protobuf:
            number: 1
            type: string
        hostPath:
          $ref: "#/components/schemas/io.k8s.api.core.v1.HostPath"
          x-rrgen-protobuf:
            number: 1
            type: k8s.io.api.core.v1.HostPath
            embedded:
            - 2
)") != std::string::npos);
  CHECK(core.find(R"(          x-rrgen-protobuf:
            number: 2
            type: k8s.io.api.core.v1.ExtraValue
            map_key: string
            items: string
            embedded:
            - 2
        uid:
          type: string
          x-rrgen-protobuf:
            number: 3
            type: string
            embedded:
            - 2
)") != std::string::npos);
  // apiVersion and kind are the envelope's; the rest that does not match is reported, once.
  std::vector<std::string> warnings = run.messages();
  CHECK(warnings == std::vector<std::string>{
                        "core.json:6:29: warning: definition 'io.k8s.api.core.v1.Pod' has no proto message "
                        "'k8s.io.api.core.v1.Pod' [openapi-facts-protobuf]",
                        "core.json:8:33: warning: definition 'io.k8s.api.core.v1.PodSpec' has no proto message "
                        "'k8s.io.api.core.v1.PodSpec' [openapi-facts-protobuf]",
                        "core.json:17:37: warning: property 'extra' has no field in proto message "
                        "'k8s.io.api.core.v1.Orphan' [openapi-facts-protobuf]",
                        "core.json:16:65: warning: field 'unused' of proto message 'k8s.io.api.core.v1.Orphan' has no "
                        "property here [openapi-facts-protobuf]",
                        "core.json:18:35: warning: definition 'io.k8s.api.core.v1.NoMessage' has no proto message "
                        "'k8s.io.api.core.v1.NoMessage' [openapi-facts-protobuf]",
                    });
}

TEST_CASE("openapi-facts --proto-root: facts given by hand are checked; a message without fields is marked empty") {
  Diagnostics proto_diags;
  const std::map<std::string, ProtoMessage> protos = resolve_proto_types(
      {read_proto(intern_file_name("meta.proto"), R"(syntax = "proto2";
package k8s.io.apimachinery.pkg.apis.meta.v1;
message Owner {
  optional string name = 3;
  optional Nothing nothing = 4;
}
message Nothing {
}
)",
                  proto_diags)},
      proto_diags);
  REQUIRE_FALSE(proto_diags.has_errors());
  auto schemas = [](const std::string& given) {
    return R"("io.k8s.apimachinery.pkg.apis.meta.v1.Owner": {"type": "object", "properties": {
        "name": {"type": "string", "x-rrgen-protobuf": )" +
           given + R"(},
        "nothing": {"type": "object"}}})";
  };
  Run right({{"meta.json", document(kCorePaths, schemas(R"({"number": 3, "type": "string"})"))}}, &protos);
  CHECK(right.messages().empty());
  const std::string body = right.body("apimachinery.yaml");
  CHECK(body.find("x-rrgen-protobuf:\n            number: 3") != std::string::npos);  // once, as given
  CHECK(
      body.find("number: 4\n            type: k8s.io.apimachinery.pkg.apis.meta.v1.Nothing\n            empty: true") !=
      std::string::npos);
  Run wrong({{"meta.json", document(kCorePaths, schemas(R"({"number": 2, "type": "string"})"))}}, &protos);
  REQUIRE(wrong.messages().size() == 1);
  CHECK(wrong.messages()[0].find("error: x-rrgen-protobuf of property 'name' is not its field in proto message "
                                 "'k8s.io.apimachinery.pkg.apis.meta.v1.Owner', which is:\nnumber: 3\ntype: string\n "
                                 "[openapi-facts-protobuf]") != std::string::npos);
}
