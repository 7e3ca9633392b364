#include "model/rbac_derive.hpp"

#include <algorithm>

#include "support/naming.hpp"

namespace rrgen {

namespace {

// Object names must be DNS-1123 names; a file stem is [a-z0-9_].
std::string kebab(const std::string& stem) {
  std::string out = kebab_case(stem);
  return out.empty() ? "operator" : out;
}

bool any_finalizer(const ResolvedSpec& spec) {
  return std::any_of(spec.steps.begin(), spec.steps.end(), [](const ResolvedStep& s) { return !s.finalizer.empty(); });
}

// A child in owner-reference mode (no finalizer) carries blockOwnerDeletion: true.
bool any_owned_child(const ResolvedSpec& spec) {
  return std::any_of(spec.steps.begin(), spec.steps.end(),
                     [](const ResolvedStep& s) { return s.type != StepKind::Sync && s.finalizer.empty(); });
}

PolicyRule rule(const std::string& group, const std::string& resource, std::vector<std::string> verbs) {
  PolicyRule r;
  r.api_groups = {group};
  r.resources = {resource};
  r.verbs = std::move(verbs);
  return r;
}

}  // namespace

DeployNames deploy_names(const std::string& file_stem, const std::string& deploy_namespace) {
  DeployNames n;
  n.app = kebab(file_stem);
  n.namespace_ = deploy_namespace.empty() ? n.app + "-system" : deploy_namespace;
  n.manager_role = n.app + "-manager-role";
  n.namespaced_role = n.manager_role + "-namespaced";
  n.leader_election_role = n.app + "-leader-election-role";
  n.service_account = n.app + "-controller-manager";
  n.deployment = n.app + "-controller-manager";
  return n;
}

DeployNames deploy_names(const ResolvedSpec& spec) {
  return deploy_names(spec.file_stem, spec.deploy_namespace);
}

std::string binding_name(const std::string& role_name) {
  const bool ends_in_role = role_name.size() >= 4 && role_name.compare(role_name.size() - 4, 4, "role") == 0;
  return role_name + (ends_in_role ? "binding" : "-binding");
}

std::vector<RuleSource> rbac_sources(const ResolvedSpec& spec) {
  const DeployNames names = deploy_names(spec);
  const bool namespaced_scope = spec.scope == ReconcilerScope::Namespace;
  const RoleKey cluster_role{"", names.manager_role};
  // The manager's roles: the ClusterRole; under scope: Namespace, a Role in the deploy namespace, or
  // one in each namespace of `namespaces:` (the cache lists and watches each of them).
  std::vector<RoleKey> manager_roles;
  if (!namespaced_scope) {
    manager_roles.push_back(cluster_role);
  } else if (!spec.namespace_selector.empty()) {
    // Roles cannot be written for namespaces that do not exist yet: the rules go to a ClusterRole
    // that only RoleBindings in the selected namespaces grant (as OLM binds an OperatorGroup's).
    manager_roles.push_back(RoleKey{"", names.namespaced_role});
  } else if (spec.namespaces.empty()) {
    manager_roles.push_back(RoleKey{names.namespace_, names.manager_role});
  } else {
    for (const std::string& ns : spec.namespaces) manager_roles.push_back(RoleKey{ns, names.manager_role});
  }
  // A Role grants nothing on cluster-scoped kinds: those always go to the ClusterRole.
  auto roles_for = [&](const ResolvedKind& kind) {
    return kind.namespaced ? manager_roles : std::vector<RoleKey>{cluster_role};
  };

  RuleSource derived{rbac_origin_derived, {}};
  auto add_one = [&](const RoleKey& role, PolicyRule r) { derived.roles.add(role, std::move(r), derived.origin); };
  auto add = [&](const std::vector<RoleKey>& roles, const PolicyRule& r) {
    for (const RoleKey& role : roles) add_one(role, r);
  };

  // The reconciled kind: the manager's informer lists and watches it; the reconciler reads it from
  // that cache, never with a get. Finalizers are added and cleared with a merge patch of
  // metadata.finalizers (patch).
  std::vector<std::string> resource_verbs = {"list", "watch"};
  if (any_finalizer(spec)) resource_verbs.push_back("patch");
  if (spec.duck) {
    // A duck: each default kind as above, but its status is written as a merge patch of the
    // status subresource, and nothing ever creates or updates a whole object of these kinds
    // (rr::DynamicApi refuses to). Kinds added at run time need rules of their own (`rbac:`).
    for (const ResolvedKind& kind : spec.duck->kinds) {
      add(roles_for(kind), rule(kind.group, kind.plural, resource_verbs));
      add(roles_for(kind), rule(kind.group, kind.plural + "/status", {"patch"}));
    }
  } else {
    const ResolvedKind& resource = spec.resource;
    add(roles_for(resource), rule(resource.group, resource.plural, resource_verbs));
    // The status is written with an update of the status subresource (and never read from it);
    // `statusWrite: apply`: by server-side apply, a PATCH of it.
    if (resource.has_status)
      add(roles_for(resource),
          rule(resource.group, resource.plural + "/status", {spec.status_apply ? "patch" : "update"}));
    // Children carry an owner reference with blockOwnerDeletion: true, which the
    // OwnerReferencesPermissionEnforcement admission plugin allows only to whoever may update the
    // owner's finalizers subresource.
    if (any_owned_child(spec))
      add(roles_for(resource), rule(resource.group, resource.plural + "/finalizers", {"update"}));
  }

  for (const ResolvedStep& step : spec.steps) {
    // Children are listed (by owner or by the list_options hook) from the informer cache, created,
    // updated and deleted; get: the object in the way of a create (AlreadyExists) is read uncached,
    // to tell our own not yet cached child from someone else's.
    // `write: apply`: written by server-side apply, a PATCH (patch), which creates an absent child
    // (the API server then also asks for create); get: an object of the child's name that is not
    // in the cache as ours is read uncached, to refuse someone else's (NotOwned).
    if (step.child && step.apply) {
      add(roles_for(*step.child),
          rule(step.child->group, step.child->plural, {"get", "list", "watch", "create", "patch", "delete"}));
    } else if (step.child) {
      add(roles_for(*step.child),
          rule(step.child->group, step.child->plural, {"get", "list", "watch", "create", "update", "delete"}));
    }
    // Tracked kinds are read (by name or by selector) from the informer cache, which lists and
    // watches them; a change re-drives the resource.
    for (const ResolvedKind& tracked : step.tracks) {
      add(roles_for(tracked), rule(tracked.group, tracked.plural, {"list", "watch"}));
    }
  }
  // A namespace selector: the cache lists and watches Namespaces to learn which match.
  if (namespaced_scope && !spec.namespace_selector.empty())
    add_one(cluster_role, rule("", "namespaces", {"list", "watch"}));
  // Kinds of `watches:`: the informer lists and watches them; the map hook gets the object.
  for (const ResolvedWatch& w : spec.watches)
    add(roles_for(w.kind), rule(w.kind.group, w.kind.plural, {"list", "watch"}));
  // The event recorder creates events.k8s.io/v1 Events and patches their series when one repeats
  // (with `events: core/v1`, core Events and their count).
  add(manager_roles, rule(spec.core_v1_events ? "" : "events.k8s.io", "events", {"create", "patch"}));

  // Leader election: a Lease in the deploy namespace, read (get), created when missing (create),
  // then renewed, taken over and released by updates (update), as client-go's LeaseLock does.
  // kubebuilder's leader-election-role also grants list, watch, patch, delete and events: the
  // elector never makes those calls.
  if (!spec.leader_election_id.empty()) {
    const RoleKey leader{names.namespace_, names.leader_election_role};
    add_one(leader, rule("coordination.k8s.io", "leases", {"get", "create", "update"}));
  }

  RuleSource extra{rbac_origin_extra, {}};
  for (const PolicyRule& r : spec.rbac) {
    // Non-resource URLs exist only in ClusterRoles.
    for (const RoleKey& role : r.non_resource_urls.empty() ? manager_roles : std::vector<RoleKey>{cluster_role})
      extra.roles.add(role, r, extra.origin);
  }

  std::vector<RuleSource> sources;
  sources.push_back(std::move(derived));
  if (!extra.roles.roles.empty()) sources.push_back(std::move(extra));
  return sources;
}

RoleSet derive_rbac(const ResolvedSpec& spec) { return merge_rule_sources(rbac_sources(spec)); }

}  // namespace rrgen
