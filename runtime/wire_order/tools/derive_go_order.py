#!/usr/bin/env python3
"""Derives the member order the API server writes for each Go struct, as a C++ table.

The API server writes a built-in object with Go's encoding/json, which emits a struct's members in
the order its fields are declared. Kubernetes' round-trip fixtures (k8s.io/api testdata/HEAD/*.json)
are written by that encoder with every field filled, so they show the order of every struct reachable
from a kind. The OpenAPI v3 documents tell which struct (definition) each member holds, so the order
is recorded per definition, not per path: a PodSpec is one row whether it sits in a Pod or in a
Deployment's template.

The apimachinery types no fixture holds (Status, the lists, Table, discovery documents) are given
below from k8s.io/apimachinery pkg/apis/meta/v1/types.go (field order of the structs there); where a
fixture holds one too (APIGroup, APIVersions), the two are checked against each other. So are the
CustomResourceDefinition and APIService types, from their repositories' types.go.

    derive_go_order.py --openapi DIR --fixtures DIR --out FILE    write the table
    derive_go_order.py --openapi DIR --fixtures DIR --check FILE  fail unless FILE is what it would write
"""
import argparse
import glob
import json
import os
import re
import sys

META = "io.k8s.apimachinery.pkg.apis.meta.v1."
RAW = "io.k8s.apimachinery.pkg.runtime.RawExtension"
SCHEMA = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps"

# Struct order from apimachinery's types.go: (member, child definition, shape). TypeMeta is inlined
# first (kind, apiVersion) wherever a struct embeds it.
LEAF, STRUCT, MAP, EMBEDDED = "Leaf", "Struct", "Map", "Embedded"
TYPE_META = [("kind", None, LEAF), ("apiVersion", None, LEAF)]
META_STRUCTS = {
    META + "ListMeta": [("selfLink", None, LEAF), ("resourceVersion", None, LEAF), ("continue", None, LEAF),
                        ("remainingItemCount", None, LEAF)],
    META + "Status": TYPE_META + [("metadata", META + "ListMeta", STRUCT), ("status", None, LEAF),
                                  ("message", None, LEAF), ("reason", None, LEAF),
                                  ("details", META + "StatusDetails", STRUCT), ("code", None, LEAF)],
    META + "StatusDetails": [("name", None, LEAF), ("group", None, LEAF), ("kind", None, LEAF), ("uid", None, LEAF),
                             ("causes", META + "StatusCause", STRUCT), ("retryAfterSeconds", None, LEAF)],
    META + "StatusCause": [("reason", None, LEAF), ("message", None, LEAF), ("field", None, LEAF)],
    META + "List": TYPE_META + [("metadata", META + "ListMeta", STRUCT), ("items", None, EMBEDDED)],
    META + "APIVersions": TYPE_META + [("versions", None, LEAF),
                                       ("serverAddressByClientCIDRs", META + "ServerAddressByClientCIDR", STRUCT)],
    META + "APIGroupList": TYPE_META + [("groups", META + "APIGroup", STRUCT)],
    META + "APIGroup": TYPE_META + [("name", None, LEAF), ("versions", META + "GroupVersionForDiscovery", STRUCT),
                                    ("preferredVersion", META + "GroupVersionForDiscovery", STRUCT),
                                    ("serverAddressByClientCIDRs", META + "ServerAddressByClientCIDR", STRUCT)],
    META + "ServerAddressByClientCIDR": [("clientCIDR", None, LEAF), ("serverAddress", None, LEAF)],
    META + "GroupVersionForDiscovery": [("groupVersion", None, LEAF), ("version", None, LEAF)],
    META + "APIResourceList": TYPE_META + [("groupVersion", None, LEAF), ("resources", META + "APIResource", STRUCT)],
    META + "APIResource": [("name", None, LEAF), ("singularName", None, LEAF), ("namespaced", None, LEAF),
                           ("group", None, LEAF), ("version", None, LEAF), ("kind", None, LEAF), ("verbs", None, LEAF),
                           ("shortNames", None, LEAF), ("categories", None, LEAF),
                           ("storageVersionHash", None, LEAF)],
    META + "Table": TYPE_META + [("metadata", META + "ListMeta", STRUCT),
                                 ("columnDefinitions", META + "TableColumnDefinition", STRUCT),
                                 ("rows", META + "TableRow", STRUCT)],
    META + "TableColumnDefinition": [("name", None, LEAF), ("type", None, LEAF), ("format", None, LEAF),
                                     ("description", None, LEAF), ("priority", None, LEAF)],
    META + "TableRow": [("cells", None, LEAF), ("conditions", META + "TableRowCondition", STRUCT),
                        ("object", None, EMBEDDED)],
    META + "TableRowCondition": [("type", None, LEAF), ("status", None, LEAF), ("reason", None, LEAF),
                                 ("message", None, LEAF)],
    META + "PartialObjectMetadata": TYPE_META + [("metadata", META + "ObjectMeta", STRUCT)],
    META + "PartialObjectMetadataList": TYPE_META + [("metadata", META + "ListMeta", STRUCT),
                                                     ("items", META + "PartialObjectMetadata", STRUCT)],
    # k8s.io/apimachinery pkg/version/types.go: the /version document (no kind: wire_order::dump_as).
    "io.k8s.apimachinery.pkg.version.Info": [
        (name, None, LEAF) for name in ("major", "minor", "emulationMajor", "emulationMinor", "minCompatibilityMajor",
                                        "minCompatibilityMinor", "gitVersion", "gitCommit", "gitTreeState",
                                        "buildDate", "goVersion", "compiler", "platform")],
}
# The kinds those are served as (apiVersion, kind); a built-in list such as PodList is found from the
# OpenAPI documents instead.
META_ROOTS = [("v1", "Status", "Status"), ("v1", "List", "List"), ("v1", "APIVersions", "APIVersions"),
              ("v1", "APIGroupList", "APIGroupList"), ("v1", "APIGroup", "APIGroup"),
              ("v1", "APIResourceList", "APIResourceList")] + [
    (v, k, k) for v in ("meta.k8s.io/v1", "meta.k8s.io/v1beta1")
    for k in ("Table", "PartialObjectMetadata", "PartialObjectMetadataList")]
