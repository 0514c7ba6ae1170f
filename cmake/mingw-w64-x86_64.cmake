# CMake toolchain file: cross-compile for 64-bit Windows with Debian's mingw-w64
# (package gcc-mingw-w64-x86-64). Use with
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake ...
# Libraries built for Windows (scripts/build-windows.sh puts them under
# build-win/deps) are found through CMAKE_PREFIX_PATH / PKG_CONFIG_LIBDIR.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(MINGW_TRIPLET x86_64-w64-mingw32)

# Debian installs two variants: -win32 (Win32 threads) and -posix (winpthreads).
# The posix variant is not required: iomark links winpthreads itself.
find_program(CMAKE_C_COMPILER NAMES ${MINGW_TRIPLET}-gcc-win32 ${MINGW_TRIPLET}-gcc REQUIRED)
find_program(CMAKE_CXX_COMPILER NAMES ${MINGW_TRIPLET}-g++-win32 ${MINGW_TRIPLET}-g++)
find_program(CMAKE_RC_COMPILER NAMES ${MINGW_TRIPLET}-windres)
set(CMAKE_AR ${MINGW_TRIPLET}-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${MINGW_TRIPLET}-ranlib CACHE FILEPATH "")

# The cross-built libraries: -DIOMARK_WIN_DEPS=DIR, else build-win/deps.
if(NOT IOMARK_WIN_DEPS)
  set(IOMARK_WIN_DEPS ${CMAKE_CURRENT_LIST_DIR}/../build-win/deps)
endif()
get_filename_component(IOMARK_WIN_DEPS "${IOMARK_WIN_DEPS}" ABSOLUTE)
set(IOMARK_WIN_DEPS "${IOMARK_WIN_DEPS}" CACHE PATH "cross-built Windows libraries")
set(CMAKE_FIND_ROOT_PATH /usr/${MINGW_TRIPLET} ${IOMARK_WIN_DEPS})
set(ENV{PKG_CONFIG_LIBDIR} "${IOMARK_WIN_DEPS}/lib/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Windows 8 / Server 2012 API level: FILE_ALIGNMENT_INFO, StorageAccessAlignmentProperty.
add_compile_definitions(_WIN32_WINNT=0x0602 WINVER=0x0602)

# Tests run through Wine when it is installed (ctest uses this emulator).
find_program(IOMARK_WINE NAMES wine64 wine PATHS /usr/lib/wine)
if(IOMARK_WINE AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  set(CMAKE_CROSSCOMPILING_EMULATOR "env;WINEDEBUG=-all;DISPLAY=;${IOMARK_WINE}")
endif()
