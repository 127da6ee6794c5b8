# One static library per folder of src/, linked in the one allowed direction
# (docs/architecture.md). Each library's build first checks that its files include only
# from itself and the layers below it, so an upward include fails the build.
#
#   nasperf_layer(NAME engine DEPS base LIBS PkgConfig::URING [EXCLUDE regex] [UNITY])
#
# builds src/engine/**.cpp (minus *_test.cpp) into nasperf_engine, linked PUBLIC to
# nasperf_base and the LIBS. UNITY compiles its files a dozen at a time, as one file each
# (CMake's unity build): for a layer whose files all instantiate the same heavy templates.
# Its files then share one scope, so two of them may not define the same name in an
# anonymous namespace (fold such a helper into one). "nasperf" (include/nasperf, the public contract) is below
# every layer.
set(NASPERF_LAYER_CHECK ${CMAKE_CURRENT_LIST_DIR}/check_layer_includes.cmake)
# Test-only: "layer=file;..." adds each file to that layer's checked files (a protocol's
# layer is proto/<name>), so tests/layers/ can show the real build refusing it. Each check
# is also a target of its own, nasperf_layer_check_<layer> (proto_<name> for a protocol).
set(NASPERF_LAYER_PROBES "" CACHE STRING "test-only: layer=file pairs the layer check also reads")

# The probe files named for `layer`, in `out`.
function(nasperf_layer_probes layer out)
  set(found "")
  foreach(probe IN LISTS NASPERF_LAYER_PROBES)
    if(probe MATCHES "^([^=]+)=(.+)$" AND CMAKE_MATCH_1 STREQUAL layer)
      list(APPEND found "${CMAKE_MATCH_2}")
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()
# Make (unlike Ninja) does not create an output's directory.
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/layers)

function(nasperf_layer)
  cmake_parse_arguments(L "UNITY" "NAME;EXCLUDE" "DEPS;LIBS;SOURCES" ${ARGN})
  set(folder ${CMAKE_SOURCE_DIR}/src/${L_NAME})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${folder}/*.cpp)
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS ${folder}/*.h)
  list(FILTER sources EXCLUDE REGEX "_test\\.cpp$")
  if(L_EXCLUDE)
    list(FILTER sources EXCLUDE REGEX "${L_EXCLUDE}")
    list(FILTER headers EXCLUDE REGEX "${L_EXCLUDE}")
  endif()

  set(closure ${L_NAME} nasperf)
  foreach(dep IN LISTS L_DEPS)
    get_property(dep_closure GLOBAL PROPERTY NASPERF_LAYER_CLOSURE_${dep})
    if(NOT dep_closure)
      message(FATAL_ERROR "layer ${L_NAME}: its dependency ${dep} must be declared before it")
    endif()
    list(APPEND closure ${dep_closure})
  endforeach()
  list(REMOVE_DUPLICATES closure)
  set_property(GLOBAL PROPERTY NASPERF_LAYER_CLOSURE_${L_NAME} "${closure}")

  nasperf_layer_probes(${L_NAME} probes)
  set(checked ${sources} ${headers} ${probes})
  list(JOIN checked "|" checked_arg)
  list(JOIN closure "|" allowed_arg)
  set(stamp ${CMAKE_BINARY_DIR}/layers/${L_NAME}.checked)
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DLAYER=${L_NAME} "-DALLOWED=${allowed_arg}" "-DFILES=${checked_arg}"
            -DROOT=${CMAKE_SOURCE_DIR} -DSTAMP=${stamp} -P ${NASPERF_LAYER_CHECK}
    DEPENDS ${checked} ${NASPERF_LAYER_CHECK}
    COMMENT "layers: src/${L_NAME} includes only from below it"
    VERBATIM)
  add_custom_target(nasperf_layer_check_${L_NAME} DEPENDS ${stamp})

  set(dep_targets "")
  foreach(dep IN LISTS L_DEPS)
    list(APPEND dep_targets nasperf_${dep})
  endforeach()
  if(sources OR L_SOURCES)
    add_library(nasperf_${L_NAME} STATIC ${sources} ${L_SOURCES} ${stamp})
    target_link_libraries(nasperf_${L_NAME} PUBLIC nasperf_api ${dep_targets} ${L_LIBS})
    if(L_UNITY)
      set_target_properties(nasperf_${L_NAME} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 12)
    endif()
  else()
    add_library(nasperf_${L_NAME} INTERFACE ${stamp})
    target_link_libraries(nasperf_${L_NAME} INTERFACE nasperf_api ${dep_targets} ${L_LIBS})
  endif()
endfunction()
