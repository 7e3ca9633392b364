# rr::run_operator(): an operator's main() (flags, connection, manager, cache, controllers). The
# embedded local cluster behind --local-cluster-kubeconfig is rr::local_cluster_mode's, an opt-in.
target_sources(rr_manager PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/operator_main.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/rest_client_metrics.cpp  # rr::HttpClient's requests as client-go's rest_client_*
)
target_link_libraries(rr_manager PUBLIC rr::http_client rr::rest_config)
