# packaging.cmake - `cpack -G DEB` in the build folder makes a Debian
# package of whatever `cmake --install` installs (the binary, and the man
# page and shell completions when their install rules are there). The
# dependencies are computed from the binary's libraries by dpkg-shlibdeps
# when it is installed (dpkg-dev), else the list below, which is the
# bookworm names of the libraries abtool links with (ldd build/abtool);
# libpq5, which abtool loads only for a PostgreSQL store, is recommended.
# The package's doc folder, /usr/share/doc/abtool, holds its copyright
# file and its Debian changelog (changelog.Debian.gz, as Debian's policy
# wants it of a package whose version has a revision: 0.1.0-1), which
# cmake --install installs too. README.md, "A Debian package", says how
# to build and install it; make package-check runs lintian on it.
set(CPACK_PACKAGE_NAME abtool)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "exact-parent A/B performance experiments for git repositories")
# lines under 80 columns, as Debian's control files want them
set(CPACK_PACKAGE_DESCRIPTION "abtool builds a candidate commit and its exact parent, runs
their benchmark in order-balanced pairs, and decides a verdict (accepted,
rejected, inconclusive, invalid) against the experiment's rules, keeping
every run in a store (a sqlite file, or a team's PostgreSQL database).")
set(CPACK_STRIP_FILES ON)
set(ABTOOL_MAINTAINER "abtool maintainers <maintainers@users.noreply.a-seed-acdb2d0b.example>"
  CACHE STRING "the package's Maintainer: field (NAME <ADDRESS>)")
set(CPACK_PACKAGE_CONTACT "${ABTOOL_MAINTAINER}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
find_program(ABTOOL_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(ABTOOL_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6, libgit2-1.5, libsqlite3-0, libjansson4, libyaml-0-2, libpcre2-8-0, libssl3, libcsv3, liburiparser1, zlib1g")
endif()
# libpq is loaded when a PostgreSQL store is opened, not linked
# (store/store_pg.c): dpkg-shlibdeps does not see it, and a user of sqlite
# stores only does not need it. Recommends installs it by default.
if(ABTOOL_POSTGRESQL)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libpq5")
endif()
# abtool runs the experiment's build and benchmark commands: git and make are
# what most of them need, not what abtool itself needs.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "git, make")
set(CPACK_GENERATOR DEB)
configure_file(${CMAKE_SOURCE_DIR}/cmake/debian/changelog.in ${CMAKE_BINARY_DIR}/debian/changelog.Debian
  @ONLY)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/debian/changelog.Debian.gz
  COMMAND ${ABTOOL_GZIP} -9nkf ${CMAKE_BINARY_DIR}/debian/changelog.Debian
  DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog.Debian
  COMMENT "Compressing the Debian changelog" VERBATIM)
add_custom_target(abtool_changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog.Debian.gz)
install(FILES ${CMAKE_SOURCE_DIR}/cmake/debian/copyright ${CMAKE_BINARY_DIR}/debian/changelog.Debian.gz
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
include(CPack)
