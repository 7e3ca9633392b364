# cmake -DIN=<hooks.hpp> -DOUT=<copy> -DHOOK=<name> -P drop_hook.cmake
# Copies a hooks header without the declaration of HOOK: the user's file lacking one hook.
file(READ "${IN}" text)
string(REGEX REPLACE "\n[^\n]*[ ]${HOOK}\\([^;]*;" "" kept "${text}")
if(kept STREQUAL text)
  message(FATAL_ERROR "drop_hook.cmake: ${IN} declares no ${HOOK}")
endif()
file(WRITE "${OUT}" "${kept}")
