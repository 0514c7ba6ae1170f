#!/usr/bin/env bash
# Cross-build iomark.exe for 64-bit Windows on Debian 12 with mingw-w64.
#
#   bash scripts/build-windows.sh            # deps (cached) + iomark.exe + dist folder + zip
#   bash scripts/build-windows.sh --test     # ... and run the Wine test set (ctest)
#
# Output: build-win/dist/iomark-win64/ (iomark.exe and the DLLs it needs) and
# build-win/iomark-win64.zip. Libraries Debian ships no mingw build of (cJSON,
# libxml2, SQLite) are cross-built from Debian's own source packages, pinned to
# the versions below (the versions of Debian 12's libcjson-dev, libxml2-dev and
# libsqlite3-dev), and cached under build-win/deps: a rerun only rebuilds iomark.
# Environment: IOMARK_WIN_JOBS (default 2), IOMARK_WIN_DEPS (cache folder).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
JOBS=${IOMARK_WIN_JOBS:-2}
OUT=$ROOT/build-win
DEPS=${IOMARK_WIN_DEPS:-$OUT/deps}
SRC=$OUT/src
HOST=x86_64-w64-mingw32
TOOLCHAIN=$ROOT/cmake/mingw-w64-x86_64.cmake

CJSON_VER=1.7.15-1+deb12u4
LIBXML2_VER=2.9.14+dfsg-1.3~deb12u6
SQLITE_VER=3.40.1-2+deb12u2

RUN_TESTS=0
for a in "$@"; do
  case $a in
    --test) RUN_TESTS=1 ;;
    *) echo "build-windows.sh: $a: allowed: --test" >&2; exit 2 ;;
  esac
done

log() { printf '[build-windows] %s\n' "$*"; }

# ---- 1. packages (as root, when missing) --------------------------------------
need_pkgs="gcc-mingw-w64-x86-64 mingw-w64-tools cmake make pkg-config dpkg-dev tcl zip xz-utils"
[ "$RUN_TESTS" = 1 ] && need_pkgs="$need_pkgs wine64 wine python3"
missing=
for p in $need_pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ]; then
    log "installing:$missing"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
  else
    echo "build-windows.sh: missing packages:$missing (apt-get install them as root)" >&2; exit 1
  fi
fi

