# Windows source selection (included from CMakeLists.txt when WIN32).
# Linux-only modules stay out: the io_uring and libaio engines, the
# sysfs/libblkid target checks (core/target.c, core/target_refuse.c;
# core/target_win.c instead),
# the QEMU lab (cli/cmd_lab_win.c says so), PostgreSQL for tpcc (libpq), the
# sysfs lookup of a database's device (tpcc/devinfo_win.c instead).
list(FILTER IOMARK_LIB_SOURCES EXCLUDE REGEX "/src/lab/")
list(FILTER IOMARK_LIB_SOURCES EXCLUDE REGEX "/src/engine/(io_uring|libaio)\\.c$")
list(FILTER IOMARK_LIB_SOURCES EXCLUDE REGEX "/src/core/target(_refuse)?\\.c$")
list(FILTER IOMARK_LIB_SOURCES EXCLUDE REGEX "/src/tpcc/(db_pg|devinfo)\\.c$")
list(FILTER IOMARK_CLI_SOURCES EXCLUDE REGEX "/src/cli/cmd_lab\\.c$")
file(GLOB IOMARK_WIN_PLATFORM CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/platform/*.c)
list(APPEND IOMARK_LIB_SOURCES ${IOMARK_WIN_PLATFORM})

# Headers mingw-w64 lacks (sys/utsname.h, ...) come from src/platform/include.
include_directories(BEFORE ${CMAKE_SOURCE_DIR}/src/platform/include)
# 64-bit off_t; C99 printf (%zu, %llu); localtime_r/gmtime_r
add_compile_definitions(_FILE_OFFSET_BITS=64 __USE_MINGW_ANSI_STDIO=1 _POSIX_THREAD_SAFE_FUNCTIONS=200112L)
# format(printf) means ms_printf to GCC for mingw targets and would flag
# %zu/%llu that __USE_MINGW_ANSI_STDIO prints correctly; the Linux build
# checks the same format strings.
add_compile_options(-Wno-format)
add_compile_options(-include ${CMAKE_SOURCE_DIR}/src/platform/include/iom_compat_win.h)
# Static libgcc: one DLL fewer; winpthreads (libwinpthread-1.dll) for pthreads.
add_link_options(-static-libgcc)
set(IOMARK_WIN_LIBS PkgConfig::CJSON PkgConfig::LIBXML2 PkgConfig::SQLITE3
    Threads::Threads setupapi cfgmgr32 advapi32 winmm ntdll)
