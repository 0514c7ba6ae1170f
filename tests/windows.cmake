# Windows build (cross-compiled with mingw-w64): the portable unit tests and
# the Windows integration set (tests/win/), run through Wine by ctest via
# CMAKE_CROSSCOMPILING_EMULATOR (cmake/mingw-w64-x86_64.cmake sets it).
# Left out: tests of sysfs/procfs trees, the device monitor, the lab, and
# tests that need open_memstream (not in msvcrt), fio job files naming libaio
# (test_fiojob) and PostgreSQL connection strings (test_tpcc_db): the Windows
# build has neither; test_group times phases to 10%, which Wine's timers (and
# a loaded machine) do not keep: figures under Wine are not judged.
set(WIN_UNIT_TESTS test_hist test_summary test_units test_options test_diskspd test_offsets
    test_verify test_compare test_import test_profiles test_tpcc_rand
    test_cpu_percpu)
# DLLs the test programs load: the cross-built libraries and winpthreads
find_file(WINPTHREAD_DLL libwinpthread-1.dll PATHS /usr/x86_64-w64-mingw32/lib NO_CMAKE_FIND_ROOT_PATH)
get_filename_component(WINPTHREAD_DIR "${WINPTHREAD_DLL}" DIRECTORY)
set(WIN_DLL_PATH "${IOMARK_WIN_DEPS}/bin\\;${WINPTHREAD_DIR}")
foreach(name ${WIN_UNIT_TESTS})
  if(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/unit/${name}.c)
    continue()
  endif()
  add_executable(${name} unit/${name}.c)
  target_link_libraries(${name} PRIVATE iomarkcore)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    ENVIRONMENT "WINEPATH=${WIN_DLL_PATH};WINEDEBUG=-all")
endforeach()

# Windows-only unit tests (tests/win/test_*.c)
file(GLOB WIN_ONLY_UNIT CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/win/test_*.c)
foreach(src ${WIN_ONLY_UNIT})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  target_link_libraries(${name} PRIVATE iomarkcore)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    ENVIRONMENT "WINEPATH=${WIN_DLL_PATH};WINEDEBUG=-all")
endforeach()

file(GLOB WIN_INTEG_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/win/test_*.sh)
list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " WIN_EMU)
foreach(src ${WIN_INTEG_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_test(NAME win_${name} COMMAND bash ${src})
  set_tests_properties(win_${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
    ENVIRONMENT "IOMARK=$<TARGET_FILE:iomark>;IOMARK_EMU=${WIN_EMU};WINEPATH=${WIN_DLL_PATH};WINEDEBUG=-all;SRCDIR=${CMAKE_SOURCE_DIR}")
endforeach()
