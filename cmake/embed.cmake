# abtool_embed(OUT BASE FILES...): write a C file holding every FILE as a
# byte array, named by its path relative to BASE, with a lookup table
# `ab_embedded[]` (see abtool/embed.h). Reruns when any FILE changes.
function(abtool_embed out base)
  set(files ${ARGN})
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DBASE=${base} "-DFILES=${files}"
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_gen.cmake
    DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/embed_gen.cmake
    COMMENT "Embedding migrations and templates")
endfunction()
