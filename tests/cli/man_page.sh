# The man page abtool(1): installed by cmake --install, what the tables
# make (abtool __doc man), clean under mandoc -T lint, a subsection per
# command holding every option of its table. mandoc comes from
# scripts/install-deps --test; without it the case fails.
. "$(dirname "$0")/lib.sh"

command -v mandoc >/dev/null || fail "mandoc is missing: run scripts/install-deps --test"
build=$(dirname "$ABTOOL")
[ -f "$build/CMakeCache.txt" ] || fail "no build folder at $build"
cmake --install "$build" --prefix "$T/inst" >"$T/install.log" 2>&1 || {
	cat "$T/install.log" >&2
	fail "cmake --install"
}
man="$T/inst/share/man/man1/abtool.1"
[ -f "$man" ] || fail "cmake --install put no $man"
"$ABTOOL" __doc man >"$T/abtool.1" || fail "__doc man"
cmp -s "$man" "$T/abtool.1" || fail "the installed man page is not what the tables make now (rebuild)"

mandoc -T lint "$man" >"$T/lint" 2>&1
rc=$?
if [ -s "$T/lint" ] || [ $rc -ne 0 ]; then
	cat "$T/lint" >&2
	fail "mandoc -T lint reports (exit $rc)"
fi
mandoc -T utf8 "$man" >"$T/man.txt" 2>&1 || fail "mandoc cannot render it"
assert_contains "$T/man.txt" "exact-parent A/B performance experiments"

"$ABTOOL" __doc table >"$T/table" || fail "__doc table"
"$ABTOOL" __doc commands >"$T/commands" || fail "__doc commands"
while IFS=$'\t' read -r cmd summary; do
	# the command's subsection: from its .Ss to the next .Ss or .Sh
	awk -v c=".Ss $cmd" '$0 == c {on = 1; next} on && /^\.S[sh] / {exit} on' "$man" >"$T/sec"
	[ -s "$T/sec" ] || fail "the man page has no subsection for $cmd"
	cut -f1,2 "$T/table" | awk -F'\t' -v c="$cmd" '$1 == c {print $2}' | while read -r label; do
		long=${label#-?, }
		long=${long%% *}
		grep -q "^\.It .*Fl ${long#-}\( \|$\)" "$T/sec" || fail "man page, $cmd: no $long"
	done || exit 1
done <"$T/commands"
echo ok
