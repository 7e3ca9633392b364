// ValidateVolumes and validateVolumeSource (pkg/apis/core/validation): names unique DNS labels, one
// source per volume, and the required members of the common sources.
#include <array>
#include <set>
#include <utility>

#include "pod_parts.hpp"
#include "rr/core/quantity.hpp"
#include "rr/validation/names.hpp"

namespace rr::validation::detail {
namespace {

// Upstream's order of sources, with the path each "more than 1 volume type" finding names (note
// upstream's own spellings: "downwarAPI", "cephFS").
struct Source {
  std::string_view key;
  std::string_view forbidden_path;
};
constexpr std::array<Source, 30> kSources = {{
    {"emptyDir", "emptyDir"},
    {"hostPath", "hostPath"},
    {"gitRepo", "gitRepo"},
    {"gcePersistentDisk", "gcePersistentDisk"},
    {"awsElasticBlockStore", "awsElasticBlockStore"},
    {"secret", "secret"},
    {"nfs", "nfs"},
    {"iscsi", "iscsi"},
    {"glusterfs", "glusterfs"},
    {"flocker", "flocker"},
    {"persistentVolumeClaim", "persistentVolumeClaim"},
    {"rbd", "rbd"},
    {"cinder", "cinder"},
    {"cephfs", "cephFS"},
    {"quobyte", "quobyte"},
    {"downwardAPI", "downwarAPI"},
    {"fc", "fc"},
    {"flexVolume", "flexVolume"},
    {"configMap", "configMap"},
    {"azureFile", "azureFile"},
    {"vsphereVolume", "vsphereVolume"},
    {"photonPersistentDisk", "photonPersistentDisk"},
    {"portworxVolume", "portworxVolume"},
    {"azureDisk", "azureDisk"},
    {"storageos", "storageos"},
    {"projected", "projected"},
    {"scaleIO", "scaleIO"},
    {"csi", "csi"},
    {"ephemeral", "ephemeral"},
    {"image", "image"},
}};

const std::string kFileMode = "must be a number between 0 and 0777 (octal), both inclusive";

void file_mode(ErrorList& errs, const Json& object, std::string_view key, const std::string& path) {
  if (const auto mode = int_member(object, key); mode && (*mode > 0777 || *mode < 0)) {
    errs.push_back(invalid_int(path, *mode, kFileMode));
  }
}

void key_to_path(ErrorList& errs, const Json& item, const std::string& path) {
  if (string_member(item, "key").empty()) errs.push_back(required(child(path, "key")));
  const std::string_view p = string_member(item, "path");
  if (p.empty()) errs.push_back(required(child(path, "path")));
  local_non_reserved_path(errs, p, child(path, "path"));
  file_mode(errs, item, "mode", child(path, "mode"));
}

// validateDownwardAPIVolumeFile: a relative path and exactly one of fieldRef and resourceFieldRef.
void downward_api_file(ErrorList& errs, const Json& file, const std::string& path) {
  static const std::set<std::string_view> kVolumeFieldPaths = {"metadata.annotations", "metadata.labels",
                                                               "metadata.name", "metadata.namespace", "metadata.uid"};
  const std::string_view p = string_member(file, "path");
  if (p.empty()) errs.push_back(required(child(path, "path")));
  local_non_reserved_path(errs, p, child(path, "path"));
  const Json& field_ref = value_at(file, "fieldRef");
  const Json& resource_ref = value_at(file, "resourceFieldRef");
  if (field_ref.is_object()) {
    validate_object_field_selector(errs, field_ref, kVolumeFieldPaths, child(path, "fieldRef"));
    if (resource_ref.is_object()) {
      errs.push_back(invalid(path, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"));
    }
  } else if (resource_ref.is_object()) {
    validate_resource_field_selector(errs, resource_ref, true, child(path, "resourceFieldRef"));
  } else {
    errs.push_back(required(path, "one of fieldRef and resourceFieldRef is required"));
  }
  file_mode(errs, file, "mode", child(path, "mode"));
}

// validateProjectionSources: one source each; paths unique across the volume.
void projection_sources(ErrorList& errs, const Json& projected, const std::string& path) {
  const Json& sources = value_at(projected, "sources");
  if (!sources.is_array()) return;
  std::set<std::string, std::less<>> all_paths;
  const auto unique_path = [&](std::string_view p, std::string_view shown) {
    if (p.empty()) return;
    if (all_paths.contains(p)) {
      errs.push_back(invalid(path, shown, "conflicting duplicate paths"));
    } else {
      all_paths.insert(std::string(p));
    }
  };
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const Json& source = sources[i];
    const std::string src_path = index(child(path, "sources"), i);
    int count = 0;
    for (const char* kind : {"secret", "configMap"}) {
      const Json& s = value_at(source, kind);
      if (!s.is_object()) continue;
      ++count;
      const std::string proj_path = child(src_path, kind);
      const std::string_view name = string_member(s, "name");
      if (name.empty()) errs.push_back(required(child(proj_path, "name")));
      if (const Json& list = value_at(s, "items"); list.is_array()) {
        for (std::size_t k = 0; k < list.size(); ++k) {
          key_to_path(errs, list[k], index(child(proj_path, "items"), k));
          unique_path(string_member(list[k], "path"), name);
        }
      }
    }
    if (const Json& d = value_at(source, "downwardAPI"); d.is_object()) {
      ++count;
      if (const Json& list = value_at(d, "items"); list.is_array()) {
        for (const Json& file : list) {
          downward_api_file(errs, file, child(src_path, "downwardAPI"));
          unique_path(string_member(file, "path"), string_member(file, "path"));
        }
      }
    }
    if (const Json& token = value_at(source, "serviceAccountToken"); token.is_object()) {
      ++count;
      const std::int64_t seconds = int_member(token, "expirationSeconds").value_or(3600);  // defaulted
      const std::string seconds_path = child(child(src_path, "serviceAccountToken"), "expirationSeconds");
      if (seconds < 600)
        errs.push_back(invalid_int(seconds_path, seconds, "may not specify a duration less than 10 minutes"));
      if (seconds > (std::int64_t{1} << 32)) {
        errs.push_back(invalid_int(seconds_path, seconds, "may not specify a duration larger than 2^32 seconds"));
      }
      // Upstream names the volume's path, not the source's, for the token path.
      const std::string_view token_path = string_member(token, "path");
      if (token_path.empty()) {
        errs.push_back(required(child(path, "path")));
      } else {
        local_non_reserved_path(errs, token_path, child(path, "path"));
      }
    }
    for (const char* other : {"clusterTrustBundle", "podCertificate"}) {
      if (value_at(source, other).is_object()) ++count;
    }
    if (count > 1) errs.push_back(forbidden(src_path, "may not specify more than 1 volume type per source"));
  }
}

void items(ErrorList& errs, const Json& source, const std::string& path) {
  const Json& list = value_at(source, "items");
  if (!list.is_array()) return;
  for (std::size_t i = 0; i < list.size(); ++i) key_to_path(errs, list[i], index(child(path, "items"), i));
}

// The checks of one source (only the sources operators use are checked member by member).
void source_checks(ErrorList& errs, std::string_view key, const Json& s, const std::string& path) {
  if (key == "emptyDir") {
    if (const Json& limit = value_at(s, "sizeLimit"); limit.is_string()) {
      const auto milli = Quantity(limit.get<std::string>()).milli_value();
      if (milli && *milli < 0) {
        errs.push_back(forbidden(child(path, "sizeLimit"), "SizeLimit field must be a valid resource quantity"));
      }
    }
  } else if (key == "hostPath") {
    const std::string_view p = string_member(s, "path");
    if (p.empty()) {
      errs.push_back(required(child(path, "path")));
      return;
    }
    no_backsteps(errs, p, child(path, "path"));
  } else if (key == "secret") {
    if (string_member(s, "secretName").empty()) errs.push_back(required(child(path, "secretName")));
    file_mode(errs, s, "defaultMode", child(path, "defaultMode"));
    items(errs, s, path);
  } else if (key == "configMap") {
    if (string_member(s, "name").empty()) errs.push_back(required(child(path, "name")));
    file_mode(errs, s, "defaultMode", child(path, "defaultMode"));
    items(errs, s, path);
  } else if (key == "persistentVolumeClaim") {
    if (string_member(s, "claimName").empty()) errs.push_back(required(child(path, "claimName")));
  } else if (key == "nfs") {
    if (string_member(s, "server").empty()) errs.push_back(required(child(path, "server")));
    const std::string_view p = string_member(s, "path");
    if (p.empty()) errs.push_back(required(child(path, "path")));
    if (!p.starts_with('/')) errs.push_back(invalid(child(path, "path"), p, "must be an absolute path"));
  } else if (key == "gitRepo") {
    if (string_member(s, "repository").empty()) errs.push_back(required(child(path, "repository")));
    local_descending_path(errs, string_member(s, "directory"), child(path, "directory"));
  } else if (key == "downwardAPI") {
    file_mode(errs, s, "defaultMode", child(path, "defaultMode"));
    // Upstream names the volume source, not each item, for the items' findings.
    if (const Json& list = value_at(s, "items"); list.is_array()) {
      for (const Json& file : list) downward_api_file(errs, file, path);
    }
  } else if (key == "projected") {
    file_mode(errs, s, "defaultMode", child(path, "defaultMode"));
    projection_sources(errs, s, path);
  } else if (key == "csi") {
    if (string_member(s, "driver").empty()) errs.push_back(required(child(path, "driver")));
  }
}

}  // namespace

VolumeMap validate_volumes(ErrorList& errs, const Json& volumes, const std::string& path, std::string_view pod_name) {
  VolumeMap valid;
  if (!volumes.is_array()) return valid;
  std::set<std::string, std::less<>> created_claims;  // PVCs the pod's ephemeral volumes create
  if (!pod_name.empty()) {
    for (const Json& v : volumes) {
      if (is_set(v, "ephemeral"))
        created_claims.insert(std::string(pod_name) + "-" + std::string(string_member(v, "name")));
    }
  }
  std::set<std::string, std::less<>> names;
  for (std::size_t i = 0; i < volumes.size(); ++i) {
    const Json& vol = volumes[i];
    const std::string at_i = index(path, i);
    const std::string_view name = string_member(vol, "name");
    ErrorList el;
    std::string_view first;
    for (const Source& src : kSources) {
      const Json& s = value_at(vol, src.key);
      if (s.is_null()) continue;
      if (!first.empty()) {
        el.push_back(forbidden(child(at_i, src.forbidden_path), "may not specify more than 1 volume type"));
        continue;
      }
      first = src.key;
      source_checks(el, src.key, s, child(at_i, src.key));
    }
    // A volume without a source is defaulted to an emptyDir before validation.
    if (first.empty()) first = "emptyDir";
    if (name.empty()) {
      el.push_back(required(child(at_i, "name")));
    } else {
      for (std::string& m : is_dns1123_label(name)) el.push_back(invalid(child(at_i, "name"), name, std::move(m)));
    }
    if (names.contains(name)) el.push_back(duplicate(child(at_i, "name"), name));
    if (el.empty()) {
      names.insert(std::string(name));
      valid.emplace(std::string(name), std::string(first));
    } else {
      append(errs, std::move(el));
    }
    const std::string_view claim = string_member(value_at(vol, "persistentVolumeClaim"), "claimName");
    if (!claim.empty() && created_claims.contains(claim)) {
      errs.push_back(invalid(child(at_i, "persistentVolumeClaim.claimName"), claim,
                             "must not reference a PVC that gets created for an ephemeral volume"));
    }
  }
  return valid;
}

void no_backsteps(ErrorList& errs, std::string_view target, const std::string& path) {
  std::string_view rest = target;
  for (;;) {
    const std::size_t slash = rest.find('/');
    if (rest.substr(0, slash) == "..") {
      errs.push_back(invalid(path, target, "must not contain '..'"));
      return;
    }
    if (slash == std::string_view::npos) return;
    rest.remove_prefix(slash + 1);
  }
}

void local_descending_path(ErrorList& errs, std::string_view target, const std::string& path) {
  if (target.starts_with('/')) errs.push_back(invalid(path, target, "must be a relative path"));
  no_backsteps(errs, target, path);
}

void local_non_reserved_path(ErrorList& errs, std::string_view target, const std::string& path) {
  local_descending_path(errs, target, path);
  if (target.starts_with("..") && !target.starts_with("../")) {
    errs.push_back(invalid(path, target, "must not start with '..'"));
  }
}

}  // namespace rr::validation::detail
