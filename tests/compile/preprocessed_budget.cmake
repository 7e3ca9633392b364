# Compile-time guard: preprocesses one translation unit of the build with the exact command the
# build uses (from compile_commands.json, -c/-o replaced by -E -P) and fails when its preprocessed
# size passes the committed budget. Preprocessed size tracks the header cost every hooks file pays
# (issue 17: most of a hooks unit's -O0 time is headers), and unlike seconds it does not depend on
# the machine's load. When the size shrinks, lower the budget in the same commit.
#
#   cmake -DCOMPILE_COMMANDS=<build>/compile_commands.json -DSOURCE=<abs path of the .cpp>
#         -DBUDGET=<file> -DOUT=<scratch .i> -P preprocessed_budget.cmake
#
# BUDGET holds `lines N` and `bytes N` lines (comments with #): the limits of the -E -P output.
foreach(var COMPILE_COMMANDS SOURCE BUDGET OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "preprocessed_budget: -D${var}=... is required")
  endif()
endforeach()

file(READ "${COMPILE_COMMANDS}" db)
string(JSON count LENGTH "${db}")
set(command "")
set(directory "")
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON file GET "${db}" ${i} file)
  if(file STREQUAL SOURCE)
    string(JSON command GET "${db}" ${i} command)
    string(JSON directory GET "${db}" ${i} directory)
    break()
  endif()
endforeach()
if(command STREQUAL "")
  message(FATAL_ERROR "preprocessed_budget: ${SOURCE} is not in ${COMPILE_COMMANDS}")
endif()

# The build's command minus its output and dependency flags, plus -E -P (no line markers, so the
# count is the code the compiler parses).
separate_arguments(args UNIX_COMMAND "${command}")
set(keep "")
set(skip_next FALSE)
foreach(a IN LISTS args)
  if(skip_next)
    set(skip_next FALSE)
  elseif(a STREQUAL "-o" OR a STREQUAL "-MF" OR a STREQUAL "-MT" OR a STREQUAL "-MQ")
    set(skip_next TRUE)
  elseif(a STREQUAL "-c" OR a STREQUAL "-MD" OR a STREQUAL "-MMD" OR a MATCHES "^-fdiagnostics")
  else()
    list(APPEND keep "${a}")
  endif()
endforeach()
execute_process(COMMAND ${keep} -E -P -o "${OUT}" WORKING_DIRECTORY "${directory}" RESULT_VARIABLE rc
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "preprocessed_budget: preprocessing ${SOURCE} failed (${rc}):\n${err}")
endif()

file(READ "${OUT}" text)
string(LENGTH "${text}" bytes)
string(REGEX MATCHALL "\n" newlines "${text}")
list(LENGTH newlines lines)

file(STRINGS "${BUDGET}" budget_lines REGEX "^(lines|bytes) [0-9]+")
set(max_lines "")
set(max_bytes "")
foreach(l IN LISTS budget_lines)
  if(l MATCHES "^lines ([0-9]+)")
    set(max_lines ${CMAKE_MATCH_1})
  elseif(l MATCHES "^bytes ([0-9]+)")
    set(max_bytes ${CMAKE_MATCH_1})
  endif()
endforeach()
if(max_lines STREQUAL "" OR max_bytes STREQUAL "")
  message(FATAL_ERROR "preprocessed_budget: ${BUDGET} needs a 'lines N' and a 'bytes N' line")
endif()

message(STATUS "${SOURCE}: preprocessed ${lines} lines (budget ${max_lines}), ${bytes} bytes (budget ${max_bytes})")
if(lines GREATER max_lines OR bytes GREATER max_bytes)
  # STATUS, not FATAL_ERROR, for the verdict: CMake wraps error text, and tests match this line.
  message(STATUS "preprocessed size of ${SOURCE} is over its budget: ${lines} lines (budget ${max_lines}), "
                 "${bytes} bytes (budget ${max_bytes})")
  message(FATAL_ERROR "A header this unit includes grew or pulls in more than before: make it lighter, or raise "
                      "${BUDGET} if the growth is worth its compile time.")
endif()
