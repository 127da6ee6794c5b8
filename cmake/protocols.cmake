# One library per protocol folder (src/proto/<name>/), built twice from the same objects:
# nasperf_proto_<name> (static, for the test binaries, which link every protocol) and the
# plugin nasperf-<name>.so (a MODULE the binary dlopens on first use; it links only the
# protocol's client library, and takes nasperf's own code from the binary).
#
#   nasperf_protocol(NAME smb LIBS PkgConfig::SMBCLIENT)
#
# Its files may include from proto/ and every layer below it (the layer check).
function(nasperf_protocol)
  cmake_parse_arguments(P "" "NAME" "LIBS" ${ARGN})
  set(folder ${CMAKE_SOURCE_DIR}/src/proto/${P_NAME})
  file(GLOB sources CONFIGURE_DEPENDS ${folder}/*.cpp)
  file(GLOB headers CONFIGURE_DEPENDS ${folder}/*.h)
  list(FILTER sources EXCLUDE REGEX "_test\\.cpp$")

  get_property(closure GLOBAL PROPERTY NASPERF_LAYER_CLOSURE_proto)
  nasperf_layer_probes(proto/${P_NAME} probes)
  set(checked ${sources} ${headers} ${probes})
  list(JOIN checked "|" checked_arg)
  list(JOIN closure "|" allowed_arg)
  set(stamp ${CMAKE_BINARY_DIR}/layers/proto_${P_NAME}.checked)
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DLAYER=proto "-DALLOWED=${allowed_arg}" "-DFILES=${checked_arg}"
            -DROOT=${CMAKE_SOURCE_DIR} -DOWN=proto/${P_NAME} -DSTAMP=${stamp} -P ${NASPERF_LAYER_CHECK}
    DEPENDS ${checked} ${NASPERF_LAYER_CHECK}
    COMMENT "layers: src/proto/${P_NAME} includes only from proto/ (not another protocol's) and below"
    VERBATIM)
  add_custom_target(nasperf_layer_check_proto_${P_NAME} DEPENDS ${stamp})

  add_library(nasperf_proto_${P_NAME}_objects OBJECT ${sources} ${stamp})
  set_target_properties(nasperf_proto_${P_NAME}_objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
  # Headers and compile settings only (nasperf_api is an interface): no archive of nasperf's.
  target_link_libraries(nasperf_proto_${P_NAME}_objects PRIVATE nasperf_api ${P_LIBS})

  add_library(nasperf_proto_${P_NAME} STATIC $<TARGET_OBJECTS:nasperf_proto_${P_NAME}_objects>)
  target_link_libraries(nasperf_proto_${P_NAME} PUBLIC nasperf_proto ${P_LIBS})

  add_library(nasperf-${P_NAME} MODULE $<TARGET_OBJECTS:nasperf_proto_${P_NAME}_objects>)
  target_link_libraries(nasperf-${P_NAME} PRIVATE ${P_LIBS} fmt::fmt Threads::Threads)
  set_target_properties(nasperf-${P_NAME} PROPERTIES PREFIX "" LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
  install(TARGETS nasperf-${P_NAME} LIBRARY DESTINATION lib/nasperf)
  set_property(GLOBAL APPEND PROPERTY NASPERF_PROTOCOLS ${P_NAME})
endfunction()
