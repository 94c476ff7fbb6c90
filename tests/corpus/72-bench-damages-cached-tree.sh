# A benchmark that deletes or changes its own tree (samples run in the
# cached tree) does not leave a damaged cache entry behind: the next run
# checks the tree against what its build left, says it was damaged,
# builds it again and is decided. Without artifacts the tracked files'
# stat data shows it; with artifacts also their hashes. Samples get
# ABTOOL_SCRATCH, a directory outside the tree, removed after the run.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 40 4
EXP_PAIRS=12 write_exp "$T/repo"
# one rule a 10x effect passes on cpu_ns (write_exp): "decided" means exit 0
sed -i -e '/- name: material gain/d' -e '/faster_by: 20%/d' "$T/repo/exp.yaml"
bench() { sed -i -e "s|^benchmark: .*|benchmark: \"$1\"|" "$T/repo/exp.yaml"; }

# 1. the whole tree deleted, no artifacts declared
bench "./bench {lanes}; rm -rf ./* ./.git"
expect_exit 3 "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
cat >"$T/writes.sh" <<EOF2
#!/bin/sh
./bench "\$@" && echo x >"\$ABTOOL_SCRATCH/out" && echo "\$ABTOOL_SCRATCH" >"$T/scratch"
EOF2
chmod +x "$T/writes.sh"
bench "$T/writes.sh {lanes}"
expect_exit 0 "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
assert_contains "$T/err" "candidate: the cached build was damaged ("
assert_not_contains "$T/err" "build cached"
scratch=$(cat "$T/scratch")
case $scratch in "$XDG_CACHE_HOME"/*.scratch-*) ;; *) fail "ABTOOL_SCRATCH is '$scratch'" ;; esac
[ -e "$scratch" ] && fail "the scratch directory $scratch was not removed after the run"

# 2. intact: reused without a word
bench "./bench {lanes}"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
assert_contains "$T/err" "build cached"
assert_not_contains "$T/err" "damaged"

# 3. only the declared artifact deleted
echo "artifacts: [bench]" >>"$T/repo/exp.yaml"
bench "./bench {lanes}; rm -f bench"
expect_exit 3 "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
bench "./bench {lanes}"
expect_exit 0 "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
# (the entry was built before 'artifacts:' named bench: not "gone", which
# would claim it was there)
assert_contains "$T/err" "the cached build was damaged (artifact 'bench' is not in it)"
assert_integrity "$T/store.db"
echo ok