# ---- 2. Debian source packages -----------------------------------------------------
# apt-get source needs a deb-src entry; add one for the configured mirror if none exists.
ensure_deb_src() {
  if grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then return; fi
  if [ "$(id -u)" != 0 ]; then
    echo "build-windows.sh: no deb-src entry in /etc/apt; add one for your mirror (as root)" >&2; exit 1
  fi
  local f=/etc/apt/sources.list.d/iomark-deb-src.sources
  # only Debian's own archive entries (a third-party repository may have no sources)
  local deb822; deb822=$(grep -l 'debian\.org' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  if [ -n "$deb822" ]; then
    # deb822: copy each stanza as deb-src
    sed -e 's/^Types: *deb$/Types: deb-src/' $deb822 | grep -v '^#' > "$f"
  else
    grep -h '^deb .*debian\.org' /etc/apt/sources.list | sed 's/^deb /deb-src /' \
      > /etc/apt/sources.list.d/iomark-deb-src.list
  fi
  log "added deb-src entries; apt-get update"
  apt-get update -qq
}

fetch_src() { # name version -> $SRC/name (patched tree)
  local name=$1 ver=$2 dir=$SRC/$1
  if [ -f "$dir/.iomark-version" ] && [ "$(cat "$dir/.iomark-version")" = "$ver" ]; then return; fi
  ensure_deb_src
  mkdir -p "$SRC/dl"
  ( cd "$SRC/dl" && apt-get source --download-only "$name=$ver" >/dev/null 2>&1 ) || {
    echo "build-windows.sh: apt-get source $name=$ver failed (is the pinned version still on the mirror? snapshot.debian.org keeps it)" >&2; exit 1; }
  rm -rf "$dir"
  local dsc; dsc=$(ls "$SRC/dl/${name}_"*.dsc | grep -F "_${ver#*:}.dsc" | sed -n 1p)
  dpkg-source --no-check -x "$dsc" "$dir" >/dev/null
  echo "$ver" > "$dir/.iomark-version"
}

stamp_ok() { [ -f "$DEPS/.$1.stamp" ] && [ "$(cat "$DEPS/.$1.stamp")" = "$2" ]; }
stamp() { echo "$2" > "$DEPS/.$1.stamp"; }
mkdir -p "$DEPS" "$SRC"

# cJSON (CMake) -> libcjson.dll
if ! stamp_ok cjson "$CJSON_VER"; then
  fetch_src cjson "$CJSON_VER"
  log "cJSON $CJSON_VER"
  rm -rf "$OUT/b-cjson"
  cmake -S "$SRC/cjson" -B "$OUT/b-cjson" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$DEPS" -DBUILD_SHARED_LIBS=ON \
    -DENABLE_CJSON_TEST=OFF -DENABLE_CJSON_UTILS=OFF -DENABLE_CUSTOM_COMPILER_FLAGS=OFF \
    -DCMAKE_CROSSCOMPILING_EMULATOR= -Wno-dev >/dev/null 2>&1
  cmake --build "$OUT/b-cjson" -j"$JOBS" >/dev/null
  cmake --install "$OUT/b-cjson" >/dev/null
  stamp cjson "$CJSON_VER"
fi

# libxml2 (its CMake build; no iconv/zlib/lzma/ICU on Windows: UTF-8/16 and Latin-1 built in)
if ! stamp_ok libxml2 "$LIBXML2_VER"; then
  fetch_src libxml2 "$LIBXML2_VER"
  log "libxml2 $LIBXML2_VER"
  rm -rf "$OUT/b-libxml2"
  cmake -S "$SRC/libxml2" -B "$OUT/b-libxml2" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$DEPS" -DBUILD_SHARED_LIBS=ON \
    -DLIBXML2_WITH_ICONV=OFF -DLIBXML2_WITH_ICU=OFF -DLIBXML2_WITH_LZMA=OFF \
    -DLIBXML2_WITH_ZLIB=OFF -DLIBXML2_WITH_PYTHON=OFF -DLIBXML2_WITH_TESTS=OFF \
    -DLIBXML2_WITH_PROGRAMS=OFF -DLIBXML2_WITH_HTTP=OFF -DLIBXML2_WITH_FTP=OFF \
    -DCMAKE_CROSSCOMPILING_EMULATOR= >/dev/null
  cmake --build "$OUT/b-libxml2" -j"$JOBS" >/dev/null
  cmake --install "$OUT/b-libxml2" >/dev/null
  stamp libxml2 "$LIBXML2_VER"
fi

# SQLite: make the amalgamation (sqlite3.c) natively from Debian's source tree
# (needs tclsh), then compile it with mingw into sqlite3.dll, options as Debian's
# debian/rules sets them where they matter (FTS3/4/5, RTREE, JSON1 built in).
if ! stamp_ok sqlite3 "$SQLITE_VER"; then
  fetch_src sqlite3 "$SQLITE_VER"
  log "SQLite $SQLITE_VER"
  rm -rf "$OUT/b-sqlite"; mkdir -p "$OUT/b-sqlite"
  ( cd "$OUT/b-sqlite" && "$SRC/sqlite3/configure" --disable-tcl >/dev/null && make -j"$JOBS" sqlite3.c >/dev/null )
  mkdir -p "$DEPS/bin" "$DEPS/lib/pkgconfig" "$DEPS/include"
  SQLFLAGS="-O2 -DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS4 -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_RTREE \
    -DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_SECURE_DELETE -DSQLITE_ENABLE_UNLOCK_NOTIFY \
    -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_THREADSAFE=1 -DSQLITE_API=__declspec(dllexport)"
  $HOST-gcc $SQLFLAGS -shared -o "$DEPS/bin/libsqlite3-0.dll" "$OUT/b-sqlite/sqlite3.c" \
    -Wl,--out-implib,"$DEPS/lib/libsqlite3.dll.a"
  cp "$OUT/b-sqlite/sqlite3.h" "$SRC/sqlite3/src/sqlite3ext.h" "$DEPS/include/" 2>/dev/null || cp "$OUT/b-sqlite/sqlite3.h" "$DEPS/include/"
  ver=${SQLITE_VER%%-*}
  cat > "$DEPS/lib/pkgconfig/sqlite3.pc" <<PC
prefix=$DEPS
libdir=\${prefix}/lib
includedir=\${prefix}/include
Name: SQLite
Description: SQL database engine (Debian $SQLITE_VER, cross-built for Windows)
Version: $ver
Libs: -L\${libdir} -lsqlite3
Cflags: -I\${includedir}
PC
  stamp sqlite3 "$SQLITE_VER"
fi

# ---- 3. iomark.exe -------------------------------------------------------------------
log "iomark.exe"
export PKG_CONFIG_LIBDIR=$DEPS/lib/pkgconfig
export PKG_CONFIG_PATH=
cmake -S "$ROOT" -B "$OUT/iomark" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$DEPS" -DIOMARK_WERROR=ON \
  -DIOMARK_WIN_DEPS="$DEPS" -Wno-dev >/dev/null
cmake --build "$OUT/iomark" -j"$JOBS" >/dev/null

# ---- 4. dist folder: iomark.exe + every non-system DLL it imports (transitively) ----
DIST=$OUT/dist/iomark-win64
rm -rf "$OUT/dist"; mkdir -p "$DIST"
cp "$OUT/iomark/iomark.exe" "$DIST/"
SYSDLL_DIRS="$DEPS/bin /usr/lib/gcc/$HOST/12-win32 /usr/lib/gcc/$HOST/12-posix /usr/$HOST/lib"
copy_deps() { # file
  local dll path d
  for dll in $($HOST-objdump -p "$1" | sed -n 's/^\s*DLL Name: //p'); do
    [ -f "$DIST/$dll" ] && continue
    path=
    for d in $SYSDLL_DIRS; do [ -f "$d/$dll" ] && { path=$d/$dll; break; }; done
    [ -n "$path" ] || continue    # a Windows system DLL (KERNEL32.dll, msvcrt.dll, ...)
    cp "$path" "$DIST/"
    copy_deps "$DIST/$dll"
  done
}
copy_deps "$DIST/iomark.exe"
cp "$ROOT/README.md" "$DIST/README.md"
for l in cjson:LICENSE libxml2:Copyright; do
  n=${l%%:*}; f=${l#*:}; [ -f "$SRC/$n/$f" ] && cp "$SRC/$n/$f" "$DIST/LICENSE.$n.txt"
done
echo "SQLite is in the public domain (https://www.sqlite.org/copyright.html)" > "$DIST/LICENSE.sqlite3.txt"
( cd "$OUT/dist" && rm -f "$OUT/iomark-win64.zip" && zip -qr "$OUT/iomark-win64.zip" iomark-win64 )
log "done: $DIST ($(ls "$DIST" | tr '\n' ' '))"
log "zip:  $OUT/iomark-win64.zip"

# ---- 5. tests under Wine ------------------------------------------------------------------
if [ "$RUN_TESTS" = 1 ]; then
  export WINEDEBUG=-all DISPLAY= WINEPREFIX=${WINEPREFIX:-$OUT/wineprefix}
  WINE64=$(command -v wine64 || echo /usr/lib/wine/wine64)
  # A detached wineserver and a booted prefix first: otherwise ctest waits on
  # the pipes the wineserver inherited from the first test.
  setsid wineserver -p </dev/null >/dev/null 2>&1 &
  timeout 300 setsid "$WINE64" wineboot -i </dev/null >/dev/null 2>&1 || true
  rc=0
  ctest --test-dir "$OUT/iomark" --output-on-failure -j1 --timeout 300 || rc=$?
  wineserver -k 2>/dev/null || true
  exit $rc
fi
