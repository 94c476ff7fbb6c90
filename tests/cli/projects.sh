# One store file shared by two repositories (docs/history.md, "Projects"):
# both run a design named pr-42 into team.db and keep two designs, each in
# its project (named by the normalized remote URL, credentials dropped);
# A's rejection blocks A's next run under block_rejected but not B's, and
# B's run hears nothing of it; history lists the current repository's
# project, --project another, --all-projects every one; an export keeps
# its project when imported elsewhere. The store of schema 10 migrates and
# the repository whose store it is claims its runs (the comparison stays
# in no project). project: in the experiment file wins over the config
# file's, which wins over the remote.
. "$(dirname "$0")/lib.sh"

db=$(test_store team)
for r in a b; do
	make_repo "$T/$r" 10 100  # the candidate is 10x slower: rejected under no_regression: 2% (cpu_ns)
	EXP_NAME="lib-$r" EXP_DESIGN=pr-42 write_exp "$T/$r"
done
git -C "$T/a" remote add origin git@github.com:Team/Lib-A.git
git -C "$T/b" remote add upstream https://example.org/x/y
git -C "$T/b" remote add origin https://user:token@github.com/Team/Lib-B.git/
pa=github.com/Team/Lib-A
pb=github.com/Team/Lib-B

cd "$T/a"
expect_exit 1 "$ABTOOL" run exp.yaml --store "$db" --quiet --seed 1
cd "$T/b"
EXP_NAME=lib-b EXP_DESIGN=pr-42 EXP_EXTRA='history: {block_rejected: true}' write_exp "$T/b"
expect_decided "$ABTOOL" run exp.yaml --store "$db" --seed 2 --json "$T/b.json"
assert_not_contains "$T/err" "was rejected"
[ "$(sql "$db" "SELECT count(*) FROM runs")" = 2 ] || fail "B's run was not stored"
cd "$T/a"
EXP_NAME=lib-a EXP_DESIGN=pr-42 EXP_EXTRA='history: {block_rejected: true}' write_exp "$T/a"
expect_exit 64 "$ABTOOL" run exp.yaml --store "$db" --seed 3
assert_contains "$T/err" "design 'pr-42' was rejected in run 1"
[ "$(sql "$db" "SELECT count(*) FROM runs")" = 2 ] || fail "A's blocked run was stored"

# Two designs named pr-42, one per project; no credentials stored.
expect_exit 0 "$ABTOOL" designs --all-projects --store "$db" --json
[ "$(jqv "$T/out" '[.[] | .project + ":" + .design] | sort | join(",")')" = "$pa:pr-42,$pb:pr-42" ] \
	|| fail "designs --all-projects: $(cat "$T/out")"
expect_exit 0 "$ABTOOL" designs --all-projects --store "$db"
head -n 1 "$T/out" | grep -Eq "^project +design +runs +verdict" || fail "project column: $(head -n 1 "$T/out")"
[ "$(sql "$db" "SELECT count(*) FROM designs WHERE project LIKE '%token%' OR project LIKE '%user%'")" = 0 ] \
	|| fail "credentials stored"
expect_exit 0 "$ABTOOL" designs --store "$db" --json
[ "$(jqv "$T/out" 'map(.project + ":" + .design + ":" + .latest_verdict) | join(",")')" = "$pa:pr-42:rejected" ] \
	|| fail "A's designs: $(cat "$T/out")"

# history: the current project's runs; another's with --project; all.
expect_exit 0 "$ABTOOL" history --store "$db" --json
[ "$(jqv "$T/out" 'map("\(.id):\(.project)") | join(",")')" = "1:$pa" ] || fail "A's history: $(cat "$T/out")"
(cd "$T/b" && "$ABTOOL" history --store "$db" --grep lib --ids) >"$T/ids" || fail "B's history --grep"
[ "$(cat "$T/ids")" = 2 ] || fail "B's history --grep: $(cat "$T/ids")"
expect_exit 0 "$ABTOOL" history --store "$db" --project "$pb" --json
[ "$(jqv "$T/out" 'map(.id) | join(",")')" = 2 ] || fail "--project: $(cat "$T/out")"
expect_exit 0 "$ABTOOL" history --store "$db" --all-projects
head -n 1 "$T/out" | grep -Eq "^ *id +date \(UTC\) +project +design " || fail "history project column"
[ "$(grep -c "pr-42" "$T/out")" = 2 ] || fail "history --all-projects: $(cat "$T/out")"
expect_exit 64 "$ABTOOL" history --store "$db" --all-projects --project "$pa"
# show and export by run id, whatever the current project; import keeps it.
expect_exit 0 "$ABTOOL" show 2 --store "$db" --json
[ "$(jqv "$T/out" .project)" = "$pb" ] || fail "show --json project: $(jqv "$T/out" .project)"
expect_exit 0 "$ABTOOL" export 2 --store "$db" -o "$T/b-run.json"
expect_exit 0 "$ABTOOL" import "$T/b-run.json" --store "$T/mine.db"
[ "$(sqlite3 "$T/mine.db" "SELECT group_concat(project) FROM designs")" = "$pb" ] || fail "import's project"

# The store of schema 10, as the repository's own store: its runs become
# the repository's project, its comparison stays in none.
cd "$T/a"
mkdir -p "$T/a/.git/abtool"
cp "$ABTOOL_TEST_SRC/tests/fixtures/store-v10.db" "$T/a/.git/abtool/abtool.db"
expect_exit 0 "$ABTOOL" history --json --limit 0
[ "$(jqv "$T/out" '[.[] | "\(.id):\(.project)"] | join(",")')" \
	= "8:,7:$pa,6:$pa,5:$pa,4:$pa,3:$pa,2:$pa,1:$pa" ] || fail "v10 runs' projects: $(cat "$T/out")"
[ "$(sqlite3 "$T/a/.git/abtool/abtool.db" "SELECT count(*) FROM experiments WHERE project = '(unclaimed)'")" \
	= 0 ] || fail "experiments left unclaimed"

# project: in the experiment file, then the config file, then the remote.
mkdir -p "$XDG_CONFIG_HOME/abtool"
printf 'project: from-config\n' >"$XDG_CONFIG_HOME/abtool/config"
EXP_NAME=named EXP_DESIGN=named EXP_PAIRS=2 EXP_EXTRA='project: from-file' write_exp "$T/a"
expect_decided "$ABTOOL" run exp.yaml --store "$db" --quiet --seed 4
EXP_NAME=configured EXP_DESIGN=configured EXP_PAIRS=2 write_exp "$T/a"
expect_decided "$ABTOOL" run exp.yaml --store "$db" --quiet --seed 5
[ "$(sql "$db" "SELECT project || ':' || name FROM designs ORDER BY id" | paste -sd, -)" \
	= "$pa:pr-42,$pb:pr-42,from-file:named,from-config:configured" ] \
	|| fail "project: order: $(sql "$db" "SELECT project, name FROM designs")"
expect_exit 0 "$ABTOOL" history --store "$db" --json
[ "$(jqv "$T/out" 'map(.design) | join(",")')" = configured ] || fail "the config file's project: $(cat "$T/out")"
echo ok
