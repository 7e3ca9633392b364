// ValidateObjectMetaAccessor and the pieces it calls (k8s.io/apimachinery/pkg/api/validation
// objectmeta.go, pkg/apis/meta/v1/validation), in upstream's order so causes come out in the same order.
#include "rr/validation/object_meta.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "common.hpp"
#include "go_text.hpp"
#include "printable.hpp"
#include "rr/core/go_quote.hpp"

namespace rr::validation {
namespace {

using detail::append;
using detail::child;
using detail::member;
using detail::string_member;

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// schema.FromAPIVersionAndKind(...).Version: "" for "", "/", "a/" and anything with two slashes.
std::string_view version_of(std::string_view api_version) {
  if (api_version.empty() || api_version == "/") return {};
  const std::size_t slash = api_version.find('/');
  if (slash == std::string_view::npos) return api_version;
  if (api_version.find('/', slash + 1) != std::string_view::npos) return {};
  return api_version.substr(slash + 1);
}
std::string_view group_of(std::string_view api_version) {
  const std::size_t slash = api_version.find('/');
  if (slash == std::string_view::npos || api_version.find('/', slash + 1) != std::string_view::npos) return {};
  return api_version.substr(0, slash);
}

// json.Marshal of a metav1.OwnerReference: its Go field order, the pointers omitted when unset.
std::string owner_reference_json(const Json& ref) {
  std::string s = "{\"apiVersion\":" + detail::go_json_string(string_member(ref, "apiVersion")) +
                  ",\"kind\":" + detail::go_json_string(string_member(ref, "kind")) +
                  ",\"name\":" + detail::go_json_string(string_member(ref, "name")) +
                  ",\"uid\":" + detail::go_json_string(string_member(ref, "uid"));
  for (const char* flag : {"controller", "blockOwnerDeletion"}) {
    if (const Json* v = member(ref, flag); v && v->is_boolean()) {
      s += ",\"" + std::string(flag) + "\":" + (v->get<bool>() ? "true" : "false");
    }
  }
  return s + "}";
}

}  // namespace

ErrorList validate_labels(const Json& labels, std::string_view path) {
  ErrorList errs;
  if (!labels.is_object()) return errs;
  for (const auto& [key, value] : labels.items()) {
    for (std::string& m : is_qualified_name(key)) errs.push_back(invalid(std::string(path), key, std::move(m)));
    if (!value.is_string()) continue;
    const std::string& v = value.get_ref<const std::string&>();
    for (std::string& m : is_valid_label_value(v)) errs.push_back(invalid(std::string(path), v, std::move(m)));
  }
  return errs;
}

ErrorList validate_annotations(const Json& annotations, std::string_view path) {
  ErrorList errs;
  if (!annotations.is_object()) return errs;
  std::int64_t total = 0;
  for (const auto& [key, value] : annotations.items()) {
    // A qualified name, except that case does not matter.
    for (std::string& m : is_qualified_name(lower(key))) errs.push_back(invalid(std::string(path), key, std::move(m)));
    total += static_cast<std::int64_t>(key.size());
    if (value.is_string()) total += static_cast<std::int64_t>(value.get_ref<const std::string&>().size());
  }
  if (total > kTotalAnnotationSizeLimitB) errs.push_back(too_long(std::string(path), kTotalAnnotationSizeLimitB));
  return errs;
}

ErrorList validate_owner_references(const Json& owner_references, std::string_view path) {
  ErrorList errs;
  if (!owner_references.is_array()) return errs;
  std::string first_controller;
  for (const Json& ref : owner_references) {
    if (!ref.is_object()) continue;
    const std::string_view api_version = string_member(ref, "apiVersion");
    const std::string_view kind = string_member(ref, "kind");
    // The findings name the list, not the element: upstream passes the list's path down.
    if (version_of(api_version).empty()) {
      errs.push_back(invalid(child(path, "apiVersion"), api_version, "version must not be empty"));
    }
    if (kind.empty()) errs.push_back(invalid(child(path, "kind"), kind, "must not be empty"));
    if (string_member(ref, "name").empty()) errs.push_back(invalid(child(path, "name"), "", "must not be empty"));
    if (string_member(ref, "uid").empty()) {
      errs.push_back(invalid_json(child(path, "uid"), "\"\"", "must not be empty"));
    }
    // BannedOwners: a core/v1 Event may not own anything.
    if (group_of(api_version).empty() && version_of(api_version) == "v1" && kind == "Event") {
      errs.push_back(invalid_json(std::string(path), owner_reference_json(ref),
                                  "/v1, Kind=Event is disallowed from being an owner"));
    }
    const Json* controller = member(ref, "controller");
    if (controller && controller->is_boolean() && controller->get<bool>()) {
      const std::string name = std::string(kind) + "/" + std::string(string_member(ref, "name"));
      if (first_controller.empty()) {
        first_controller = name;
      } else {
        std::string all = "[";
        for (const Json& r : owner_references) all += (all.size() > 1 ? "," : "") + owner_reference_json(r);
        errs.push_back(
            invalid_json(std::string(path), all + "]",
                         "Only one reference can have Controller set to true. Found \"true\" in references for " +
                             first_controller + " and " + name));
      }
    }
  }
  return errs;
}

ErrorList validate_finalizers(const Json& finalizers, std::string_view path) {
  ErrorList errs;
  const std::vector<std::string> names = detail::string_list(finalizers);
  bool orphan = false;
  bool foreground = false;
  for (const std::string& f : names) {
    for (std::string& m : is_qualified_name(f)) errs.push_back(invalid(std::string(path), f, std::move(m)));
    orphan = orphan || f == "orphan";
    foreground = foreground || f == "foregroundDeletion";
  }
  if (orphan && foreground) {
    errs.push_back(invalid_json(std::string(path), detail::go_json_string_list(names),
                                "finalizer orphan and foregroundDeletion cannot be both set"));
  }
  return errs;
}

ErrorList validate_kube_finalizer_names(const Json& finalizers, std::string_view path) {
  ErrorList errs;
  if (!finalizers.is_array()) return errs;
  for (std::size_t i = 0; i < finalizers.size(); ++i) {
    if (!finalizers[i].is_string()) continue;
    const std::string& f = finalizers[i].get_ref<const std::string&>();
    if (f.find('/') == std::string::npos && f != "kubernetes" && f != "orphan" && f != "foregroundDeletion") {
      errs.push_back(
          invalid(detail::index(path, i), f, "name is neither a standard finalizer name nor is it fully qualified"));
    }
  }
  return errs;
}

std::vector<std::string> custom_resource_finalizer_warnings(const Json& finalizers, const Json* old_finalizers,
                                                            std::string_view path) {
  static const Json kNone;
  const std::vector<std::string> added = detail::added_strings(finalizers, old_finalizers ? *old_finalizers : kNone);
  std::vector<std::string> warnings;
  for (const std::string& f : added) {
    const std::string subject = std::string(path) + ": " + go_quote(f) + ": ";
    for (const std::string& m : is_qualified_name(f)) warnings.push_back(subject + m);
    if (f.find('/') == std::string::npos && f != "kubernetes" && f != "orphan" && f != "foregroundDeletion") {
      warnings.push_back(subject + (f.find('.') != std::string::npos
                                        ? "prefer a domain-qualified finalizer name including a path (/) to avoid "
                                          "accidental conflicts with other finalizer writers"
                                        : "prefer a domain-qualified finalizer name to avoid accidental conflicts with "
                                          "other finalizer writers"));
    }
  }
  return warnings;
}

ErrorList validate_field_manager(std::string_view manager, std::string_view path) {
  ErrorList errs;
  if (static_cast<std::int64_t>(manager.size()) > kFieldManagerMaxLength) {
    errs.push_back(too_long(std::string(path), kFieldManagerMaxLength));
  }
  for (const detail::Rune& r : detail::non_printable_runes(manager)) {
    errs.push_back(invalid(std::string(path), manager,
                           "invalid character " + detail::go_unicode_format(r.code_point) + " (at position " +
                               std::to_string(r.offset) + ")"));
  }
  return errs;
}

ErrorList validate_managed_fields(const Json& managed_fields, std::string_view path) {
  ErrorList errs;
  if (!managed_fields.is_array()) return errs;
  for (std::size_t i = 0; i < managed_fields.size(); ++i) {
    const Json& entry = managed_fields[i];
    if (!entry.is_object()) continue;
    const std::string at = detail::index(path, i);
    const std::string_view operation = string_member(entry, "operation");
    if (operation != "Apply" && operation != "Update") {
      errs.push_back(invalid(child(at, "operation"), operation, "must be `Apply` or `Update`"));
    }
    const std::string_view fields_type = string_member(entry, "fieldsType");
    if (!fields_type.empty() && fields_type != "FieldsV1") {
      errs.push_back(invalid(child(at, "fieldsType"), fields_type, "must be `FieldsV1`"));
    }
    append(errs, validate_field_manager(string_member(entry, "manager"), child(at, "manager")));
    if (static_cast<std::int64_t>(string_member(entry, "subresource").size()) > kMaxSubresourceNameLength) {
      errs.push_back(too_long(child(at, "subresource"), kMaxSubresourceNameLength));
    }
  }
  return errs;
}

namespace detail {

// validateObjectMetaAccessorWithOptsCommon: what create and update share.
ErrorList validate_common(const Json& metadata, bool namespaced, std::string_view path) {
  ErrorList errs;
  const std::string_view ns = string_member(metadata, "namespace");
  if (namespaced) {
    if (ns.empty()) {
      errs.push_back(required(child(path, "namespace")));
    } else {
      for (std::string& m : name_messages(NameRule::DNSLabel, ns, false)) {
        errs.push_back(invalid(child(path, "namespace"), ns, std::move(m)));
      }
    }
  } else if (!ns.empty()) {
    errs.push_back(forbidden(child(path, "namespace"), "not allowed on this type"));
  }
  if (const Json* g = member(metadata, "generation");
      g && g->is_number_integer() && !g->is_number_unsigned() && g->get<std::int64_t>() < 0) {
    errs.push_back(
        invalid_int(child(path, "generation"), g->get<std::int64_t>(), "must be greater than or equal to 0"));
  }
  static const Json kNull;
  const auto or_null = [](const Json* v) -> const Json& { return v ? *v : kNull; };
  append(errs, validate_labels(or_null(member(metadata, "labels")), child(path, "labels")));
  append(errs, validate_annotations(or_null(member(metadata, "annotations")), child(path, "annotations")));
  append(errs, validate_owner_references(or_null(member(metadata, "ownerReferences")), child(path, "ownerReferences")));
  append(errs, validate_finalizers(or_null(member(metadata, "finalizers")), child(path, "finalizers")));
  append(errs, validate_managed_fields(or_null(member(metadata, "managedFields")), child(path, "managedFields")));
  return errs;
}

}  // namespace detail

ErrorList validate_object_meta(const Json& metadata, bool namespaced, NameRule name_rule, std::string_view path) {
  ErrorList errs;
  const std::string_view generate_name = string_member(metadata, "generateName");
  if (!generate_name.empty()) {
    for (std::string& m : name_messages(name_rule, generate_name, true)) {
      errs.push_back(invalid(child(path, "generateName"), generate_name, std::move(m)));
    }
  }
  const std::string_view name = string_member(metadata, "name");
  if (name.empty()) {
    errs.push_back(required(child(path, "name"), "name or generateName is required"));
  } else {
    for (std::string& m : name_messages(name_rule, name, false))
      errs.push_back(invalid(child(path, "name"), name, std::move(m)));
  }
  append(errs, detail::validate_common(metadata, namespaced, path));
  return errs;
}

}  // namespace rr::validation
