# Every third-party dependency, found from Debian packages. docs/dependencies.md says why each was chosen.
find_package(nlohmann_json 3.10 REQUIRED)   # rr::Json, the DOM users navigate
find_package(fmt 9 REQUIRED)                 # generator text formatting
find_package(LibYAML REQUIRED)               # generator input; rr::yaml, YAML bodies (cmake/FindLibYAML.cmake)
find_package(RE2 REQUIRED)                   # Kubernetes pattern semantics (cmake/FindRE2.cmake)
find_package(yaml-cpp 0.7 REQUIRED)          # the local cluster's kubeconfig writer (rr::apiserver)
find_package(ZLIB REQUIRED)                  # gzip layers: rrgen image writes them, rr::node reads them
# rr::testing (the table harness users' tests link) is built on doctest, so it is needed even
# when rrgen's own tests are off.
find_package(doctest REQUIRED)
include(doctest)                             # doctest_discover_tests()
find_package(CURL 7.80 REQUIRED)             # rr::http_client: HTTP/1.1 + TLS to the API server (libcurl)
# cpp-httplib (Debian's libcpp-httplib-dev ships a compiled library with OpenSSL, zlib and brotli
# support and only a pkg-config file): the local cluster (rr::apiserver) and tests' HTTP clients.
# The manager's /metrics and probe endpoints have their own small server (docs/dependencies.md).
find_package(PkgConfig REQUIRED)
pkg_check_modules(CPP_HTTPLIB REQUIRED IMPORTED_TARGET GLOBAL cpp-httplib>=0.11)
if(NOT TARGET rrgen_httplib)
  add_library(rrgen_httplib INTERFACE IMPORTED GLOBAL)
  target_link_libraries(rrgen_httplib INTERFACE PkgConfig::CPP_HTTPLIB)
endif()
