# abtool_embed(OUT BASE FILES...): write a C file holding every FILE as a
# byte array, named by its path relative to BASE, with a lookup table
# `ab_embedded[]` (see abtool/util/embed.h). Reruns when any FILE changes.
function(abtool_embed out base)
  set(list_file ${out}.files)
  string(REPLACE ";" "\n" lines "${ARGN}")
  file(WRITE ${list_file}.new "${lines}\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${list_file}.new ${list_file})
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DBASE=${base} -DLIST=${list_file}
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_gen.cmake
    DEPENDS ${ARGN} ${list_file} ${CMAKE_SOURCE_DIR}/cmake/embed_gen.cmake
    COMMENT "Embedding migrations and templates"
    VERBATIM)
endfunction()
