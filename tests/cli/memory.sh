# The store as memory before measuring: earlier rejections of the design
# and of designs with close text are printed when a run starts; with
# history: {block_rejected: true} (or the store's setting, abtool config
# block_rejected true) a rejected design is refused unless --new-evidence
# says what changed, and that text is stored as a note. The 10x slower
# candidate is rejected on cpu_ns, which other jobs on the machine barely
# move.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 10 100      # the candidate is 10x slower
db="$T/store.db"
cat > "$T/repo/park.yaml" <<'EOF2'
name: park-waiters
design: futex-parking
hypothesis: parking idle threads on a futex instead of spinning frees the cores
build: make
benchmark: ./bench 1
checksum: {regex: 'checksum=(\S+)'}
metric: cpu_ns
pairs: 6
accept:
  - name: no regression
    no_regression: 2%
EOF2
expect_exit 1 "$ABTOOL" run "$T/repo/park.yaml" --store "$db"
assert_not_contains "$T/err" "was rejected in run"

# The same design again: the rejection is printed before measuring.
sed 's/pairs: 6/pairs: 7/' "$T/repo/park.yaml" > "$T/repo/park2.yaml"
expect_exit 1 "$ABTOOL" run "$T/repo/park2.yaml" --store "$db"
assert_contains "$T/err" "this design 'futex-parking' was rejected in run 1"
assert_contains "$T/err" "no regression: all: ratio"

# Another design whose text is close: printed as a similar design.
sed 's/design: futex-parking/design: adaptive-parking/; s/pairs: 6/pairs: 8/' "$T/repo/park.yaml" > "$T/repo/similar.yaml"
expect_exit 1 "$ABTOOL" run "$T/repo/similar.yaml" --store "$db"
assert_contains "$T/err" "a similar design 'futex-parking' was rejected in run"
# Other words for the same idea (two terms shared: futex, park, with
# Porter stemming) still find it.
sed 's/design: futex-parking/design: spin-then-park/; s/^hypothesis: .*/hypothesis: park waiting threads on a futex after a short spin/; s/pairs: 6/pairs: 9/' \
	"$T/repo/park.yaml" > "$T/repo/spin.yaml"
expect_exit 1 "$ABTOOL" run "$T/repo/spin.yaml" --store "$db"
assert_contains "$T/err" "a similar design 'futex-parking' was rejected in run"
# One shared word is not similarity (audit 5-C: a SIMD JSON parser was
# flagged as similar to futex parking because both hypotheses said
# "threads"); two spellings of that word still count once.
sed 's/design: futex-parking/design: json-parser-simd/; s/^hypothesis: .*/hypothesis: SIMD parsing of json threads numbers faster in every thread/; s/pairs: 6/pairs: 10/' \
	"$T/repo/park.yaml" > "$T/repo/json.yaml"
expect_exit 1 "$ABTOOL" run "$T/repo/json.yaml" --store "$db"
assert_not_contains "$T/err" "similar design"
# an unrelated design hears nothing of it
cat > "$T/repo/other.yaml" <<'EOF2'
name: other
design: batched-publication
hypothesis: batching the publication of results
build: make
benchmark: ./bench 1
metric: cpu_ns
pairs: 6
accept:
  - name: no regression
    no_regression: 2%
EOF2
expect_exit 1 "$ABTOOL" run "$T/repo/other.yaml" --store "$db"
assert_not_contains "$T/err" "futex-parking"

# block_rejected: refused without new evidence (nothing is run or stored)
printf 'history: {block_rejected: true}\n' >> "$T/repo/park2.yaml"
runs_before=$(sqlite3 "$db" "select count(*) from runs")
expect_exit 64 "$ABTOOL" run "$T/repo/park2.yaml" --store "$db"
assert_contains "$T/err" "design 'futex-parking' was rejected in run 2"
assert_contains "$T/err" "--new-evidence"
[ "$(sqlite3 "$db" "select count(*) from runs")" = "$runs_before" ] || fail "a blocked run was stored"
expect_exit 1 "$ABTOOL" run "$T/repo/park2.yaml" --store "$db" --new-evidence "kernel 6.9 fixed the futex wakeup path"
assert_contains "$T/err" "the new evidence is stored as a note on run"
expect_exit 0 "$ABTOOL" history --store "$db" --grep wakeup --json
[ "$(jq length "$T/out")" = 1 ] || fail "the note is not searchable"

# the same policy for every experiment, as a setting of the store (a team
# store): park.yaml has no history: key, and is blocked all the same
expect_exit 0 "$ABTOOL" config block_rejected true --store "$db"
runs_before=$(sqlite3 "$db" "select count(*) from runs")
expect_exit 64 "$ABTOOL" run "$T/repo/park.yaml" --store "$db"
assert_contains "$T/err" "design 'futex-parking' was rejected in run"
assert_contains "$T/err" "this store blocks rejected designs (abtool config block_rejected true)"
[ "$(sqlite3 "$db" "select count(*) from runs")" = "$runs_before" ] || fail "a run blocked by the store was stored"
expect_exit 0 "$ABTOOL" config --store "$db"
assert_contains "$T/out" "block_rejected = true  (set "
expect_exit 0 "$ABTOOL" config --unset block_rejected --store "$db"
expect_exit 0 "$ABTOOL" config block_rejected --store "$db"
[ "$(cat "$T/out")" = false ] || fail "unset: $(cat "$T/out")"
expect_exit 64 "$ABTOOL" config block_rejected maybe --store "$db"
assert_contains "$T/err" "block_rejected: expected true or false, got 'maybe'"
expect_exit 64 "$ABTOOL" config block_rejects true --store "$db"
assert_contains "$T/err" "no setting 'block_rejects'; the settings are: block_rejected"
echo ok