# Fixtures of apimachinery kinds (filed under core/v1), checked against META_STRUCTS.
META_FIXTURES = {"core.v1.APIGroup": META + "APIGroup", "core.v1.APIVersions": META + "APIVersions"}
# Every built-in list type is TypeMeta, ListMeta `metadata`, Items `items`.
LIST_ORDER = ["kind", "apiVersion", "metadata", "items"]


# Kinds of the two other API servers kube-apiserver embeds, which k8s.io/api's fixtures do not cover:
# the field order of k8s.io/apiextensions-apiserver v0.35.7 pkg/apis/apiextensions/v1/types.go and
# types_jsonschema.go, and k8s.io/kube-aggregator v0.35.6 pkg/apis/apiregistration/v1/types.go (each
# checked against its definition's properties below, so a member missed or misspelt fails).
AE = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1."
AGG = "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1."
SOURCE_ORDERS = {
    AE + "CustomResourceDefinition": ["kind", "apiVersion", "metadata", "spec", "status"],
    AE + "CustomResourceDefinitionSpec": ["group", "names", "scope", "versions", "conversion", "preserveUnknownFields"],
    AE + "CustomResourceConversion": ["strategy", "webhook"],
    AE + "WebhookConversion": ["clientConfig", "conversionReviewVersions"],
    AE + "WebhookClientConfig": ["url", "service", "caBundle"],
    AE + "ServiceReference": ["namespace", "name", "path", "port"],
    AE + "CustomResourceDefinitionVersion": ["name", "served", "storage", "deprecated", "deprecationWarning", "schema",
                                             "subresources", "additionalPrinterColumns", "selectableFields"],
    AE + "SelectableField": ["jsonPath"],
    AE + "CustomResourceColumnDefinition": ["name", "type", "format", "description", "priority", "jsonPath"],
    AE + "CustomResourceDefinitionNames": ["plural", "singular", "shortNames", "kind", "listKind", "categories"],
    AE + "CustomResourceDefinitionCondition": ["type", "status", "lastTransitionTime", "reason", "message",
                                               "observedGeneration"],
    AE + "CustomResourceDefinitionStatus": ["conditions", "acceptedNames", "storedVersions", "observedGeneration"],
    AE + "CustomResourceValidation": ["openAPIV3Schema"],
    AE + "CustomResourceSubresources": ["status", "scale"],
    AE + "CustomResourceSubresourceScale": ["specReplicasPath", "statusReplicasPath", "labelSelectorPath"],
    AE + "JSONSchemaProps": [
        "id", "$schema", "$ref", "description", "type", "format", "title", "default", "maximum", "exclusiveMaximum",
        "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems",
        "multipleOf", "enum", "maxProperties", "minProperties", "required", "items", "allOf", "oneOf", "anyOf", "not",
        "properties", "additionalProperties", "patternProperties", "dependencies", "additionalItems", "definitions",
        "externalDocs", "example", "nullable", "x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource",
        "x-kubernetes-int-or-string", "x-kubernetes-list-map-keys", "x-kubernetes-list-type", "x-kubernetes-map-type",
        "x-kubernetes-validations"],
    AE + "ValidationRule": ["rule", "message", "messageExpression", "reason", "fieldPath", "optionalOldSelf"],
    AE + "ExternalDocumentation": ["description", "url"],
    AGG + "APIService": ["kind", "apiVersion", "metadata", "spec", "status"],
    AGG + "APIServiceSpec": ["service", "group", "version", "insecureSkipTLSVerify", "caBundle", "groupPriorityMinimum",
                             "versionPriority"],
    AGG + "ServiceReference": ["namespace", "name", "port"],
    AGG + "APIServiceStatus": ["conditions"],
    AGG + "APIServiceCondition": ["type", "status", "lastTransitionTime", "reason", "message"],
}


