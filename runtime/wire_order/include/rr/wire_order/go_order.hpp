// JSON text with members in the order a Kubernetes API server writes them.
//
// The API server encodes a built-in object with Go's encoding/json: a struct's members come out in
// the order its fields are declared (kind, apiVersion, metadata, spec, status; ObjectMeta's name,
// generateName, namespace, ...). A custom resource is an unstructured map, and encoding/json writes
// map keys sorted, so it comes out alphabetically, as rr::Json's own dump() writes it. The orders
// are derived facts (tools/derive_go_order.py; docs/runtime/19-local-cluster.md#member-order).
#pragma once
#include <string>
#include <string_view>

#include "rr/core/json.hpp"

namespace rr::wire_order {

// `document` as compact JSON, byte for byte what document.dump() writes except for the order of
// members: a kind the API server serves as a Go struct (every built-in kind and its list, Status,
// Table, PartialObjectMetadata(List), List, the discovery documents) in Go field order, members the
// struct does not declare after the declared ones, alphabetically; anything else alphabetically.
// Throws what dump() throws (Json::type_error for a string that is not UTF-8).
std::string dump(const Json& document);
void dump_to(std::string& out, const Json& document);

// `document` written as the Go struct named by its OpenAPI definition (e.g.
// "io.k8s.apimachinery.pkg.version.Info", the /version document, which carries no kind); as dump()
// when the table has no such struct.
std::string dump_as(std::string_view definition, const Json& document);

// One watch event as metav1.WatchEvent writes it: {"type":...,"object":...}.
std::string dump_watch_event(std::string_view type, const Json& object);

// The Go struct (its OpenAPI definition name) an object of this apiVersion and kind is written as;
// empty when it is written alphabetically (a custom resource, an unknown kind).
std::string_view struct_of(std::string_view api_version, std::string_view kind);

}  // namespace rr::wire_order
