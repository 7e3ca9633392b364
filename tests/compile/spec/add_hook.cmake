# cmake -DIN=<hooks.hpp> -DOUT=<copy> -DAFTER=<hook> -DHOOK=<declaration> [-DINCLUDE=<header>] -P add_hook.cmake
# Copies a hooks header with the declaration HOOK (without its semicolon) added after the
# declaration of the hook AFTER and, when INCLUDE is given, an #include of it: the user's file
# declaring an optional hook. The counterpart of drop_hook.cmake.
file(READ "${IN}" text)
string(REGEX REPLACE "(\n[^\n]*[ ]${AFTER}\\([^;]*;)" "\\1\n  ${HOOK};" added "${text}")
if(added STREQUAL text)
  message(FATAL_ERROR "add_hook.cmake: ${IN} declares no ${AFTER}")
endif()
if(INCLUDE)
  string(REPLACE "#pragma once\n" "#pragma once\n\n#include \"${INCLUDE}\"\n" added "${added}")
endif()
file(WRITE "${OUT}" "${added}")
