# The man pages as cmake --install puts them: abtool(1) and a page per
# command, abtool-run(1), ..., compressed (gzip -9n), each what the tables
# make now (abtool __doc man [COMMAND]); each clean under mandoc -T lint
# but for the one note mandoc gives any page whose .Os names its software
# ("operating system explicitly specified", meant for the BSDs' own
# pages), its cross-references found among the installed pages;
# each command's page holds every option of its table, EXAMPLES, EXIT
# STATUS (a command that decides: the four verdict codes), SEE ALSO
# naming installed pages only, and the .Os "abtool VERSION"; abtool(1)
# lists every command page and the three kinds of store. man(1) finds
# abtool-run through MANPATH. mandoc comes from scripts/install-deps
# --test; without it the case fails.
. "$(dirname "$0")/lib.sh"

command -v mandoc >/dev/null || fail "mandoc is missing: run scripts/install-deps --test"
build=$(dirname "$ABTOOL")
[ -f "$build/CMakeCache.txt" ] || fail "no build folder at $build"
cmake --install "$build" --prefix "$T/inst" >"$T/install.log" 2>&1 || {
	cat "$T/install.log" >&2
	fail "cmake --install"
}
mandir="$T/inst/share/man"
version=$("$ABTOOL" --version | awk '{print $2}')
"$ABTOOL" __doc commands | cut -f1 >"$T/commands" || fail "__doc commands"
"$ABTOOL" __doc table >"$T/table" || fail "__doc table"
[ "$(ls "$mandir/man1" | wc -l)" = $(($(wc -l <"$T/commands") + 1)) ] ||
	fail "installed pages: $(ls "$mandir/man1" | tr '\n' ' '), expected abtool.1.gz and one per command"
expect_exit 64 "$ABTOOL" __doc man nosuchcommand

# lint PAGE: mandoc -T lint on a page uncompressed into $T/plain/man1, from
# that folder, where it looks its cross-references (.Xr) up
lint() {
	(cd "$T/plain/man1" && mandoc -T lint "$1") >"$T/lint" 2>&1
	grep -v 'STYLE: operating system explicitly specified: Os abtool' "$T/lint" >"$T/lint.rest"
	[ -s "$T/lint.rest" ] && { cat "$T/lint.rest" >&2; fail "mandoc -T lint reports on $(basename "$1")"; }
	return 0
}
# section PAGE NAME: the text of section NAME (.Sh NAME to the next .Sh)
section() {
	awk -v s=".Sh $2" '$0 == s {on = 1; next} on && /^\.Sh / {exit} on' "$1"
}

mkdir -p "$T/plain/man1"
pages="abtool $(sed 's/^/abtool-/' "$T/commands")"
for page in $pages; do
	gz="$mandir/man1/$page.1.gz"
	[ -f "$gz" ] || fail "cmake --install put no $gz"
	zcat "$gz" >"$T/plain/man1/$page.1" || fail "$page.1.gz is not gzip"
done
for page in $pages; do
	cp "$T/plain/man1/$page.1" "$T/$page.1"
	if [ "$page" = abtool ]; then
		"$ABTOOL" __doc man >"$T/now.1" || fail "__doc man"
	else
		"$ABTOOL" __doc man "${page#abtool-}" >"$T/now.1" || fail "__doc man ${page#abtool-}"
	fi
	cmp -s "$T/$page.1" "$T/now.1" || fail "the installed $page.1 is not what the tables make now (rebuild)"
	lint "$page.1"
	grep -qx ".Os abtool $version" "$T/$page.1" || fail "$page: .Os is not 'abtool $version'"
	section "$T/$page.1" EXAMPLES | grep -q '^abtool ' || fail "$page: no example command in EXAMPLES"
	section "$T/$page.1" "EXIT STATUS" | grep -qx '.It 0' || fail "$page: EXIT STATUS lacks 0"
	section "$T/$page.1" "EXIT STATUS" | grep -qx '.It 64' || fail "$page: EXIT STATUS lacks 64"
	# SEE ALSO names installed pages only
	section "$T/$page.1" "SEE ALSO" | awk '$1 == ".Xr" {print $2 "." $3}' >"$T/xr"
	[ -s "$T/xr" ] || fail "$page: SEE ALSO names no page"
	while read -r xr; do
		[ -f "$mandir/man1/${xr%.*}.${xr##*.}.gz" ] || fail "$page: SEE ALSO names $xr, which is not installed"
	done <"$T/xr"
	mandoc -T utf8 "$T/$page.1" >"$T/$page.txt" 2>&1 || fail "mandoc cannot render $page"
	grep -q "abtool $version" "$T/$page.txt" || fail "$page: the footer does not say abtool $version"
done

# each command's page: every option of its table
while read -r cmd; do
	cut -f1,2 "$T/table" | awk -F'\t' -v c="$cmd" '$1 == c {print $2}' | while read -r label; do
		long=${label#-?, }
		long=${long%% *}
		grep -q "^\.It .*Fl ${long#-}\( \|$\)" "$T/abtool-$cmd.1" || fail "abtool-$cmd(1): no $long"
	done || exit 1
	grep -qx ".Nm abtool-$cmd" "$T/abtool-$cmd.1" || fail "abtool-$cmd(1): NAME"
done <"$T/commands"
# the commands that decide: the verdict's codes, and the codes of their own
for cmd in run compare verdict resume analyze; do
	section "$T/abtool-$cmd.1" "EXIT STATUS" >"$T/exit"
	for code in 0 1 2 3 64 70 74; do
		grep -qx ".It $code" "$T/exit" || fail "abtool-$cmd(1): EXIT STATUS lacks $code"
	done
done
for cmd in calibrate bisect; do
	section "$T/abtool-$cmd.1" "EXIT STATUS" | grep -qx '.It 3' || fail "abtool-$cmd(1): EXIT STATUS lacks 3"
done
section "$T/abtool-bisect.1" "EXIT STATUS" | grep -qx '.It 1' || fail "abtool-bisect(1): EXIT STATUS lacks 1"
section "$T/abtool-run.1" "EXIT STATUS" | grep -qx '.It 130 , 143' || fail "abtool-run(1): no 130, 143"

# abtool(1): every command page listed, the stores of today
while read -r cmd; do
	grep -qx ".It Xr abtool-$cmd 1" "$T/abtool.1" || fail "abtool(1) does not list abtool-$cmd(1)"
done <"$T/commands"
for store in '.git/abtool/abtool.db' '~/.local/share/abtool/abtool.db' 'postgresql://'; do
	grep -qF "$store" "$T/abtool.1" || fail "abtool(1) does not name the store $store"
	grep -qF "$store" "$T/abtool-run.1" || fail "abtool-run(1) does not name the store $store"
done
grep -q 'one sqlite file per repository' "$T/abtool.1" && fail "abtool(1) still says one sqlite file per repository"

# man finds a command's page by its name
if command -v man >/dev/null; then
	MANPATH=$mandir man -w abtool-run >"$T/where" 2>&1 || { cat "$T/where" >&2; fail "man -w abtool-run"; }
	grep -qx "$mandir/man1/abtool-run.1.gz" "$T/where" || fail "man -w abtool-run: $(cat "$T/where")"
fi
echo ok
