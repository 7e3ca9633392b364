# The WebApp operator's scenario for the RBAC end-to-end tests (tests/e2e/rbac/, docs/testing-e2e.md),
# sourced by them: every API call the operator's generated role grants is made at least once.
#   created        the live demo's manifests/hello.yaml (a ConfigMap and a WebApp): Deployment and
#                  Service created, finalizer added (patch), status applied (webapps/status
#                  patch), events created
#   drift          the Deployment's replicas and the Service's targetPort changed by hand: put back
#                  (apply: the children are in apply mode)
#   surplus        a second Deployment and Service controlled by the WebApp: deleted (delete)
#   squatters      a WebApp whose children's names are taken by objects it does not own: the
#                  operator reads them uncached (get) and reports NotOwned, not applying over them
#   config_change  the tracked ConfigMap changes: the configHash follows (configmaps watch)
#   event_repeated an event said again is counted on the existing Event (events patch)
#   deleted        the WebApp is deleted: the finalizer is cleared (patch), the WebApp is gone
# list and watch of every kind are the informers', from the start. Helpers: tests/e2e/rbac/scenario.sh.

scenario_crds=(crds/webapps.yaml)
scenario_namespace=demo
scenario_resource=webapps.web.example.rrgen.dev
scenario_steps=(created drift surplus squatters config_change event_repeated deleted)

scenario_prepare() { :; }  # manifests/hello.yaml brings its namespace

# A Deployment and a Service named NAME, with the metadata members EXTRA (e.g. ownerReferences).
deployment_and_service() {  # NAME [EXTRA]
  cat <<YAML
apiVersion: apps/v1
kind: Deployment
metadata: {namespace: demo, name: $1${2:+, $2}}
spec:
  replicas: 0
  selector: {matchLabels: {other: $1}}
  template:
    metadata: {labels: {other: $1}}
    spec: {containers: [{name: app, image: registry.example/other:1.0}]}
---
apiVersion: v1
kind: Service
metadata: {namespace: demo, name: $1${2:+, $2}}
spec: {ports: [{port: 80}]}
YAML
}

step_created() {
  admin apply -f "$sample/manifests/hello.yaml" >/dev/null
  wait_step "Deployment hello created, controlled by the WebApp" 20 controlled_by hello deployment/hello
  wait_step "Service hello created, controlled by the WebApp" 20 controlled_by hello service/hello
  wait_step "finalizer web.example.rrgen.dev/dns-record added" 20 \
    field_is webapp/hello '{.metadata.finalizers[0]}' web.example.rrgen.dev/dns-record
  wait_step "WebApp Ready (status written)" 20 condition_is hello Ready "True Ready"
  # One events.k8s.io/v1 Event: the children's Created events share action, reason and regarding,
  # so they are one series (client-go's recorder keys on those, not the note).
  wait_step "events recorded about the WebApp" 20 \
    field_is events.events.k8s.io '{.items[?(@.reason=="Created")].regarding.name}' hello
}

step_drift() {
  admin patch deployment hello -n demo --type merge -p '{"spec":{"replicas":5}}' >/dev/null
  # Apply mode owns fields, not whole objects: another manager's change to a field the operator
  # applied is put back (a port's targetPort), while an item another manager adds to a keyed list
  # would stay theirs, as server-side apply has it.
  admin patch service hello -n demo --type json -p '[{"op":"replace","path":"/spec/ports/0/targetPort","value":9999}]' >/dev/null
  wait_step "the Deployment's replicas put back to 2" 20 field_is deployment/hello '{.spec.replicas}' 2
  wait_step "the Service's targetPort put back to 8080" 20 field_is service/hello '{.spec.ports[0].targetPort}' 8080
}

step_surplus() {
  local uid
  uid=$(field webapp/hello '{.metadata.uid}')
  deployment_and_service hello-extra \
    "ownerReferences: [{apiVersion: web.example.rrgen.dev/v1, kind: WebApp, name: hello, uid: $uid, controller: true}]" |
    admin apply -f - >/dev/null
  wait_step "the surplus Deployment deleted" 20 gone deployment/hello-extra
  wait_step "the surplus Service deleted" 20 gone service/hello-extra
  wait_step "Deployment hello there again" 20 controlled_by hello deployment/hello
  wait_step "Service hello there again" 20 controlled_by hello service/hello
}

step_squatters() {
  {
    deployment_and_service taken
    printf -- '---\napiVersion: web.example.rrgen.dev/v1\nkind: WebApp\n'
    printf 'metadata: {namespace: demo, name: taken}\nspec: {image: registry.example/taken:1.0}\n'
  } | admin apply -f - >/dev/null
  wait_step "WebApp taken: DeploymentReady False NotOwned" 20 condition_is taken DeploymentReady "False NotOwned"
  wait_step "WebApp taken: ServiceReady False NotOwned" 20 condition_is taken ServiceReady "False NotOwned"
}

step_config_change() {
  local before
  before=$(field webapp/hello '{.status.configHash}')
  [[ -n $before ]] || { echo "FAIL: the WebApp has no configHash" >&2; exit 1; }
  admin patch configmap hello-config -n demo --type merge -p '{"data":{"GREETING":"bonjour"}}' >/dev/null
  config_hash_changed() { ! field_is webapp/hello '{.status.configHash}' "$before"; }
  wait_step "the configHash follows the ConfigMap" 20 config_hash_changed
}

step_event_repeated() {
  wait_step "an event about the WebApp counted twice" 20 event_counted_twice hello
}

step_deleted() {
  admin delete webapp hello -n demo --wait=false >/dev/null
  wait_step "the finalizer cleared, the WebApp gone" 20 gone webapp/hello
}