def ref_of(schema):
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    for part in schema.get("allOf", []):
        if "$ref" in part:
            return part["$ref"].rsplit("/", 1)[-1]
    return None


def load_definitions(openapi_dir):
    defs = {}
    files = sorted(glob.glob(os.path.join(openapi_dir, "*.json")))
    if not files:
        sys.exit(f"derive_go_order: no *.json in {openapi_dir}")
    for path in files:
        with open(path, encoding="utf-8") as f:
            defs.update(json.load(f)["components"]["schemas"])
    return defs


def edge(defs, schema):
    """(child definition, shape) of a property schema."""
    shape = STRUCT
    if schema.get("type") == "array" and "items" in schema:
        schema = schema["items"]
    elif isinstance(schema.get("additionalProperties"), dict):
        schema, shape = schema["additionalProperties"], MAP
    ref = ref_of(schema)
    if ref is None:
        return None, LEAF
    if ref == RAW:
        return None, EMBEDDED if shape == STRUCT else LEAF
    if ref.startswith(SCHEMA + "Or"):  # JSONSchemaPropsOrArray/OrBool/OrStringArray: a schema when an object
        ref = SCHEMA
    if "properties" not in defs.get(ref, {}):
        return None, LEAF  # Quantity, Time, IntOrString, FieldsV1, JSON: written as one value
    return ref, shape


class Deriver:
    def __init__(self, defs):
        self.defs = defs
        self.orders = {}  # definition -> member names in Go order
        self.problems = []

    def record(self, name, keys, where):
        seen = self.orders.get(name)
        if seen is None or len(keys) > len(seen):
            longer, shorter = keys, seen or []
        else:
            longer, shorter = seen, keys
        common = [k for k in longer if k in shorter]
        if common != [k for k in shorter if k in longer]:
            self.problems.append(f"{where}: {name} members in another order than elsewhere")
        self.orders[name] = list(longer) + [k for k in shorter if k not in longer]

    def walk(self, name, value, where):
        if isinstance(value, list):
            for item in value:
                self.walk(name, item, where)
            return
        if not isinstance(value, dict):
            return
        self.record(name, list(value), where)
        props = self.defs[name].get("properties", {})
        for key, member in value.items():
            if key not in props:
                self.problems.append(f"{where}: {name} has no property {key}")
                continue
            child, shape = edge(self.defs, props[key])
            if child is None:
                continue
            if shape == MAP and isinstance(member, dict):
                for item in member.values():
                    self.walk(child, item, where)
            else:
                self.walk(child, member, where)


def fixture_kind(path):
    parts = os.path.basename(path)[: -len(".json")].split(".")
    group = ".".join(parts[:-2])
    return ("" if group == "core" else group), parts[-2], parts[-1]


