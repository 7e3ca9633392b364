#include "admission_types.hpp"

namespace rr::admission_policy::detail {

namespace {

using cel::CelType;

CelType strings() { return CelType::list(CelType::string_type()); }
CelType string_map() { return CelType::map(CelType::string_type(), CelType::string_type()); }

}  // namespace

CelType request_type() {
  const CelType s = CelType::string_type();
  const CelType gvk = CelType::object("kubernetes.GroupVersionKind", {{"group", s}, {"version", s}, {"kind", s}});
  const CelType gvr =
      CelType::object("kubernetes.GroupVersionResource", {{"group", s}, {"version", s}, {"resource", s}});
  const CelType user =
      CelType::object("kubernetes.UserInfo", {{"username", s},
                                              {"uid", s},
                                              {"groups", strings()},
                                              {"extra", CelType::map(s, strings())}});
  return CelType::object("kubernetes.AdmissionRequest", {{"kind", gvk},
                                                         {"resource", gvr},
                                                         {"subResource", s},
                                                         {"requestKind", gvk},
                                                         {"requestResource", gvr},
                                                         {"requestSubResource", s},
                                                         {"name", s},
                                                         {"namespace", s},
                                                         {"operation", s},
                                                         {"userInfo", user},
                                                         {"dryRun", CelType::bool_type()},
                                                         {"options", CelType::dyn()}});
}

CelType namespace_type() {
  const CelType s = CelType::string_type();
  const CelType condition = CelType::object("kubernetes.NamespaceCondition", {{"status", s},
                                                                              {"type", s},
                                                                              {"lastTransitionTime", CelType::timestamp()},
                                                                              {"message", s},
                                                                              {"reason", s}});
  const CelType metadata = CelType::object("kubernetes.NamespaceMetadata",
                                           {{"name", s},
                                            {"generateName", s},
                                            {"namespace", s},
                                            {"labels", string_map()},
                                            {"annotations", string_map()},
                                            {"UID", s},
                                            {"creationTimestamp", CelType::timestamp()},
                                            {"deletionGracePeriodSeconds", CelType::int_type()},
                                            {"deletionTimestamp", CelType::timestamp()},
                                            {"generation", CelType::int_type()},
                                            {"resourceVersion", s},
                                            {"finalizers", strings()}});
  return CelType::object("kubernetes.Namespace",
                         {{"metadata", metadata},
                          {"spec", CelType::object("kubernetes.NamespaceSpec", {{"finalizers", strings()}})},
                          {"status", CelType::object("kubernetes.NamespaceStatus",
                                                     {{"conditions", CelType::list(condition)}, {"phase", s}})}});
}

}  // namespace rr::admission_policy::detail
