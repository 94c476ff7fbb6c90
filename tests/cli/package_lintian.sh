# package: run by `make package-check` in its Release build, not by `make check`.
# The Debian package (cmake/packaging.cmake) of this build folder, made by
# cpack -G DEB into a scratch folder and checked as Debian checks one:
# lintian reports no error; /usr/share/doc/abtool holds the copyright
# file and the Debian changelog (gzip -9n); every man page is compressed,
# one per command and abtool(1). lintian and dpkg-dev come from
# scripts/install-deps --test; without lintian the case fails.
. "$(dirname "$0")/lib.sh"

command -v lintian >/dev/null || fail "lintian is missing: run scripts/install-deps --test"
build=$(dirname "$ABTOOL")
[ -f "$build/CPackConfig.cmake" ] || fail "no CPackConfig.cmake in $build"
(cd "$T" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$T/pkg") >"$T/cpack.log" 2>&1 ||
	{ tail -n 30 "$T/cpack.log" >&2; fail "cpack -G DEB"; }
deb=$(ls "$T"/pkg/abtool_*.deb) || fail "cpack made no package"
dpkg-deb -c "$deb" | awk '{print $NF}' >"$T/files"

grep -qx './usr/share/doc/abtool/copyright' "$T/files" || fail "no /usr/share/doc/abtool/copyright"
grep -qx './usr/share/doc/abtool/changelog.Debian.gz' "$T/files" || fail "no changelog.Debian.gz"
grep '^\./usr/share/man/' "$T/files" | grep -v '/$' >"$T/man"
[ -s "$T/man" ] || fail "no man page in the package"
grep -v '\.1\.gz$' "$T/man" && fail "a man page is not compressed"
"$ABTOOL" __doc commands | cut -f1 | while read -r c; do
	grep -qx "./usr/share/man/man1/abtool-$c.1.gz" "$T/man" || fail "no page abtool-$c(1) in the package"
done || exit 1
grep -qx './usr/share/man/man1/abtool.1.gz' "$T/man" || fail "no abtool(1)"
dpkg -x "$deb" "$T/root" || fail "dpkg -x"
# gzip -9n: no file name, no time stamp (the same bytes from every build)
gzip -lv "$T/root/usr/share/doc/abtool/changelog.Debian.gz" >/dev/null || fail "the changelog is not gzip"
[ "$(od -An -tu4 -j4 -N4 "$T/root/usr/share/man/man1/abtool-run.1.gz" | tr -d ' ')" = 0 ] ||
	fail "abtool-run.1.gz has a time stamp (gzip -n drops it)"
zcat "$T/root/usr/share/doc/abtool/changelog.Debian.gz" | head -1 | grep -q "^abtool ($(dpkg-deb -f "$deb" Version)) " ||
	fail "the changelog's first entry is not the package's version"

lintian --tag-display-limit 0 "$deb" >"$T/lintian" 2>"$T/lintian.err"
rc=$?
sed 's/^/  /' "$T/lintian"
grep -q '^E: ' "$T/lintian" && fail "lintian reports errors"
[ "$rc" -le 1 ] || { cat "$T/lintian.err" >&2; fail "lintian did not run (exit $rc)"; }
echo ok
