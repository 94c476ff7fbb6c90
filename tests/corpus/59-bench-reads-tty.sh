# A benchmark that reads the terminal (/dev/tty) while abtool runs in one:
# in its background process group it used to be stopped (SIGTTIN) until
# the timeout, then reported as "timed out; if the benchmark is only
# slow, raise 'timeout:'". A sample has no controlling terminal now: the
# open fails at once, and the sample fails with that error. script(1)
# gives abtool a terminal.
. "$(dirname "$0")/corpus.sh"

command -v script >/dev/null || { echo "skipped: no script(1)"; exit 0; }
make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
sed -i -e 's|^benchmark: .*|benchmark: "./bench {lanes}; read answer </dev/tty"|' -e 's|^timeout: .*|timeout: 30s|' \
	"$T/repo/exp.yaml"
cat >"$T/in-tty.sh" <<EOF2
#!/bin/sh
[ -r /dev/tty ] && : </dev/tty && echo yes >"$T/has-tty"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --quiet >"$T/out" 2>"$T/err"
echo \$? >"$T/rc"
EOF2
chmod +x "$T/in-tty.sh"
start=$(date +%s)
timeout 120 script -qec "$T/in-tty.sh" /dev/null </dev/null >/dev/null 2>&1
[ -s "$T/rc" ] || fail "abtool did not finish"
[ -s "$T/has-tty" ] || { echo "skipped: script(1) gave no terminal"; exit 0; }
[ $(($(date +%s) - start)) -lt 25 ] || fail "the sample waited for the terminal ($(($(date +%s) - start)) s)"
[ "$(cat "$T/rc")" = 3 ] || { cat "$T/err" >&2; fail "exit $(cat "$T/rc"), expected 3"; }
assert_contains "$T/err" "lanes=1: parent sample 0 failed: exit 2"
assert_contains "$T/err" "/dev/tty: No such device or address"
assert_not_contains "$T/err" "timed out"
echo ok
