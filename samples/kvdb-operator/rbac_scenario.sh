# The KeyValueStore operator's scenario for the RBAC end-to-end tests (tests/e2e/rbac/,
# docs/testing-e2e.md), sourced by them: every API call the operator's generated role grants is
# made at least once.
#   created         a store of one replica: Secret, Service, StatefulSet and PodDisruptionBudget
#                   created, status written (keyvaluestores/status update), events created
#   drift           a label of the Secret, the Service's port, the StatefulSet's replicas and the
#                   budget's maxUnavailable changed by hand: put back (update)
#   surplus         a second child of each kind controlled by the store: deleted (delete)
#   squatters       a store whose children's names are taken by objects it does not own: the
#                   operator reads them uncached (get) and reports NotOwned
#   event_repeated  an event said again is counted on the existing Event (events patch)
# list and watch of every kind are the informers', from the start. Helpers: tests/e2e/rbac/scenario.sh.

scenario_crds=(crds/keyvaluestores.yaml)
scenario_namespace=kvdb-demo
scenario_resource=keyvaluestores.kv.example.rrgen.dev
scenario_steps=(created drift surplus squatters event_repeated)

scenario_prepare() {
  admin apply -f - <<'YAML'
apiVersion: v1
kind: Namespace
metadata: {name: kvdb-demo}
YAML
}

children=(secret/cache-password service/cache statefulset/cache poddisruptionbudget/cache)

# One object of each child kind: the Secret SECRET, the rest NAME, with the metadata members EXTRA
# (e.g. ownerReferences).
child_kinds() {  # NAME SECRET [EXTRA]
  cat <<YAML
apiVersion: v1
kind: Secret
metadata: {namespace: kvdb-demo, name: $2${3:+, $3}}
stringData: {password: other}
---
apiVersion: v1
kind: Service
metadata: {namespace: kvdb-demo, name: $1${3:+, $3}}
spec: {ports: [{port: 6379}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {namespace: kvdb-demo, name: $1${3:+, $3}}
spec:
  replicas: 0
  serviceName: $1
  selector: {matchLabels: {other: $1}}
  template:
    metadata: {labels: {other: $1}}
    spec: {containers: [{name: kvdb, image: registry.example/kvdb:1.0}]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {namespace: kvdb-demo, name: $1${3:+, $3}}
spec: {maxUnavailable: 1, selector: {matchLabels: {other: $1}}}
YAML
}

step_created() {
  admin apply -f - >/dev/null <<'YAML'
apiVersion: kv.example.rrgen.dev/v1
kind: KeyValueStore
metadata: {namespace: kvdb-demo, name: cache}
spec: {replicas: 1, image: registry.example/kvdb:1.0}
YAML
  local child
  for child in "${children[@]}"; do
    wait_step "$child created, controlled by the store" 20 controlled_by cache "$child"
  done
  wait_step "the store Ready (status written)" 60 condition_is cache Ready "True Ready"
  # One events.k8s.io/v1 Event: the children's Created events share action, reason and regarding,
  # so they are one series (client-go's recorder keys on those, not the note).
  wait_step "events recorded about the store" 20 \
    field_is events.events.k8s.io '{.items[?(@.reason=="Created")].regarding.name}' cache
}

step_drift() {
  admin label secret cache-password -n kvdb-demo app.kubernetes.io/managed-by- >/dev/null
  admin patch service cache -n kvdb-demo --type json -p '[{"op":"replace","path":"/spec/ports/0/port","value":6380}]' >/dev/null
  admin patch statefulset cache -n kvdb-demo --type merge -p '{"spec":{"replicas":2}}' >/dev/null
  admin patch poddisruptionbudget cache -n kvdb-demo --type merge -p '{"spec":{"maxUnavailable":2}}' >/dev/null
  wait_step "the Secret's label put back" 20 \
    field_is secret/cache-password '{.metadata.labels.app\.kubernetes\.io/managed-by}' kvdb-operator
  wait_step "the Service's port put back to 6379" 20 field_is service/cache '{.spec.ports[0].port}' 6379
  wait_step "the StatefulSet's replicas put back to 1" 20 field_is statefulset/cache '{.spec.replicas}' 1
  wait_step "the budget's maxUnavailable put back to 1" 20 field_is poddisruptionbudget/cache '{.spec.maxUnavailable}' 1
}

step_surplus() {
  local uid
  uid=$(field keyvaluestore/cache '{.metadata.uid}')
  child_kinds cache-extra cache-extra \
    "ownerReferences: [{apiVersion: kv.example.rrgen.dev/v1, kind: KeyValueStore, name: cache, uid: $uid, controller: true}]" |
    admin apply -f - >/dev/null
  local child
  for child in secret service statefulset poddisruptionbudget; do
    wait_step "the surplus $child deleted" 20 gone "$child/cache-extra"
  done
  for child in "${children[@]}"; do
    wait_step "$child there again" 20 controlled_by cache "$child"
  done
}

step_squatters() {
  {
    child_kinds taken taken-password
    printf -- '---\napiVersion: kv.example.rrgen.dev/v1\nkind: KeyValueStore\n'
    printf 'metadata: {namespace: kvdb-demo, name: taken}\nspec: {replicas: 1, image: registry.example/kvdb:1.0}\n'
  } | admin apply -f - >/dev/null
  local type
  for type in SecretReady ServiceReady StatefulSetReady DisruptionBudgetReady; do
    wait_step "store taken: $type False NotOwned" 20 condition_is taken "$type" "False NotOwned"
  done
}

step_event_repeated() {
  wait_step "an event about the store counted twice" 20 event_counted_twice cache
}
