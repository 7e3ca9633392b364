// RoleBinding and ClusterRoleBinding columns as the kube-apiserver prints them (Role and
// ClusterRole have no printer upstream: they get default_columns()).
#include "printer_columns_internal.hpp"

namespace rr::apiserver_detail {

namespace {

// The subjects of one kind, as rbac.SubjectsStrings writes them, joined by ", ".
std::string subjects_of(const Json& binding, std::string_view kind) {
  std::vector<std::string> names;
  if (const Json& subjects = at(binding, "/subjects"); subjects.is_array()) {
    for (const Json& s : subjects) {
      if (string_at(s, "/kind") != kind) continue;
      const std::string name = string_at(s, "/name");
      names.push_back(kind == "ServiceAccount" ? string_at(s, "/namespace") + "/" + name : name);
    }
  }
  return joined(names, ", ");
}

PrinterColumn subjects_column(std::string name, std::string kind) {
  return text_column(std::move(name), kind + " subjects of the binding.", 1,
                     [kind](const Json& b) -> Json { return subjects_of(b, kind); });
}

}  // namespace

std::vector<PrinterColumn> role_binding_columns() {
  std::vector<PrinterColumn> columns{name_column()};
  columns.push_back(text_column("Role", "The role bound (Kind/name).", 0, [](const Json& b) -> Json {
    return string_at(b, "/roleRef/kind") + "/" + string_at(b, "/roleRef/name");
  }));
  columns.push_back(age_column());
  columns.push_back(subjects_column("Users", "User"));
  columns.push_back(subjects_column("Groups", "Group"));
  columns.push_back(subjects_column("ServiceAccounts", "ServiceAccount"));
  return columns;
}

}  // namespace rr::apiserver_detail
