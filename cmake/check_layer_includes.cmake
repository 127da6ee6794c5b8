cmake_minimum_required(VERSION 3.20)
# Fails when a source file of a layer includes a project header it may not (cmake/layers.cmake,
# docs/architecture.md). Run by the build:
#   cmake -DLAYER=engine -DALLOWED="base|engine|nasperf" -DFILES="a.cpp|b.h" -DROOT=<source dir>
#         [-DOWN=proto/smb] [-DSTAMP=out] -P check_layer_includes.cmake
# Refused, whatever the layer:
#   - a quoted include from a folder not in ALLOWED ("cli/commands.h" in engine/);
#   - a project header in angle brackets (<cli/commands.h>: it would bypass the rule above),
#     known as one because ROOT/src/<path> or ROOT/include/<path> exists (<net/if.h> is the
#     system's, not src/net/'s);
#   - a path that climbs (".." anywhere), which could reach any folder;
#   - with OWN (a protocol's folder), another protocol's folder ("proto/nfs/..." in proto/smb/).
string(REPLACE "|" ";" allowed "${ALLOWED}")
string(REPLACE "|" ";" files "${FILES}")
set(violations "")
foreach(file IN LISTS files)
  file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*([<\"][^>\"]*[>\"]).*" "\\1" spelled "${line}")
    string(SUBSTRING "${spelled}" 0 1 opening)
    string(LENGTH "${spelled}" spelled_length)
    math(EXPR path_length "${spelled_length} - 2")
    string(SUBSTRING "${spelled}" 1 ${path_length} path)
    set(why "")
    if(path MATCHES "(^|/)\\.\\.(/|$)")
      set(why "a path that climbs")
    elseif(opening STREQUAL "<")
      if(ROOT AND path MATCHES "/" AND (EXISTS "${ROOT}/src/${path}" OR EXISTS "${ROOT}/include/${path}"))
        set(why "a project header in angle brackets")
      endif()
    elseif(path MATCHES "^([a-z_0-9]+)/")
      set(folder "${CMAKE_MATCH_1}")
      if(NOT folder IN_LIST allowed)
        set(why "from ${folder}/")
      elseif(OWN AND path MATCHES "^proto/([a-z_0-9]+)/" AND NOT path MATCHES "^${OWN}/")
        set(why "another protocol's folder")
      endif()
    endif()
    if(why)
      string(APPEND violations "\n  ${file}: #include ${spelled} (${why})")
    endif()
  endforeach()
endforeach()
if(violations)
  string(REPLACE ";" ", " allowed_text "${allowed}")
  set(own_text "")
  if(OWN)
    set(own_text " (of proto/ only its own ${OWN}/)")
  endif()
  message(FATAL_ERROR "layer '${LAYER}' may include only from: ${allowed_text}${own_text}, in quotes, "
                      "without '..' (docs/architecture.md); refused includes:${violations}")
endif()
if(STAMP)
  get_filename_component(stamp_dir "${STAMP}" DIRECTORY)
  file(MAKE_DIRECTORY "${stamp_dir}")
  file(TOUCH "${STAMP}")
endif()
