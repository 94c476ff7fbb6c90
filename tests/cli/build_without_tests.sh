# package: a build of its own, checked by `make package-check`, not `make check`.
# -DBUILD_TESTING=OFF (what the GitHub Action's build.sh and a package
# build use) configures and builds abtool where the test library cmocka
# is missing: pkg-config here searches a folder holding every .pc file of
# the system but cmocka.pc (PKG_CONFIG_LIBDIR), so that the same
# configure with the tests on stops on cmocka, and the one without them
# builds abtool, its man pages and completions, and registers no test.
. "$(dirname "$0")/lib.sh"

src=$ABTOOL_TEST_SRC
mkdir -p "$T/pc"
for d in $(pkg-config --variable pc_path pkg-config | tr ':' ' '); do
	[ -d "$d" ] || continue
	for f in "$d"/*.pc; do
		[ -e "$f" ] || continue
		case ${f##*/} in cmocka.pc) ;; *) [ -e "$T/pc/${f##*/}" ] || ln -s "$f" "$T/pc/" ;; esac
	done
done
export PKG_CONFIG_LIBDIR="$T/pc" PKG_CONFIG_PATH=
pkg-config --exists libgit2 || fail "the folder of .pc files lacks libgit2's"
pkg-config --exists cmocka && fail "pkg-config still finds cmocka"

# with the tests: stops, naming cmocka
expect_exit 1 cmake -S "$src" -B "$T/with-tests" -DCMAKE_BUILD_TYPE=Release
grep -Eq "(No package 'cmocka' found|Package 'cmocka'.* not found)" "$T/out" || fail "the configure with the tests did not stop on cmocka"

# -O0: what is checked is the configuration, not the code (a third of the
# compile time of an optimised build)
expect_exit 0 cmake -S "$src" -B "$T/build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-O0 -DBUILD_TESTING=OFF
grep -q '^CMOCKA_FOUND' "$T/build/CMakeCache.txt" && fail "configured without tests, but looked for cmocka"
cmake --build "$T/build" -j2 >"$T/build.log" 2>&1 || { tail -n 40 "$T/build.log" >&2; fail "the build without tests"; }
[ "$("$T/build/abtool" --version)" = "$("$ABTOOL" --version)" ] || fail "the built abtool's version"
[ -s "$T/build/man/abtool.1" ] || fail "no man page"
[ -s "$T/build/completions/abtool" ] || fail "no bash completion"
ls "$T/build"/tests/test_* "$T/build"/fuzz/fuzz_replay_* 2>/dev/null && fail "test programs were built"
(cd "$T/build" && ctest -N) >"$T/ctest.out" 2>&1
grep -q 'Total Tests: [1-9]' "$T/ctest.out" && fail "tests registered: $(tail -1 "$T/ctest.out")"
echo ok
