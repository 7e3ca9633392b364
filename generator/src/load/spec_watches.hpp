// The spec's predicates, watches and reconcile timeout (docs/reconciler-spec.md#predicates-and-watches)
// as written: `predicates:` on the resource and on each step, `watches:` of other kinds mapped to
// requests by a hook, and `reconcileTimeout:` (a Go duration). Kinds are only parsed here.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "load/spec.hpp"
#include "load/yaml_node.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

// A `predicates:` list; reports spec-wrong-type, spec-unknown-key, spec-bad-predicate and
// spec-bad-name, skipping the entries in error.
std::vector<SpecPredicate> read_spec_predicates(const Node& n, Diagnostics& diags);
// `watches:`; the same reports, and spec-missing-key for a watch without `kind` or `map`.
std::vector<SpecWatch> read_spec_watches(const Node& n, Diagnostics& diags);
// `reconcileTimeout:` into spec.reconcile_timeout(_ns); reports spec-wrong-type and spec-bad-duration.
void read_spec_reconcile_timeout(const Node& n, ReconcilerSpec& spec, Diagnostics& diags);

// A metav1.LabelSelector ({matchLabels, matchExpressions}) written under `key_name`, as the string
// grammar ("team=a,env in (prod)"); nullopt after reporting spec-wrong-type, spec-unknown-key or
// spec-bad-predicate (bad keys, values and operators; an empty selector, with `if_empty` as the hint).
std::optional<std::string> read_spec_label_selector(const Node& n, std::string_view key_name, std::string_view if_empty,
                                                    Diagnostics& diags);

// Go's time.ParseDuration ("30s", "1m30s", "1.5h", "250ms", "0"), in nanoseconds; nullopt with
// `why` set when the text is not one or overflows.
std::optional<std::int64_t> parse_go_duration(std::string_view text, std::string& why);

// The top-level keys this file reads, in documentation order: predicates, watches, reconcileTimeout.
const std::vector<std::string>& spec_watches_top_level_keys();
// The predicates written as a name, in documentation order.
const std::vector<std::string>& spec_predicate_names();
// The keys of a predicate written as a mapping, of a watch, of a labelSelector and of one of its
// matchExpressions, in documentation order (the JSON Schema test compares them with the schema).
const std::vector<std::string>& spec_predicate_keys();   // labelSelector, hook
const std::vector<std::string>& spec_watch_keys();       // kind, map, predicates, metadataOnly
const std::vector<std::string>& spec_selector_keys();    // matchLabels, matchExpressions
const std::vector<std::string>& spec_expression_keys();  // key, operator, values

}  // namespace rrgen
