// core/v1 ServiceAccount, Namespace and PersistentVolumeClaim, and coordination.k8s.io/v1 Lease
// (pkg/apis/core/validation, pkg/apis/coordination/validation).
#include <optional>
#include <string>

#include "core_kinds.hpp"
#include "kind_util.hpp"
#include "rr/core/quantity.hpp"
#include "rr/validation/label_selector.hpp"
#include "rr/validation/names.hpp"

namespace rr::validation::detail {
namespace {

constexpr std::string_view kBetaStorageClass = "volume.beta.kubernetes.io/storage-class";

std::optional<std::int64_t> pvc_milli_of(const Json& q) {
  if (q.is_string()) return Quantity(q.get<std::string>()).milli_value();
  if (q.is_number()) return Quantity::from_number(q.dump()).milli_value();
  return std::nullopt;
}

std::string pvc_quantity_text(const Json& q) { return q.is_string() ? q.get<std::string>() : q.dump(); }

// A spec as apiequality.Semantic compares it: nil and empty lists and maps alike, quantities by value.
Json semantic_value(const Json& v) {
  if (v.is_object()) {
    Json out = Json::object();
    for (const auto& [k, m] : v.items()) {
      Json n = semantic_value(m);
      if (!n.is_null() && !((n.is_object() || n.is_array()) && n.empty())) out[k] = std::move(n);
    }
    return out;
  }
  if (v.is_array()) {
    Json out = Json::array();
    for (const Json& m : v) out.push_back(semantic_value(m));
    return out;
  }
  return v;
}

Json semantic_spec(const Json& spec) {
  if (!spec.is_object()) return Json::object();  // a spec of another type is the decoder's to refuse
  Json s = semantic_value(spec);
  if (auto resources = s.find("resources"); resources != s.end() && resources->is_object()) {
    for (const char* list : {"requests", "limits"}) {
      auto l = resources->find(list);
      if (l == resources->end() || !l->is_object()) continue;
      for (auto& [k, q] : l->items()) {
        if (auto m = pvc_milli_of(q)) q = *m;
      }
    }
  }
  return s;
}

// The object at a path of objects, or nullptr.
Json* mutable_object_at(Json& root, std::initializer_list<const char*> path) {
  Json* at = &root;
  for (const char* k : path) {
    if (!at->is_object()) return nullptr;
    auto it = at->find(k);
    if (it == at->end()) return nullptr;
    at = &*it;
  }
  return at->is_object() ? at : nullptr;
}

ErrorList data_source(const Json& ref, const std::string& path, bool with_namespace) {
  ErrorList errs;
  if (string_member(ref, "name").empty()) errs.push_back(required(child(path, "name")));
  const std::string_view kind = string_member(ref, "kind");
  if (kind.empty()) errs.push_back(required(child(path, "kind")));
  const std::string_view group = string_member(ref, "apiGroup");
  if (group.empty() && kind != "PersistentVolumeClaim") {
    errs.push_back(invalid(path, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  }
  if (!group.empty()) invalid_each(errs, child(path, "apiGroup"), group, is_dns1123_subdomain(group));
  const std::string_view ns = string_member(ref, "namespace");
  if (with_namespace && !ns.empty()) invalid_each(errs, child(path, "namespace"), ns, is_dns1123_label(ns));
  return errs;
}

ErrorList pvc_spec(const Json& spec) {
  ErrorList errs;
  const std::string path = "spec";
  if (size_at(spec, "accessModes") == 0) {
    errs.push_back(required("spec.accessModes", "at least 1 access mode is required"));
  }
  if (const Json* selector = object_at(spec, "selector"))
    append(errs, validate_label_selector(*selector, "spec.selector"));
  bool once_pod = false;
  bool other = false;
  for (const std::string& mode : string_list(value_at(spec, "accessModes"))) {
    const bool known = mode == "ReadOnlyMany" || mode == "ReadWriteMany" || mode == "ReadWriteOnce" ||
                       mode == "ReadWriteOncePod";
    if (!known) {
      errs.push_back(typed(not_supported("spec.accessModes", mode,
                                         {"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"}),
                           mode));
    }
    if (mode == "ReadWriteOncePod") {
      once_pod = true;
    } else if (known) {
      other = true;
    }
  }
  if (once_pod && other) {
    errs.push_back(forbidden("spec.accessModes", "may not use ReadWriteOncePod with other access modes"));
  }
  const Json* storage = member(value_at(value_at(spec, "resources"), "requests"), "storage");
  const std::string storage_path = "spec.resources[storage]";
  if (!storage) {
    errs.push_back(required(storage_path));
  } else if (auto m = pvc_milli_of(*storage); m && *m <= 0) {
    errs.push_back(invalid(storage_path, pvc_quantity_text(*storage), "must be greater than zero"));
  }
  if (const Json* sc = member(spec, "storageClassName"); sc && sc->is_string() && !sc->get<std::string>().empty()) {
    invalid_each(errs, "spec.storageClassName", sc->get<std::string>(), is_dns1123_subdomain(sc->get<std::string>()));
  }
  if (const Json* mode = member(spec, "volumeMode"); mode && mode->is_string()) {
    const std::string& m = mode->get_ref<const std::string&>();
    if (m != "Block" && m != "Filesystem") {
      errs.push_back(typed(not_supported("spec.volumeMode", m, {"Block", "Filesystem"}), m));
    }
  }
  const Json* source = object_at(spec, "dataSource");
  const Json* source_ref = object_at(spec, "dataSourceRef");
  if (source) append(errs, data_source(*source, "spec.dataSource", false));
  if (source_ref) append(errs, data_source(*source_ref, "spec.dataSourceRef", true));
  if (source_ref && !string_member(*source_ref, "namespace").empty()) {
    // Upstream shows a *field.Path as the value, which encoding/json writes as {}.
    if (source)
      errs.push_back(invalid_json(path, "{}", "may not be specified when dataSourceRef.namespace is specified"));
  } else if (source && source_ref) {
    const bool same = value_at(*source, "apiGroup") == value_at(*source_ref, "apiGroup") &&
                      string_member(*source, "kind") == string_member(*source_ref, "kind") &&
                      string_member(*source, "name") == string_member(*source_ref, "name");
    if (!same) errs.push_back(invalid_json(path, "{}", "must match dataSourceRef"));
  }
  if (const Json* vac = member(spec, "volumeAttributesClassName");
      vac && vac->is_string() && !vac->get<std::string>().empty()) {
    invalid_each(errs, "spec.volumeAttributesClassName", vac->get<std::string>(),
                 is_dns1123_subdomain(vac->get<std::string>()));
  }
  return errs;
}

}  // namespace

// ValidateServiceAccount checks nothing beyond ObjectMeta (the name is a DNS subdomain).
ErrorList validate_service_account(const Json&) { return {}; }
ErrorList validate_service_account_update(const Json&, const Json&) { return {}; }

// spec.finalizers: each a qualified name and, without a '/', a standard one. Upstream reports them at
// the list's path, not the element's.
ErrorList validate_namespace(const Json& ns) {
  ErrorList errs;
  for (const std::string& f : string_list(value_at(value_at(ns, "spec"), "finalizers"))) {
    invalid_each(errs, "spec.finalizers", f, is_qualified_name(f));
    if (f.find('/') == std::string::npos && f != "kubernetes" && f != "orphan" && f != "foregroundDeletion") {
      errs.push_back(
          invalid("spec.finalizers", f, "name is neither a standard finalizer name nor is it fully qualified"));
    }
  }
  return errs;
}
// An update keeps the stored spec.finalizers (the namespace strategy restores them), so only
// ObjectMeta is validated.
ErrorList validate_namespace_update(const Json&, const Json&) { return {}; }

ErrorList validate_pvc(const Json& pvc) { return pvc_spec(value_at(pvc, "spec")); }

ErrorList validate_pvc_update(const Json& pvc, const Json& old) {
  ErrorList errs = validate_pvc(pvc);
  const Json& spec = value_at(pvc, "spec");
  const Json& old_spec = value_at(old, "spec");
  Json now = semantic_spec(spec);
  Json before = semantic_spec(old_spec);
  // volumeName may be set once (the PV controller binds the claim).
  if (string_member(old_spec, "volumeName").empty()) {
    if (now.contains("volumeName")) {
      before["volumeName"] = now["volumeName"];
    } else {
      before.erase("volumeName");
    }
  }
  // The beta storage-class annotation may turn into storageClassName once; otherwise it is immutable.
  const Json& annotations = value_at(value_at(pvc, "metadata"), "annotations");
  const Json& old_annotations = value_at(value_at(old, "metadata"), "annotations");
  const Json* old_sc_annotation = member(old_annotations, kBetaStorageClass);
  const Json* new_sc_annotation = member(annotations, kBetaStorageClass);
  const Json* sc = member(spec, "storageClassName");
  const bool old_sc_unset = !is_set(old_spec, "storageClassName");
  const std::string old_annotation_value(string_member(old_annotations, kBetaStorageClass));
  if (old_sc_annotation && old_sc_unset && sc && sc->is_string() && sc->get<std::string>() == old_annotation_value &&
      (!new_sc_annotation || string_member(annotations, kBetaStorageClass) == old_annotation_value)) {
    now.erase("storageClassName");
  } else {
    if (string_member(annotations, kBetaStorageClass) != old_annotation_value) {
      errs.push_back(invalid("metadata.annotations." + std::string(kBetaStorageClass),
                             string_member(annotations, kBetaStorageClass), "field is immutable"));
    }
    if (sc && sc->is_string() && old_sc_unset &&
        (!old_sc_annotation || sc->get<std::string>() == old_annotation_value)) {
      now.erase("storageClassName");
    }
  }
  // A bound claim may grow (and change its volume attributes class).
  if (string_member(value_at(pvc, "status"), "phase") == "Bound") {
    Json* requests = mutable_object_at(now, {"resources", "requests"});
    const Json* old_requests = mutable_object_at(before, {"resources", "requests"});
    if (requests) {
      if (old_requests && old_requests->contains("storage")) {
        (*requests)["storage"] = old_requests->at("storage");
      } else {
        requests->erase("storage");
      }
    }
    if (now.contains("volumeAttributesClassName")) {
      if (before.contains("volumeAttributesClassName")) {
        now["volumeAttributesClassName"] = before["volumeAttributesClassName"];
      } else {
        now.erase("volumeAttributesClassName");
      }
    }
  }
  if (now != before) {
    // Upstream appends cmp.Diff of the two specs, which is not reproduced here.
    errs.push_back(forbidden("spec", "spec is immutable after creation except resources.requests and "
                                     "volumeAttributesClassName for bound claims\n"));
  }
  const Json* new_size = member(value_at(value_at(spec, "resources"), "requests"), "storage");
  const Json* old_size = member(value_at(value_at(old_spec, "resources"), "requests"), "storage");
  const Json* status_size = member(value_at(value_at(old, "status"), "capacity"), "storage");
  const std::int64_t n = new_size ? pvc_milli_of(*new_size).value_or(0) : 0;
  const std::int64_t o = old_size ? pvc_milli_of(*old_size).value_or(0) : 0;
  const std::int64_t c = status_size ? pvc_milli_of(*status_size).value_or(0) : 0;
  // RecoverVolumeExpansionFailure (on in 1.35): a claim may shrink back, but not to its capacity.
  if (n < o && n <= c) {
    errs.push_back(forbidden("spec.resources.requests.storage", "field can not be less than status.capacity"));
  }
  immutable_field(errs, value_at(spec, "volumeMode"), value_at(old_spec, "volumeMode"), "volumeMode");
  const Json& vac = value_at(spec, "volumeAttributesClassName");
  if (vac != value_at(old_spec, "volumeAttributesClassName") && is_set(old_spec, "volumeAttributesClassName")) {
    if (vac.is_null()) {
      errs.push_back(forbidden("spec.volumeAttributesClassName", "update from non-nil value to nil is forbidden"));
    } else if (vac.is_string() && vac.get<std::string>().empty()) {
      errs.push_back(
          forbidden("spec.volumeAttributesClassName", "update from non-nil value to an empty string is forbidden"));
    }
  }
  return errs;
}

ErrorList validate_lease(const Json& lease) {
  ErrorList errs;
  const Json& spec = value_at(lease, "spec");
  if (auto d = int_at(spec, "leaseDurationSeconds"); d && *d <= 0) {
    errs.push_back(invalid_int("spec.leaseDurationSeconds", *d, "must be greater than 0"));
  }
  if (auto t = int_at(spec, "leaseTransitions"); t && *t < 0) {
    errs.push_back(invalid_int("spec.leaseTransitions", *t, "must be greater than or equal to 0"));
  }
  const Json* strategy = member(spec, "strategy");
  if (strategy && strategy->is_string()) {
    // Upstream passes spec.strategy and adds "strategy" again: the path says it twice.
    const std::string& s = strategy->get_ref<const std::string&>();
    if (s.find('/') == std::string::npos) {
      if (s != "OldestEmulationVersion") {
        errs.push_back(typed(not_supported("spec.strategy.strategy", s, {"OldestEmulationVersion"}), s));
      }
    } else {
      for (std::string& m : is_qualified_name(s)) {
        errs.push_back(typed(invalid("spec.strategy.strategy", s, std::move(m)), s));
      }
    }
  }
  const std::string_view holder = string_member(spec, "preferredHolder");
  if (!holder.empty() && string_member(spec, "strategy").empty()) {
    errs.push_back(forbidden("spec.preferredHolder", "may only be specified if `strategy` is defined"));
  }
  return errs;
}
ErrorList validate_lease_update(const Json& lease, const Json&) { return validate_lease(lease); }

}  // namespace rr::validation::detail
