# cmake.consumer.noop: building the built consumer again runs nothing: no generator, no compile.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

build_project(again "${WORK}/consumer/build")
if(NOT again_output MATCHES "ninja: no work to do")
  fail("a rebuild with nothing changed did work:\n${again_output}")
endif()
