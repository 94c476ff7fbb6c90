# `cpack -G DEB` in the build folder makes a Debian package of what
# `cmake --install` installs (cmake/packaging.cmake): dpkg-deb lists the
# binary and every installed file (the man page and completions when they
# are installed), the dependencies are declared, and the binary unpacked
# into a temporary folder runs --version.
. "$(dirname "$0")/lib.sh"

build=$(dirname "$ABTOOL")
[ -f "$build/CPackConfig.cmake" ] || fail "no CPackConfig.cmake in $build"
command -v cpack >/dev/null && command -v dpkg-deb >/dev/null || { echo "skip: no cpack or dpkg-deb"; exit 0; }
(cd "$build" && cpack -G DEB -B "$T/pkg") > "$T/cpack.log" 2>&1 || { cat "$T/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$T"/pkg/abtool_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "no .deb in $T/pkg"
dpkg-deb -c "$deb" > "$T/contents" || fail "dpkg-deb -c"
grep -q ' \./usr/bin/abtool$' "$T/contents" || fail "the package lacks usr/bin/abtool: $(cat "$T/contents")"
# every file the install rules install is in the package
cmake --install "$build" --prefix "$T/inst/usr" > /dev/null || fail "cmake --install"
(cd "$T/inst" && find . -type f) | while read -r f; do
	grep -qF " $f" "$T/contents" || fail "installed but not packaged: $f"
done || exit 1
for lib in libgit2 libsqlite3 libjansson libyaml libpcre2-8 libssl libcsv liburiparser; do
	dpkg-deb -f "$deb" Depends | grep -q "$lib" || fail "Depends lacks $lib: $(dpkg-deb -f "$deb" Depends)"
done
[ "$(dpkg-deb -f "$deb" Package)" = abtool ] || fail "package name"
dpkg-deb -x "$deb" "$T/root" || fail "dpkg-deb -x"
"$T/root/usr/bin/abtool" --version > "$T/out" 2>&1 || fail "the unpacked abtool --version: $(cat "$T/out")"
assert_contains "$T/out" "abtool"
echo ok
