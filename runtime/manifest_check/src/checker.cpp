#include "rr/manifest_check/checker.hpp"

#include <stdexcept>

namespace rr::manifest_check {

namespace {

std::string string_at(const Json& object, const char* member) {
  if (!object.is_object()) return {};
  auto it = object.find(member);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Outcome outcome_of(const std::string& file, const Document& doc) {
  Outcome out;
  out.file = file;
  out.document = doc.index;
  out.line = doc.line;
  out.api_version = string_at(doc.object, "apiVersion");
  out.kind = string_at(doc.object, "kind");
  if (doc.object.is_object()) {
    if (auto meta = doc.object.find("metadata"); meta != doc.object.end()) {
      out.name = string_at(*meta, "name");
      if (out.name.empty()) out.name = string_at(*meta, "generateName");
    }
  }
  return out;
}

Status status_of(std::string message, const char* reason, std::int32_t code) {
  Status s;
  s.message = std::move(message);
  s.reason = reason;
  s.code = code;
  return s;
}

Status bad_request(std::string message) { return status_of(std::move(message), "BadRequest", 400); }

// The object without the type or kind an API server needs to route it: what the decoder answers.
std::optional<Status> type_meta_refusal(const Json& object, const Outcome& out) {
  if (!object.is_object()) return bad_request("the document is not an object (a YAML mapping or JSON object)");
  if (out.kind.empty()) return bad_request("Object 'Kind' is missing in the document");
  if (out.api_version.empty()) return bad_request("Object 'apiVersion' is missing in the document");
  return std::nullopt;
}

}  // namespace

bool is_admission_policy(const Json& object) {
  const std::string api_version = string_at(object, "apiVersion"), kind = string_at(object, "kind");
  if (!api_version.starts_with("admissionregistration.k8s.io/")) return false;
  return kind == "ValidatingAdmissionPolicy" || kind == "ValidatingAdmissionPolicyBinding" ||
         kind == "MutatingAdmissionPolicy" || kind == "MutatingAdmissionPolicyBinding";
}

Status no_kind_match(const std::string& api_version, const std::string& kind) {
  return status_of("no matches for kind \"" + kind + "\" in version \"" + api_version + "\"", "NotFound", 404);
}

Checker::Checker(bool strict) : strict_(strict) {}

std::optional<Outcome> Checker::add_crd(const std::string& file, const Document& doc) {
  Outcome out = outcome_of(file, doc);
  if (out.api_version != "apiextensions.k8s.io/v1" || out.kind != "CustomResourceDefinition") return std::nullopt;
  try {
    admission_.add_crd(doc.object);
  } catch (const ApiError& e) {
    // The same CRD in two files given (a folder holding two channels of a project): the first wins.
    if (is_already_exists(e.status())) {
      out.warnings.push_back("a CustomResourceDefinition named \"" + out.name +
                             "\" was given before: this one is skipped");
    } else {
      out.refusal = e.status();
    }
  }
  return out;
}

std::optional<std::pair<KindInfo, Json>> Checker::route(const Document& doc, Outcome& out) const {
  if (auto refused = type_meta_refusal(doc.object, out)) {
    out.refusal = std::move(refused);
    return std::nullopt;
  }
  GroupVersionKind gvk;
  try {
    gvk = GroupVersionKind::from(out.api_version, out.kind);
  } catch (const std::invalid_argument&) {
    out.refusal = bad_request("unexpected GroupVersion string: " + out.api_version);
    return std::nullopt;
  }
  auto kind = admission_.find_kind(gvk);
  if (!kind) {
    out.refusal = no_kind_match(out.api_version, out.kind);
    return std::nullopt;
  }
  // A key the YAML repeats is the decoder's finding, before admission: an error under Strict.
  std::string duplicates;
  for (const std::string& field : doc.duplicate_fields) {
    duplicates += (duplicates.empty() ? "" : ", ") + ("duplicate field \"" + field + "\"");
  }
  if (!duplicates.empty() && strict_) {
    out.refusal = bad_request("strict decoding error: " + duplicates);
    return std::nullopt;
  }
  for (const std::string& field : doc.duplicate_fields) out.warnings.push_back("duplicate field \"" + field + "\"");
  Json object = doc.object;
  // kubectl sends a namespaced object without a namespace to its context's namespace.
  if (kind->namespaced()) {
    Json& meta = object["metadata"];
    if (meta.is_null()) meta = Json::object();
    if (meta.is_object() && string_at(meta, "namespace").empty()) meta["namespace"] = "default";
  }
  return std::pair{std::move(*kind), std::move(object)};
}

Outcome Checker::add_object(const std::string& file, const Document& doc) {
  Outcome out = outcome_of(file, doc);
  auto routed = route(doc, out);
  if (!routed) return out;
  try {
    out.object = admission_.create(routed->first, routed->second, validation(), &out.warnings);
    // What the API server's status controller would write into the policy's status, where no one
    // looks before the policy misbehaves: warned now.
    if (out.kind == "ValidatingAdmissionPolicy") {
      const Json status = admission_.policy_status(out.object);
      for (const Json& w : status["typeChecking"].value("expressionWarnings", Json::array())) {
        std::string text = w.value("fieldRef", "") + ": " + w.value("warning", "");
        while (!text.empty() && text.back() == '\n') text.pop_back();  // each kind's paragraph ends in one
        out.warnings.push_back(std::move(text));
      }
    }
  } catch (const ApiError& e) {
    if (is_already_exists(e.status())) {
      out.warnings.push_back("a " + out.kind + " named \"" + out.name + "\" was given before: this one is skipped");
    } else {
      out.refusal = e.status();
    }
  }
  return out;
}

Outcome Checker::check(const std::string& file, const Document& doc) const {
  Outcome out = outcome_of(file, doc);
  auto routed = route(doc, out);
  if (!routed) return out;
  try {
    out.object = admission_.dry_run_create(routed->first, routed->second, validation(), &out.warnings);
  } catch (const ApiError& e) {
    // Only the offline cluster's own namespaces (default, kube-system, kube-public) exist: an
    // object that passed admission and collides with one of them is admitted.
    if (!is_already_exists(e.status())) out.refusal = e.status();
  }
  return out;
}

}  // namespace rr::manifest_check
