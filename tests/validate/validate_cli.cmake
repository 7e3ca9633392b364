# validate.cli: `rrgen validate` end to end, through the rrgen executable as users run it (it finds
# rrgen-validate beside itself, through RRGEN_EXEC_PATH, or says where it looked): exit codes, text
# and JSON output, multi-document files, stdin, directories, a missing CRD, --strict, a CRD's CEL
# rule, admission policies (--policy), a YAML syntax error, usage errors.
# Arguments: -DRRGEN=<rrgen> -DVALIDATE=<rrgen-validate> -DDATA=<tests/validate/data> -DWORK=<scratch>
cmake_minimum_required(VERSION 3.22)
set(CRD "${DATA}/../../../runtime/manifest_check/tests/data/widget_crd.yaml")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(failures 0)

# run(<name> <exit> [STDIN file] [ENV k=v...] ARGS ...): runs rrgen validate ARGS in DATA; sets out_<name>.
function(run name expected_exit)
  cmake_parse_arguments(R "" "STDIN;PROGRAM" "ARGS;ENV" ${ARGN})
  set(program "${RRGEN}")
  if(R_PROGRAM)
    set(program "${R_PROGRAM}")
  endif()
  set(input_args "")
  if(R_STDIN)
    set(input_args INPUT_FILE "${R_STDIN}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env ${R_ENV} "${program}" validate ${R_ARGS}
    WORKING_DIRECTORY "${DATA}" ${input_args}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(out_${name} "${out}${err}" PARENT_SCOPE)
  if(NOT "${rc}" STREQUAL "${expected_exit}")
    message(SEND_ERROR "${name}: exit ${rc}, expected ${expected_exit}; printed:\n${out}${err}")
  endif()
endfunction()

function(expect name text)
  string(FIND "${out_${name}}" "${text}" at)
  if(at EQUAL -1)
    message(SEND_ERROR "${name}: expected the output to contain\n  ${text}\nit printed:\n${out_${name}}")
  endif()
endfunction()

function(expect_not name text)
  string(FIND "${out_${name}}" "${text}" at)
  if(NOT at EQUAL -1)
    message(SEND_ERROR "${name}: the output should not contain\n  ${text}\nit printed:\n${out_${name}}")
  endif()
endfunction()

# All admitted: exit 0, nothing printed.
run(valid 0 ARGS valid.yaml)
if(NOT out_valid STREQUAL "")
  message(SEND_ERROR "valid: printed:\n${out_valid}")
endif()

# A refused document of a multi-document file: file, line, document, the API server's words.
run(invalid 1 ARGS valid.yaml invalid.yaml)
expect(invalid "invalid.yaml:6: document 2: error: Pod \"Web\" is invalid: metadata.name: Invalid value: \"Web\": a lowercase RFC 1123 subdomain")
expect(invalid "invalid.yaml:6: document 2: error: Pod \"Web\" is invalid: spec.containers[0].image: Required value")
expect_not(invalid "document 1")

# stdin.
run(stdin 1 STDIN "${DATA}/invalid.yaml" ARGS -)
expect(stdin "-:6: document 2: error: Pod \"Web\" is invalid: spec.containers[0].image: Required value")

# JSON output: one entry per document with the Status the API server would return.
run(json 1 ARGS --output json invalid.yaml)
string(JSON n LENGTH "${out_json}")
string(JSON admitted_code GET "${out_json}" 0 status code)
string(JSON refused_code GET "${out_json}" 1 status code)
string(JSON refused_doc GET "${out_json}" 1 document)
string(JSON refused_line GET "${out_json}" 1 line)
string(JSON refused_kind GET "${out_json}" 1 kind)
string(JSON refused_name GET "${out_json}" 1 name)
string(JSON refused_reason GET "${out_json}" 1 status reason)
string(JSON cause_field GET "${out_json}" 1 status details causes 0 field)
if(NOT "${n}|${admitted_code}|${refused_code}|${refused_doc}|${refused_line}|${refused_kind}|${refused_name}|${refused_reason}|${cause_field}"
   STREQUAL "2|201|422|2|6|Pod|Web|Invalid|metadata.name")
  message(SEND_ERROR "json: unexpected entries:\n${out_json}")
endif()

# A custom resource without its CRD names the missing kind; with it, the CRD's CEL rule decides.
run(no_crd 1 ARGS widgets.yaml)
expect(no_crd "widgets.yaml:1: document 1: error: no matches for kind \"Widget\" in version \"example.dev/v1\"")
run(cel 1 ARGS --crd "${CRD}" widgets.yaml)
expect(cel "widgets.yaml:8: document 2: error: Widget.example.dev \"backwards\" is invalid: spec: Invalid value:")
expect(cel "min must not exceed max")
expect_not(cel "document 1")

# Unknown fields: a warning, or with --strict the API server's 400.
run(warn 0 ARGS --crd "${CRD}" unknown_field.yaml)
expect(warn "unknown_field.yaml:1: document 1: warning: unknown field \"spec.colour\"")
run(strict 1 ARGS --strict "--crd=${CRD}" unknown_field.yaml)
expect(strict "unknown_field.yaml:1: document 1: error: ")
expect(strict "unknown field \"spec.colour\"")

# A directory: its *.yaml and *.json files, recursively (notes.txt is not read).
run(dir 1 ARGS dir)
expect(dir "nested/b.json:1: document 1: error: Service \"Bad.Name\" is invalid: metadata.name: Invalid value: \"Bad.Name\"")
expect_not(dir "a.yaml")
expect_not(dir "notes.txt")

# A YAML syntax error: file:line:col, exit 2, and the next file is still checked.
run(syntax 2 ARGS broken.yaml invalid.yaml)
expect(syntax "broken.yaml:5:1: error: while parsing a flow sequence: did not find expected ',' or ']'")
expect(syntax "invalid.yaml:6: document 2: error:")

# Admission policies (--policy): created before the manifests are checked, then admitted through
# the API server's admission chain. Deny refuses with the API server's words; the first Deployment
# (4 replicas) passes.
run(vap_deny 1 ARGS --policy policies/max_replicas.yaml scaled.yaml)
expect(vap_deny "scaled.yaml:16: document 2: error: deployments.apps \"batch\" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: failed expression: object.spec.replicas <= 5")
expect_not(vap_deny "document 1")
# Policy and binding documents among the --crd inputs count too.
run(vap_in_crds 1 ARGS --crd policies/max_replicas.yaml scaled.yaml)
expect(vap_in_crds "document 2: error: deployments.apps \"batch\" is forbidden: ValidatingAdmissionPolicy 'max-replicas'")
# Warn: a warning per document, exit 0; the params (a ConfigMap after the policy in its file) are
# created first.
run(vap_warn 0 ARGS --policy policies/max_replicas_warn.yaml scaled.yaml)
expect(vap_warn "scaled.yaml:2: document 1: warning: Validation failed for ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-warn': at most 3 replicas")
expect(vap_warn "scaled.yaml:16: document 2: warning: Validation failed for ValidatingAdmissionPolicy 'replica-limit'")
expect_not(vap_warn "error")
# A Deny policy requiring a label refuses; a MutatingAdmissionPolicy that adds it makes both pass.
run(vap_label 1 ARGS --policy policies/team_label.yaml scaled.yaml)
expect(vap_label "scaled.yaml:2: document 1: error: deployments.apps \"api\" is forbidden: ValidatingAdmissionPolicy 'require-team' with binding 'require-team-binding' denied request: a Deployment needs a team label")
run(map_label 0 ARGS --policy policies/team_label.yaml --policy policies/add_team.yaml scaled.yaml)
if(NOT out_map_label STREQUAL "")
  message(SEND_ERROR "map_label: printed:\n${out_map_label}")
endif()
# Params of a custom kind: its CRD with --crd or among the --policy inputs; without it, the
# params object is refused (no such kind) and the binding then denies.
run(vap_crd_params 1 ARGS --crd "${CRD}" --policy policies/widget_limit.yaml scaled.yaml)
expect(vap_crd_params "scaled.yaml:16: document 2: error: deployments.apps \"batch\" is forbidden: ValidatingAdmissionPolicy 'widget-limit' with binding 'widget-limit-binding' denied request: at most 5 replicas")
expect_not(vap_crd_params "document 1")
run(vap_crd_in_policies 1 ARGS --policy "${CRD}" --policy policies/widget_limit.yaml scaled.yaml)
expect(vap_crd_in_policies "document 2: error: deployments.apps \"batch\" is forbidden: ValidatingAdmissionPolicy 'widget-limit' with binding 'widget-limit-binding' denied request: at most 5 replicas")
expect_not(vap_crd_in_policies "document 1")
run(vap_no_crd 1 ARGS --policy policies/widget_limit.yaml scaled.yaml)
expect(vap_no_crd "policies/widget_limit.yaml:23: document 3: error: no matches for kind \"Widget\" in version \"example.dev/v1\"")
# A policy the cluster refuses is reported against its file, as a refused CRD.
run(vap_refused 1 ARGS --policy policies/bad_name.yaml valid.yaml)
expect(vap_refused "policies/bad_name.yaml:2: document 1: error: ValidatingAdmissionPolicy.admissionregistration.k8s.io \"Max_Replicas\" is invalid: metadata.name: Invalid value: \"Max_Replicas\"")
run(no_policy_file 2 ARGS --policy)
expect(no_policy_file "--policy needs a file or directory")

# Usage and unreadable input: exit 2.
run(no_operand 2 ARGS)
expect(no_operand "no manifests given")
run(bad_output 2 ARGS --output xml valid.yaml)
run(bad_version 2 ARGS --kubernetes-version 1.20 valid.yaml)
run(missing_file 2 ARGS missing.yaml)
expect(missing_file "missing.yaml: error: cannot read the file")
run(help 0 ARGS --help)
expect(help "usage: rrgen validate")

# Where rrgen looks: beside itself (an installed bin/), RRGEN_EXEC_PATH, and an error naming each
# place when the program is nowhere.
file(MAKE_DIRECTORY "${WORK}/bin" "${WORK}/alone" "${WORK}/tools")
file(COPY "${RRGEN}" "${VALIDATE}" DESTINATION "${WORK}/bin")
file(COPY "${RRGEN}" DESTINATION "${WORK}/alone")
file(COPY "${VALIDATE}" DESTINATION "${WORK}/tools")
run(installed 1 PROGRAM "${WORK}/bin/rrgen" ENV PATH=/nonexistent ARGS invalid.yaml)
expect(installed "invalid.yaml:6: document 2: error:")
run(exec_path 1 PROGRAM "${WORK}/alone/rrgen" ENV PATH=/nonexistent "RRGEN_EXEC_PATH=${WORK}/tools" ARGS invalid.yaml)
expect(exec_path "invalid.yaml:6: document 2: error:")
run(absent 2 PROGRAM "${WORK}/alone/rrgen" ENV PATH=/nonexistent ARGS invalid.yaml)
expect(absent "the rrgen-validate program of the rr runtime was not found")
expect(absent "${WORK}/alone/rrgen-validate")
expect(absent "libexec/rrgen/rrgen-validate")
expect(absent "/nonexistent/rrgen-validate")
