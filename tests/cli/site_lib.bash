# site_lib.bash - the store the site's cases build their site from
# (tests/cli/site.sh, tests/pg/site.sh), sourced after lib.sh. Nothing in
# it is decided by the machine's timing: every run decides on a count the
# benchmark prints (work=N, the same in every sample of a side), so each
# pair gives the same ratio and each verdict is what the commits make it:
#
# project github.com/acme/engine (repository $T/a, remote on GitHub):
#   c0 base 8 units; c1 halves the work; c2 doubles it again; c3 changes
#   nothing; c4 changes the checksum; c5 halves the work again.
#   runs, in this order (not the history's: the rows chart must follow the
#   commits, not the runs): c5 accepted (design quarter-work), c1 accepted
#   (halve-work), c2 rejected (double-work, whose hypothesis says
#   "amortizes"), c3 inconclusive (same-work, 4 pairs: no interval), c4
#   invalid (new-checksum), c2 rejected again with --new-evidence, a
#   bisect of c1..c2 (its culprit c2), notes on a run and on a design.
# project root:... (repository $T/b, no remote): b-faster accepted,
#   b-slower rejected (hypothesis "the convoy ...").
# comparisons: one compare of two commands.
#
# After site_store, $SITE_C0 .. $SITE_C5 are project a's commits.

# site_repo_commit DIR WORK SALT MESSAGE: set the benchmark's work and
# checksum salt and commit.
site_repo_commit() {
	printf 'WORK=%s\nSALT=%s\n' "$2" "$3" >"$1/params"
	echo "$4" >"$1/NOTES"
	git -C "$1" add -A
	git -C "$1" commit -qm "$4"
	git -C "$1" rev-parse HEAD
}

# site_repo DIR: a repository whose benchmark prints its work and checksum.
site_repo() {
	mkdir -p "$1"
	git -C "$1" init -q
	cat >"$1/bench.sh" <<'EOF2'
#!/bin/sh
. ./params
echo "lanes=$1 work=$((WORK * $1)) checksum=$((SALT + $1))"
EOF2
	cat >"$1/exp.yaml" <<'EOF2'
name: engine
design: base
build: true
benchmark: sh bench.sh {lanes}
checksum: {regex: 'checksum=(\S+)'}
metrics:
  work: {regex: 'work=([0-9]+)', unit: steps, better: lower}
metric: work
matrix: {lanes: [1, 2]}
pairs: 6
warmup: 0
accept:
  - name: no regression
    no_regression: 2%
  - name: material gain
    faster_by: 20%
EOF2
}

# site_run STORE DIR CANDIDATE DESIGN [HYPOTHESIS [ARGS...]]: one run of
# DIR's experiment (under DESIGN, with HYPOTHESIS when not empty); any
# verdict but an error is fine, the caller checks the verdicts.
site_run() {
	local store=$1 dir=$2 cand=$3 design=$4 hyp=${5:-} exp
	shift 5 2>/dev/null || shift $#
	exp="$T/exp-$design.yaml"
	sed "s|^design: .*|design: $design|" "$dir/exp.yaml" >"$exp"
	[ -z "$hyp" ] || echo "hypothesis: $hyp" >>"$exp"
	sed -i "/^name:/a repo: $dir" "$exp"
	local rc=0
	"$ABTOOL" run "$exp" --candidate "$cand" --store "$store" --quiet "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -le 3 ] || { cat "$T/err" >&2; fail "site_run $design: exit $rc"; }
}

# site_store STORE: build the store described above.
site_store() {
	local s=$1 a="$T/a" b="$T/b" b0 b1 b2
	site_repo "$a"
	git -C "$a" remote add origin https://github.com/acme/engine.git
	SITE_C0=$(site_repo_commit "$a" 8 0 "c0: base")
	SITE_C1=$(site_repo_commit "$a" 4 0 "c1: halve the work")
	SITE_C2=$(site_repo_commit "$a" 8 0 "c2: double it again")
	SITE_C3=$(site_repo_commit "$a" 8 0 "c3: same work")
	SITE_C4=$(site_repo_commit "$a" 8 5 "c4: a new checksum")
	SITE_C5=$(site_repo_commit "$a" 4 5 "c5: halve the work again")
	site_run "$s" "$a" "$SITE_C5" quarter-work "halving once more pays as much"
	site_run "$s" "$a" "$SITE_C1" halve-work "halving the work halves the count"
	site_run "$s" "$a" "$SITE_C2" double-work "doubling the batch amortizes the lock"
	site_run "$s" "$a" "$SITE_C3" same-work "" --pairs 4
	site_run "$s" "$a" "$SITE_C4" new-checksum "a new checksum costs nothing"
	"$ABTOOL" note --design double-work "tried in pull request 41" --store "$s" >/dev/null ||
		fail "note --design"
	site_run "$s" "$a" "$SITE_C2" double-work "doubling the batch amortizes the lock" \
		--new-evidence "the lock was split in two since"
	"$ABTOOL" note latest "measured on the quiet runner" --store "$s" >/dev/null || fail "note"
	"$ABTOOL" bisect "$a/exp.yaml" --good "$SITE_C1" --bad "$SITE_C3" --threshold 50% --row lanes=1 --pairs 10 \
		--store "$s" --quiet >"$T/out" 2>"$T/err"
	[ $? = 0 ] || { cat "$T/err" >&2; fail "bisect"; }
	site_repo "$b"
	b0=$(site_repo_commit "$b" 8 0 "b0")
	b1=$(site_repo_commit "$b" 4 0 "b1: faster")
	b2=$(site_repo_commit "$b" 16 0 "b2: slower")
	site_run "$s" "$b" "$b1" b-faster "fewer steps"
	site_run "$s" "$b" "$b2" b-slower "the convoy forms at two lanes"
	"$ABTOOL" compare 'true' 'true' --pairs 5 --metric maxrss_bytes --store "$s" --quiet \
		>"$T/out" 2>"$T/err"
	case $? in 0 | 1 | 2) ;; *) cat "$T/err" >&2; fail "compare" ;; esac
	: "$b0"
}
