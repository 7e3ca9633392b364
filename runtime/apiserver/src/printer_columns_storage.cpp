// PersistentVolume and PersistentVolumeClaim columns as the kube-apiserver prints them. Where the
// real server would have defaulted a field (phase Pending, volumeMode Filesystem, reclaim policy
// Retain) the default is printed, since the local cluster keeps objects as they were sent.
#include <algorithm>

#include "printer_columns_internal.hpp"

namespace rr::apiserver_detail {

namespace {

// A quantity as text; a missing one is Go's zero Quantity, "0".
std::string storage_at(const Json& object, const std::string& pointer) {
  return is_set(object, pointer) ? text_of(at(object, pointer)) : "0";
}

// "RWO,ROX,RWX,RWOP": the access modes present, always in this order.
std::string access_modes(const Json& modes) {
  std::vector<std::string> out;
  for (const auto& [mode, abbreviation] : {std::pair{"ReadWriteOnce", "RWO"}, std::pair{"ReadOnlyMany", "ROX"},
                                           std::pair{"ReadWriteMany", "RWX"}, std::pair{"ReadWriteOncePod", "RWOP"}}) {
    if (modes.is_array() && std::find(modes.begin(), modes.end(), Json(mode)) != modes.end())
      out.push_back(abbreviation);
  }
  return joined(out);
}

// The beta storage-class annotation wins over spec.storageClassName.
std::string storage_class(const Json& object) {
  if (const Json& annotations = at(object, "/metadata/annotations"); annotations.is_object()) {
    if (auto it = annotations.find("volume.beta.kubernetes.io/storage-class"); it != annotations.end())
      return text_of(*it);
  }
  return string_at(object, "/spec/storageClassName");
}

// Terminating while deleted, else the phase.
std::string volume_phase(const Json& object) {
  return is_set(object, "/metadata/deletionTimestamp") ? "Terminating" : string_or(object, "/status/phase", "Pending");
}

PrinterColumn phase_column(std::string name) {
  return text_column(std::move(name), "The phase, or Terminating.", 0,
                     [](const Json& o) -> Json { return volume_phase(o); });
}

// The storage class and volume attributes class columns, the age, and VolumeMode at priority 1.
void add_class_columns(std::vector<PrinterColumn>& columns, bool reason_before_age) {
  columns.push_back(
      text_column("StorageClass", "The storage class.", 0, [](const Json& o) -> Json { return storage_class(o); }));
  columns.push_back(text_column("VolumeAttributesClass", "The volume attributes class.", 0, [](const Json& o) -> Json {
    return is_set(o, "/spec/volumeAttributesClassName") ? string_at(o, "/spec/volumeAttributesClassName") : "<unset>";
  }));
  if (reason_before_age) {
    columns.push_back(text_column("Reason", "Why the volume is in its phase.", 0,
                                  [](const Json& o) -> Json { return string_at(o, "/status/reason"); }));
  }
  columns.push_back(age_column());
  columns.push_back(text_column("VolumeMode", "Filesystem or Block.", 1,
                                [](const Json& o) -> Json { return string_or(o, "/spec/volumeMode", "Filesystem"); }));
}

}  // namespace

std::vector<PrinterColumn> persistent_volume_columns() {
  std::vector<PrinterColumn> columns{name_column()};
  columns.push_back(text_column("Capacity", "The volume's storage capacity.", 0,
                                [](const Json& v) -> Json { return storage_at(v, "/spec/capacity/storage"); }));
  columns.push_back(text_column("Access Modes", "The ways the volume can be mounted.", 0,
                                [](const Json& v) -> Json { return access_modes(at(v, "/spec/accessModes")); }));
  columns.push_back(
      text_column("Reclaim Policy", "What happens to the volume once released.", 0,
                  [](const Json& v) -> Json { return string_or(v, "/spec/persistentVolumeReclaimPolicy", "Retain"); }));
  columns.push_back(phase_column("Status"));
  columns.push_back(
      text_column("Claim", "The claim bound to the volume (namespace/name).", 0, [](const Json& v) -> Json {
        if (!at(v, "/spec/claimRef").is_object()) return "";
        return string_at(v, "/spec/claimRef/namespace") + "/" + string_at(v, "/spec/claimRef/name");
      }));
  add_class_columns(columns, true);
  return columns;
}

std::vector<PrinterColumn> persistent_volume_claim_columns() {
  std::vector<PrinterColumn> columns{name_column(), phase_column("Status")};
  columns.push_back(text_column("Volume", "The volume bound to the claim.", 0,
                                [](const Json& c) -> Json { return string_at(c, "/spec/volumeName"); }));
  // Capacity and access modes are the bound volume's: empty until bound.
  columns.push_back(text_column("Capacity", "The bound volume's capacity.", 0, [](const Json& c) -> Json {
    return string_at(c, "/spec/volumeName").empty() ? "" : storage_at(c, "/status/capacity/storage");
  }));
  columns.push_back(text_column("Access Modes", "The bound volume's access modes.", 0, [](const Json& c) -> Json {
    return string_at(c, "/spec/volumeName").empty() ? "" : access_modes(at(c, "/status/accessModes"));
  }));
  add_class_columns(columns, false);
  return columns;
}

}  // namespace rr::apiserver_detail
