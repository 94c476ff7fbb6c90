# A bisect started with a relative experiment path (from the repository's
# folder) and interrupted resumes from any other folder: the bisect keeps
# the experiment file's absolute path. It used to fail with "'exp.yaml':
# no such file". Commit 3 does 8x the work of commit 2: the culprit. The
# bisect decides on `work`, the count of loop steps the benchmark prints,
# not on a time: commit 2 against commit 1 is an A/A (8000 steps on both
# sides, every pair tied), which CPU time would leave to the host.
. "$(dirname "$0")/corpus.sh"

repo="$T/repo"
mkdir -p "$repo"
git -C "$repo" init -q
cat >"$repo/bench.sh" <<EOF2
#!/bin/sh
if [ -e "$T/hang" ]; then
	echo started 1<>"$T/events"
	while [ -e "$T/hang" ]; do sleep 0.05; done
fi
n=\$(cat work); i=0
while [ \$i -lt \$n ]; do i=\$((i+1)); done
echo checksum=1 work=\$i
EOF2
chmod +x "$repo/bench.sh"
cat >"$repo/exp.yaml" <<'EOF2'
name: bisect-resume
benchmark: ./bench.sh
checksum: {regex: 'checksum=(\S+)'}
metrics:
  work: {regex: 'work=([0-9]+)', better: lower}
metric: work
pairs: 8
warmup: 0
accept:
  - name: no regression
    no_regression: 40%
EOF2
for w in 8000 8000 64000; do
	echo $w >"$repo/work"
	git -C "$repo" add -A
	git -C "$repo" commit -q --allow-empty -m "work $w"
done
db="$T/store.db"
events_open
touch "$T/hang"
(cd "$repo" && exec "$ABTOOL" bisect exp.yaml --good HEAD~2 --bad HEAD --store "$db" --seed 1 -q) \
	>"$T/out" 2>"$T/err" &
interrupt_when_started $!
[ $rc = 130 ] || { cat "$T/err" >&2; fail "exit $rc after SIGINT, expected 130"; }
assert_contains "$T/err" "finish the bisect with 'abtool bisect --resume 1 --store $db'"
[ "$(sqlite3 "$db" "select experiment_path from bisects where id = 1")" = "$repo/exp.yaml" ] \
	|| fail "the bisect keeps a relative experiment path: $(sqlite3 "$db" "select experiment_path from bisects")"
mkdir -p "$T/elsewhere"
cd "$T/elsewhere"
expect_exit 0 "$ABTOOL" bisect --resume 1 --store "$db" --json "$T/r.json"
[ "$(jqv "$T/r.json" .culprit.commit)" = "$(git -C "$repo" rev-parse HEAD)" ] || fail "the culprit is not commit 3"
echo ok
