# Two role manifests grant the same: equal once their comment lines are set aside.
#   cmake -DEXPECTED=role.yaml -DACTUAL=analyzed_role.yaml -P same_rules.cmake
foreach(var EXPECTED ACTUAL)
  if(NOT EXISTS "${${var}}")
    message(FATAL_ERROR "${var}: no file ${${var}}")
  endif()
  file(STRINGS "${${var}}" _lines)
  list(FILTER _lines EXCLUDE REGEX "^#")
  string(REPLACE ";" "\n" _text_${var} "${_lines}")
endforeach()
if(NOT _text_EXPECTED STREQUAL _text_ACTUAL)
  message(FATAL_ERROR "${ACTUAL} does not grant what ${EXPECTED} grants:\n--- ${EXPECTED}\n${_text_EXPECTED}\n"
                      "--- ${ACTUAL}\n${_text_ACTUAL}")
endif()
message(STATUS "same rules: ${ACTUAL} and ${EXPECTED}")
