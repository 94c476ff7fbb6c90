# Paths with a space, a single quote and a '$' (the repository, the
# experiment file, the cache), the run started from another folder with a
# relative path: the commands abtool prints to copy and paste (how to run
# a failed sample by hand, the report's Reproduce line) are quoted for the
# shell and name the experiment file by its absolute path, so they work
# as printed.
. "$(dirname "$0")/corpus.sh"

D="$T/it's a \$dir"
make_repo "$D/repo" 2 1
EXP_PAIRS=2 write_exp "$D/repo"
export XDG_CACHE_HOME="$D/ca che"
mkdir -p "$T/elsewhere"
cd "$T/elsewhere" || fail "cd"
rel="../it's a \$dir/repo/exp.yaml"
expect_decided "$ABTOOL" run "$rel" --store "$T/store.db" --quiet
line=$(sed -n '/^## Reproduce/{n;n;p;q}' "$T/out")
case $line in
"abtool run '$T/it'\\''s a \$dir/repo/exp.yaml' --candidate "*) ;;
*) fail "the Reproduce line is not quoted with the absolute path: $line" ;;
esac
# it runs as printed, from anywhere
cd / || fail "cd /"
abtool() { "$ABTOOL" "$@" --store "$T/store.db" --quiet; }
eval "$line" >"$T/out2" 2>"$T/err2"
case $? in 0 | 1 | 2) ;; *) cat "$T/err2" >&2; fail "the Reproduce line did not run: $line" ;; esac
grep -q "^# e2e" "$T/out2" || fail "the Reproduce line printed no report"

# a failed sample: the folder to run it by hand in is quoted
sed -i 's|^benchmark: .*|benchmark: "./bench {lanes}; exit 3"|' "$D/repo/exp.yaml"
expect_fail 3 "lanes=1: parent sample 0 failed: exit 3" "$ABTOOL" run "$D/repo/exp.yaml" --store "$T/store.db"
hint=$(sed -n 's/^abtool: to see why, run it by hand: //p' "$T/err")
case $hint in
"cd '$T/it'\\''s a \$dir/ca che/abtool/builds/"*"' && ./bench 1; exit 3") ;;
*) fail "the hint is not quoted: $hint" ;;
esac
hint=${hint%; exit 3}
( eval "$hint" ) >"$T/out3" 2>&1 || { cat "$T/out3" >&2; fail "the hint does not run: $hint"; }
assert_contains "$T/out3" "checksum=7919"
echo ok
