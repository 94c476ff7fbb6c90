# `artifacts: [datagen]` where the build writes tests/datagen. Neither side
# makes the declared path, so the experiment file is wrong: exit 64, the
# message says the build ran (after the cached tree, made before the
# artifact was declared, lacked it) and lists tests/datagen; no tail of a
# build log that is not about the artifact. When only the candidate stops
# making an artifact the parent makes, the candidate is broken: exit 3.
. "$(dirname "$0")/corpus.sh"

# both sides' Makefile writes tests/datagen
mkdir -p "$T/repo"
git -C "$T/repo" init -q
cat >"$T/repo/Makefile" <<'EOF2'
bench: bench.c
	cc -O1 -o bench bench.c
	mkdir -p tests && cp bench tests/datagen
EOF2
printf 'bench\ntests/\n' >"$T/repo/.gitignore"
bench_source 2 >"$T/repo/bench.c"
git -C "$T/repo" add -A
git -C "$T/repo" commit -qm parent
bench_source 1 >"$T/repo/bench.c"
git -C "$T/repo" commit -qam candidate
EXP_PAIRS=2 write_exp "$T/repo"
db="$T/store.db"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --quiet
echo "artifacts: [datagen]" >>"$T/repo/exp.yaml"
expect_fail 64 "abtool: parent build: artifact 'datagen' was not found in the tree; files in the tree with that name: tests/datagen (the build ran and succeeded; its log is in " \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$db"
assert_contains "$T/err" "parent: the cached build was damaged (artifact 'datagen' is not in it); built it again"
assert_contains "$T/err" "abtool: candidate build: artifact 'datagen' was not found in the tree; files in the tree with that name: tests/datagen"
assert_contains "$T/err" "abtool: invalid: the experiment file is wrong: neither side's build makes artifact 'datagen' (paths in 'artifacts:' are relative to the tree); correct 'artifacts:' in $T/repo/exp.yaml"
assert_not_contains "$T/err" "last lines of"
[ "$(sqlite3 "$db" "select count(*) from builds where run_id = 2 and status = 'missing_artifact'")" = 2 ] || fail "build status"

# The parent makes ./datagen, the candidate stopped making it: exit 3.
make_repo "$T/repo2" 2 1
cat >"$T/repo2/Makefile" <<'EOF2'
bench: bench.c
	cc -O1 -o bench bench.c
	cp bench datagen
EOF2
git -C "$T/repo2" commit -qam "parent makes datagen"
cat >"$T/repo2/Makefile" <<'EOF2'
bench: bench.c
	cc -O1 -o bench bench.c
	mkdir -p tests && cp bench tests/datagen
EOF2
git -C "$T/repo2" commit -qam "candidate moves datagen"
EXP_PAIRS=2 write_exp "$T/repo2"
echo "artifacts: [datagen]" >>"$T/repo2/exp.yaml"
expect_fail 3 "abtool: invalid: candidate build: artifact 'datagen' was not found in the tree; files in the tree with that name: tests/datagen (the build ran and succeeded" \
	"$ABTOOL" run "$T/repo2/exp.yaml" --store "$T/store2.db"
assert_not_contains "$T/err" "experiment file is wrong"
assert_integrity "$db"
echo ok
