# overlay: the candidate changed the benchmark harness as well as the
# code. Without an overlay the parent runs the old harness and the
# checksums differ (invalid); with `overlay: [harness/]` both sides run the
# candidate's harness (seen in their output) and the provenance lists its
# tree; a path missing from the source revision is refused.
. "$(dirname "$0")/lib.sh"

harness() {  # harness VERSION
	mkdir -p "$T/repo/harness"
	printf '#!/bin/sh\necho "result=$(./bench "$1" | sed -n "s/.*checksum=//p")-h%s"\n' "$1" > "$T/repo/harness/run.sh"
	chmod +x "$T/repo/harness/run.sh"
}
mkdir -p "$T/repo"
git -C "$T/repo" init -q
printf 'bench: bench.c\n\tcc -O1 -o bench bench.c\n' > "$T/repo/Makefile"
echo bench > "$T/repo/.gitignore"
bench_source 40 > "$T/repo/bench.c"
harness 1
git -C "$T/repo" add -A && git -C "$T/repo" commit -qm "parent: harness v1"
bench_source 20 > "$T/repo/bench.c"
harness 2
git -C "$T/repo" add -A && git -C "$T/repo" commit -qm "candidate: faster, harness v2"

base='name: overlay
build: make
benchmark: harness/run.sh {lanes}
checksum: {regex: '"'"'result=(\S+)'"'"'}
matrix: {lanes: [1]}
pairs: 6
accept:
  - name: gain
    faster_by: 20%'
printf '%s\n' "$base" > "$T/repo/plain.yaml"
expect_exit 3 "$ABTOOL" run "$T/repo/plain.yaml" --store "$T/s.db" --json "$T/plain.json"
assert_contains "$T/out" "checksum mismatch"
assert_contains "$T/out" "parent printed '7919-h1'"
assert_contains "$T/out" "candidate printed '7919-h2'"

printf '%s\noverlay: [harness/]\n' "$base" > "$T/repo/overlay.yaml"
expect_decided "$ABTOOL" run "$T/repo/overlay.yaml" --store "$T/s.db" --json "$T/o.json" --summary "$T/o.sum.md"
[ "$(jqv "$T/o.json" '.rows[0].checksum_match')" = true ] || fail "checksums should match with the overlay"
[ "$(jqv "$T/o.json" '.rows[0].checksum')" = 7919-h2 ] || fail "both sides must run the candidate's harness"
tree=$(git -C "$T/repo" rev-parse HEAD:harness)
[ "$(jqv "$T/o.json" '.overlay.paths[0].oid')" = "$tree" ] || fail "the overlay's tree id"
[ "$(jqv "$T/o.json" '.overlay.paths[0].type')" = tree ] || fail "type"
[ "$(jqv "$T/o.json" '.overlay.from')" = candidate ] || fail "from"
assert_contains "$T/out" "| overlay | \`harness\` (tree \`${tree:0:10}\`…) from candidate"
# the CI summary has no provenance table, but says both sides ran an overlay
assert_contains "$T/o.sum.md" "Overlay: \`harness\` from the candidate \`$(git -C "$T/repo" rev-parse --short=10 HEAD)\`, on both sides."
assert_contains "$T/out" "The parent ran with an overlay"
expect_exit 0 "$ABTOOL" show latest --store "$T/s.db"
assert_contains "$T/out" "  overlay    from candidate $(git -C "$T/repo" rev-parse --short=10 HEAD): harness (tree ${tree:0:10}), on both sides"

# a single file from an explicit revision works the same way
printf '%s\noverlay: {from: HEAD, paths: [harness/run.sh]}\n' "$base" > "$T/repo/file.yaml"
expect_decided "$ABTOOL" run "$T/repo/file.yaml" --store "$T/s.db" --json "$T/f.json"
[ "$(jqv "$T/f.json" '.rows[0].checksum')" = 7919-h2 ] || fail "file overlay"
[ "$(jqv "$T/f.json" '.overlay.paths[0].oid')" = "$(git -C "$T/repo" rev-parse HEAD:harness/run.sh)" ] || fail "blob id"

