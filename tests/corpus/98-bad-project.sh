# A bad project name (docs/history.md, "Projects") is refused with exit 64
# and the file:line:column of its value, in the experiment file (empty,
# only spaces, not a string, the placeholder of old stores' rows, beside
# sides:) and in the config file (empty, not a string); nothing is run or
# stored.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 4 2
db="$T/store.db"
bad() {  # bad LINE MESSAGE: project: LINE appended to the basic experiment
	EXP_PAIRS=2 EXP_EXTRA="$1" write_exp "$T/repo"
	expect_fail 64 "$2" "$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --quiet
}
bad 'project: ""' "exp.yaml:15:10: project: expected a non-empty string"
bad 'project:' "exp.yaml:15:9: project: expected the project's name as a string"
bad 'project: "   "' "exp.yaml:15:10: project: expected a project name, like github.com/owner/name, not only spaces"
bad 'project: [a, b]' "exp.yaml:15:10: project: expected the project's name as a string"
bad 'project: {name: x}' "exp.yaml:15:10: project: expected the project's name as a string"
bad 'project: "(unclaimed)"' "exp.yaml:15:10: project: '(unclaimed)' is what old stores' rows are"
printf 'name: two\nsides:\n  a: {command: "true"}\n  b: {command: "true"}\nproject: x\n' >"$T/sides.yaml"
expect_fail 64 "sides.yaml:5:1: project: not with sides: (a comparison of two commands belongs to no project)" \
	"$ABTOOL" run "$T/sides.yaml" --store "$db" --quiet
[ ! -e "$db" ] || fail "a store was made: $(ls -l "$db")"

EXP_PAIRS=2 write_exp "$T/repo"
mkdir -p "$XDG_CONFIG_HOME/abtool"
printf 'project: ""\n' >"$XDG_CONFIG_HOME/abtool/config"
expect_fail 64 "$XDG_CONFIG_HOME/abtool/config:1:10: project: expected a project name, like github.com/owner/name" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --quiet
# history and designs with --store read the config file only in a
# repository, whose project its project: would name (tests/cli/cache.sh):
# in the case's repository, wherever CTest runs the case from
cd "$T/repo" || fail "cd"
printf 'project: [a]\n' >"$XDG_CONFIG_HOME/abtool/config"
expect_fail 64 "config:1:10: project: expected the project's name as a string" \
	"$ABTOOL" history --store "$db"
printf 'project: a\nproject: b\n' >"$XDG_CONFIG_HOME/abtool/config"
expect_fail 64 "config:2:1: project: given twice" "$ABTOOL" designs --store "$db"
echo ok
