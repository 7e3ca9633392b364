# rrgen_add_image(<executable target>
#   [IMAGE <repository>:<tag> | SPEC <reconciler.yaml>] [RECONCILER <add_reconciler name>]
#   [OUTPUT_DIR <dir>] [PORTS <port>...] [LABELS <key>=<value>...])
#
# Builds, in ALL, the target <exe>_image: an OCI image layout (docs/image.md) of the executable,
# made by `rrgen image` at build time, without a container daemon (as ko and jib do):
#   1. the executable's debug sections are stripped (CMAKE_OBJCOPY --strip-debug) into
#      <exe file>.stripped beside it (beside, so that a $ORIGIN in its RUNPATH means the same);
#   2. `rrgen image` writes OUTPUT_DIR (default <binary dir>/<exe>_image): the layout, `digest`,
#      `image-ref`, a `Dockerfile` and `files.txt`.
# The image's name is IMAGE, else the `image:` of SPEC, else of RECONCILER's spec (the same name
# config/manager uses); IMAGE wins over both. The layout is byte-reproducible: set
# SOURCE_DATE_EPOCH in the build's environment to date it (0 otherwise).
# Target properties of <exe>_image: RRGEN_IMAGE_DIR (the layout), RRGEN_IMAGE_DIGEST_FILE,
# RRGEN_IMAGE_REF_FILE (repository:tag@sha256:...); with RECONCILER, RRGEN_INSTALL_YAML (its
# dist/install.yaml, pinned to the digest by <exe>_image_pin, as is its config/manager).
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/RrgenGenerate.cmake")

function(rrgen_add_image exe)
  set(caller "rrgen_add_image(${exe})")
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "IMAGE;SPEC;RECONCILER;OUTPUT_DIR" "PORTS;LABELS")
  set(problems "")
  if(ARG_UNPARSED_ARGUMENTS)
    string(REPLACE ";" " " unparsed "${ARG_UNPARSED_ARGUMENTS}")
    list(APPEND problems "unknown arguments '${unparsed}': the keywords are IMAGE SPEC RECONCILER OUTPUT_DIR PORTS LABELS")
  endif()
  foreach(keyword IN LISTS ARG_KEYWORDS_MISSING_VALUES)
    list(APPEND problems "${keyword} given without a value")
  endforeach()
  if(NOT TARGET ${exe})
    list(APPEND problems "there is no target '${exe}' (define the executable first)")
  else()
    get_target_property(type ${exe} TYPE)
    if(NOT type STREQUAL "EXECUTABLE")
      list(APPEND problems "'${exe}' is a ${type}, not an executable")
    endif()
  endif()
  if(TARGET ${exe}_image)
    list(APPEND problems "a target named '${exe}_image' already exists")
  endif()
  if(ARG_SPEC AND ARG_RECONCILER)
    list(APPEND problems "give SPEC or RECONCILER, not both")
  endif()
  set(spec "")
  if(ARG_SPEC)
    get_filename_component(spec "${ARG_SPEC}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${spec}")
      list(APPEND problems "SPEC file '${ARG_SPEC}' does not exist")
    endif()
  elseif(ARG_RECONCILER)
    if(TARGET ${ARG_RECONCILER})
      get_target_property(spec ${ARG_RECONCILER} RRGEN_SPEC_FILE)
    endif()
    if(NOT spec)
      list(APPEND problems "RECONCILER '${ARG_RECONCILER}' is not a reconciler made by add_reconciler()")
      set(spec "")
    endif()
  endif()
  if(NOT ARG_IMAGE AND NOT ARG_SPEC AND NOT ARG_RECONCILER)
    list(APPEND problems "name the image: IMAGE <repository>:<tag>, SPEC <reconciler.yaml> or RECONCILER <name>")
  endif()
  if(problems)
    list(JOIN problems "\n  " text)
    message(SEND_ERROR "${caller}:\n  ${text}")
    return()
  endif()
  _rrgen_tool("${caller}" tool tool_depends)
  if(NOT tool)
    return()
  endif()

  set(out "${CMAKE_CURRENT_BINARY_DIR}/${exe}_image")
  if(ARG_OUTPUT_DIR)
    get_filename_component(out "${ARG_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  set(name_args "")
  if(spec)
    list(APPEND name_args --spec "${spec}")
  endif()
  if(ARG_IMAGE)
    list(APPEND name_args --image "${ARG_IMAGE}")
  endif()
  foreach(port IN LISTS ARG_PORTS)
    list(APPEND name_args --port "${port}")
  endforeach()
  foreach(label IN LISTS ARG_LABELS)
    list(APPEND name_args --label "${label}")
  endforeach()

  # Debug sections are most of a Debug build's executable and none of what runs. Without objcopy
  # (a toolchain that has none), the executable goes in as built.
  set(stripped "$<TARGET_FILE:${exe}>.stripped")
  if(CMAKE_OBJCOPY)
    set(strip_command "${CMAKE_OBJCOPY}" --strip-debug "$<TARGET_FILE:${exe}>" "${stripped}")
  else()
    set(strip_command "${CMAKE_COMMAND}" -E copy "$<TARGET_FILE:${exe}>" "${stripped}")
  endif()
  set(outputs "${out}/index.json" "${out}/oci-layout" "${out}/digest" "${out}/image-ref" "${out}/Dockerfile"
    "${out}/files.txt")
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${strip_command}
    COMMAND ${tool} image --quiet --executable "${stripped}" ${name_args} --out "${out}"
    DEPENDS ${exe} ${tool_depends} ${spec}
    COMMENT "rrgen: image of ${exe}"
    VERBATIM)
  add_custom_target(${exe}_image ALL DEPENDS ${outputs})
  set_target_properties(${exe}_image PROPERTIES
    RRGEN_IMAGE_DIR "${out}" RRGEN_IMAGE_DIGEST_FILE "${out}/digest" RRGEN_IMAGE_REF_FILE "${out}/image-ref")

  # ---- after the image: pinning ------------------------------------------------------------------
  # With RECONCILER, its config/ and dist/install.yaml name the image by this digest (`rrgen
  # pin-image`, docs/deploy-config.md). The pin runs again whenever the generator wrote (it
  # touches role.yaml then, and its new kustomization has no digest) or the image changed.
  if(ARG_RECONCILER)
    get_target_property(generated ${ARG_RECONCILER} RRGEN_OUTPUT_DIR)
    set(pinned "${out}/pinned.stamp")
    add_custom_command(
      OUTPUT "${pinned}"
      COMMAND ${tool} pin-image --quiet --out "${generated}" --digest-file "${out}/digest"
      COMMAND "${CMAKE_COMMAND}" -E touch "${pinned}"
      DEPENDS "${out}/digest" "${generated}/config/rbac/role.yaml" ${tool_depends}
      COMMENT "rrgen: pin ${ARG_RECONCILER}'s config/ to the image of ${exe}"
      VERBATIM)
    add_custom_target(${exe}_image_pin ALL DEPENDS "${pinned}")
    add_dependencies(${exe}_image_pin ${exe}_image generate_${ARG_RECONCILER})
    set_target_properties(${exe}_image PROPERTIES RRGEN_INSTALL_YAML "${generated}/dist/install.yaml")
  endif()
endfunction()