printf '%s\noverlay: [harness/missing.sh]\n' "$base" > "$T/repo/missing.yaml"
expect_exit 64 "$ABTOOL" run "$T/repo/missing.yaml" --store "$T/s.db"
assert_contains "$T/err" "overlay: 'harness/missing.sh' is not in candidate"
# check resolves the overlay as run does, before anything is built
expect_exit 64 "$ABTOOL" check "$T/repo/missing.yaml"
assert_contains "$T/err" "overlay: 'harness/missing.sh' is not in candidate"
expect_exit 0 "$ABTOOL" check "$T/repo/overlay.yaml"
assert_contains "$T/out" "overlay   from candidate $(git -C "$T/repo" rev-parse --short=10 HEAD): harness (tree ${tree:0:10})"
printf '%s\noverlay: {from: feature, paths: [harness/]}\n' "$base" > "$T/repo/from.yaml"
expect_exit 64 "$ABTOOL" check "$T/repo/from.yaml"
assert_contains "$T/err" "overlay.from: unknown revision 'feature'"
assert_contains "$T/err" "origin/NAME"

# The Reproduce line pins an overlay taken from a revspec (here HEAD) with
# --overlay-from and the full commit; one from the candidate is pinned by
# --candidate already.
case "$(jqv "$T/o.json" .reproduce)" in *--overlay-from*) fail "overlay from the candidate: $(jqv "$T/o.json" .reproduce)" ;; esac
head=$(git -C "$T/repo" rev-parse HEAD)
repro=$(jqv "$T/f.json" .reproduce)
case "$repro" in *" --candidate $head "*" --overlay-from $head") ;; *) fail "Reproduce: $repro" ;; esac
# HEAD moves on to a third harness: the Reproduce line still takes the
# second, and so does a resume of the run
harness 3
git -C "$T/repo" commit -qam "harness v3"
eval "set -- ${repro#abtool }"
expect_decided "$ABTOOL" "$@" --store "$T/s.db" --json "$T/again.json"
[ "$(jqv "$T/again.json" '.overlay.source')" = "$head" ] || fail "reproduced: the overlay's source moved"
[ "$(jqv "$T/again.json" '.rows[0].checksum')" = 7919-h2 ] || fail "reproduced: not the second harness"
[ "$(jqv "$T/again.json" .reproduce)" = "$repro" ] || fail "reproduced: another Reproduce line"
id=$(sqlite3 "$T/s.db" "select id from runs where json_extract(report, '$.overlay.from') = 'HEAD' order by id limit 1")
sqlite3 "$T/s.db" "update runs set status = 'interrupted', verdict = null where id = $id;
	update samples set status = 0 where run_id = $id and seq >= (select max(seq) - 1 from samples where run_id = $id)"
expect_decided "$ABTOOL" resume "$id" --store "$T/s.db" --json "$T/resumed.json"
[ "$(jqv "$T/resumed.json" '.overlay.source')" = "$head" ] || fail "resumed: the overlay's source moved"
[ "$(jqv "$T/resumed.json" '.overlay.from')" = HEAD ] || fail "resumed: from"
[ "$(jqv "$T/resumed.json" '.rows[0].checksum')" = 7919-h2 ] || fail "resumed: not the second harness"
# without the pin, HEAD's third harness
expect_exit 0 "$ABTOOL" check "$T/repo/file.yaml"
assert_contains "$T/out" "overlay   from HEAD $(git -C "$T/repo" rev-parse --short=10 HEAD):"
expect_exit 0 "$ABTOOL" check "$T/repo/file.yaml" --overlay-from "${head:0:12}"
assert_contains "$T/out" "overlay   from ${head:0:12} ${head:0:10}:"
echo ok
