// What a user's unit compiles when it copies, moves, assigns and compares a kind: with the
// generated structs' special members reached through rr::Optional's out-of-line hook
// (docs/types.md, "Compile time"), this unit defines Deployment's own copy and move members but
// none of the hundred nested structs' (DeploymentSpec, PodSpec, Container ...), which are compiled
// once, in rr_builtin. compile.special_members.out_of_line reads this object's symbols.
#include <utility>

#include "k8s/apps/v1/deployment.hpp"

using k8s::apps::v1::Deployment;

Deployment copy_of(const Deployment& d) { return d; }
Deployment moved(Deployment&& d) { return std::move(d); }
void assign(Deployment& to, const Deployment& from, Deployment&& spare) {
  to = from;
  to.spec = from.spec;
  to.status = std::move(spare.status);
}
bool same_spec(const Deployment& a, const Deployment& b) { return a.spec == b.spec; }
