# Install and package (included from CMakeLists.txt).
#
# `cmake --install BUILD [--prefix P]` installs
#   P/bin/iomark
#   P/share/man/man1/iomark.1 and iomark-CMD.1, one per sub-command
#   P/share/bash-completion/completions/iomark
# The man pages and the completion are generated at build time from the
# built binary's help text (scripts/gen-docs.sh: `iomark --help` and
# `iomark CMD --help`, which print the option tables), so they cannot drift
# from the options. Not when cross-compiling (the binary cannot run here).
#
# `cpack -G DEB` (in BUILD) makes iomark_VERSION_ARCH.deb installing under
# /usr, its Depends computed by dpkg-shlibdeps from the linked libraries.
include(GNUInstallDirs)

install(TARGETS iomark RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

if(NOT CMAKE_CROSSCOMPILING)
  set(IOMARK_DOC_DIR ${CMAKE_BINARY_DIR}/doc)
  add_custom_command(OUTPUT ${IOMARK_DOC_DIR}/stamp
    COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0
            sh ${CMAKE_SOURCE_DIR}/scripts/gen-docs.sh $<TARGET_FILE:iomark> ${IOMARK_DOC_DIR}
    COMMAND ${CMAKE_COMMAND} -E touch ${IOMARK_DOC_DIR}/stamp
    DEPENDS iomark ${CMAKE_SOURCE_DIR}/scripts/gen-docs.sh
    COMMENT "Man pages and bash completion from iomark's help text"
    VERBATIM)
  add_custom_target(docs ALL DEPENDS ${IOMARK_DOC_DIR}/stamp)
  install(DIRECTORY ${IOMARK_DOC_DIR}/man/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
          FILES_MATCHING PATTERN "*.1")
  install(FILES ${IOMARK_DOC_DIR}/completion/iomark
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME iomark)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "storage benchmark and virtual disk controller lab")
set(CPACK_PACKAGE_DESCRIPTION
    "fio-style runs on files and block devices, DiskSpd and CrystalDiskMark modes, a TPC-C derived\nworkload, a probe of controllers and queue limits, and a QEMU controller lab.")
set(CPACK_PACKAGE_CONTACT "iomark developers <iomark-devel@users.noreply.github.com>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)          # iomark_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)            # Depends from dpkg-shlibdeps
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "fio, qemu-system-x86, postgresql, man-db, bash-completion")
include(CPack)