def derive(openapi_dir, fixtures_dir):
    defs = load_definitions(openapi_dir)
    by_gvk = {}
    for name, schema in defs.items():
        for gvk in schema.get("x-kubernetes-group-version-kind", []):
            by_gvk[(gvk["group"], gvk["version"], gvk["kind"])] = name
    deriver = Deriver(defs)
    fixtures = sorted(glob.glob(os.path.join(fixtures_dir, "*.json")))
    if not fixtures:
        sys.exit(f"derive_go_order: no *.json in {fixtures_dir}")
    used = 0
    for path in fixtures:
        stem = os.path.basename(path)[: -len(".json")]
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        if stem in META_FIXTURES:
            want = [m[0] for m in META_STRUCTS[META_FIXTURES[stem]]]
            if [k for k in want if k in document] != list(document):
                deriver.problems.append(f"{stem}: types.go order {want} is not the fixture's {list(document)}")
            used += 1
            continue
        root = by_gvk.get(fixture_kind(path))
        if root is None:
            continue  # a version 1.35 does not serve (apps/v1beta1, extensions, ...): the local cluster never writes it
        deriver.walk(root, document, stem)
        used += 1
    for name, order in SOURCE_ORDERS.items():
        if sorted(order) != sorted(defs[name].get("properties", {})):
            deriver.problems.append(f"{name}: the types.go order given does not name its properties")
        elif name in deriver.orders and deriver.orders[name] != order:
            deriver.problems.append(f"{name}: the fixtures' order is not types.go's")
        deriver.orders[name] = list(order)
    if deriver.problems:
        sys.exit("derive_go_order:\n  " + "\n  ".join(deriver.problems))

    structs = {}  # definition -> [(member, child, shape)]
    for name, order in deriver.orders.items():
        props = defs[name]["properties"]
        structs[name] = [(key,) + edge(defs, props[key]) for key in order]
    for name, schema in defs.items():  # the lists of the served kinds
        if (name.endswith("List") and schema.get("x-kubernetes-group-version-kind")
                and sorted(schema.get("properties", {})) == sorted(LIST_ORDER)):
            item, _ = edge(defs, schema["properties"]["items"])
            if item in structs:
                structs[name] = [(k, None, LEAF) for k in LIST_ORDER[:2]] + [
                    ("metadata", META + "ListMeta", STRUCT), ("items", item, STRUCT)]
    for name, members in META_STRUCTS.items():
        if name in structs and [m[0] for m in structs[name]] != [m[0] for m in members]:
            sys.exit(f"derive_go_order: {name}: the fixtures' order is not types.go's")
        structs.setdefault(name, members)
    missing = {name: [k for k in defs[name].get("properties", {}) if k not in deriver.orders[name]]
               for name in deriver.orders}
    roots = {}
    for (group, version, kind), name in by_gvk.items():
        # A watch event carries no kind of its own on the wire (the GVKs OpenAPI gives it are for its
        # registration in every group): the writer's dump_watch_event writes it.
        if name in structs and kind != "WatchEvent":
            roots[(f"{group}/{version}" if group else version, kind)] = name
    for api_version, kind, short in META_ROOTS:
        roots[(api_version, kind)] = META + short
    return structs, roots, used, len(fixtures), {k: v for k, v in missing.items() if v}


def emit(structs, roots, used, total):
    names = sorted(structs)
    index = {name: i for i, name in enumerate(names)}
    out = ["// Generated by runtime/wire_order/tools/derive_go_order.py (docs/runtime/19-local-cluster.md#member-order);",
           "// do not edit. Facts only: each Go struct's members in the order encoding/json writes them, from",
           f"// {used} of Kubernetes 1.35's {total} JSON round-trip fixtures, the OpenAPI documents' definitions and",
           "// apimachinery's meta/v1 types.go.",
           "// clang-format off",
           "#pragma once",
           '#include "facts.hpp"',
           "",
           "namespace rr::wire_order::facts {",
           "",
           "inline constexpr Member kMembers[] = {"]
    first, spans, by_name = 0, [], []
    for name in names:
        members = structs[name]
        out.append(f"    // {name}")
        for key, child, shape in members:
            if not re.fullmatch(r"[A-Za-z0-9$-]+", key):  # the writer copies declared names unescaped
                sys.exit(f"derive_go_order: {name}: member name {key!r} would need escaping")
            out.append(f'    {{"{key}", {index[child] if child in index else -1}, Shape::{shape}}},')
        spans.append((name, first, len(members)))
        by_name.extend(sorted(range(len(members)), key=lambda i: members[i][0]))
        first += len(members)
    out.append("};")
    out.append("")
    out.append("inline constexpr Struct kStructs[] = {")
    for name, begin, count in spans:
        out.append(f'    {{"{name}", {begin}, {count}}},')
    out.append("};")
    out.append("")
    out.append("// Per struct, its members' positions sorted by name (binary search by name).")
    out.append("inline constexpr std::uint16_t kByName[] = {")
    for i in range(0, len(by_name), 20):
        out.append("    " + ", ".join(str(x) for x in by_name[i:i + 20]) + ",")
    out.append("};")
    out.append("")
    out.append("// (apiVersion, kind) -> struct, sorted.")
    out.append("inline constexpr Root kRoots[] = {")
    for (api_version, kind) in sorted(roots):
        out.append(f'    {{"{api_version}", "{kind}", {index[roots[(api_version, kind)]]}}},')
    out.append("};")
    out.append("")
    out.append("}  // namespace rr::wire_order::facts")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--openapi", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--verbose", action="store_true", help="list the members no fixture shows")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--out")
    group.add_argument("--check")
    args = parser.parse_args()
    structs, roots, used, total, missing = derive(args.openapi, args.fixtures)
    text = emit(structs, roots, used, total)
    print(f"derive_go_order: {len(structs)} structs, {sum(len(m) for m in structs.values())} members, "
          f"{len(roots)} kinds, from {used} of {total} fixtures; {sum(len(v) for v in missing.values())} "
          f"members of {len(missing)} structs in no fixture")
    if args.verbose:
        for name, keys in sorted(missing.items()):
            print(f"  {name}: {', '.join(keys)}")
    if args.check:
        with open(args.check, encoding="utf-8") as f:
            if f.read() != text:
                sys.exit(f"derive_go_order: {args.check} is not what the fixtures give now; re-run with --out")
        print("derive_go_order: up to date")
        return
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
