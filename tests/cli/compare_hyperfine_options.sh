# compare and hyperfine's options (issue 35, item 15): those that map
# onto abtool are taken (-w, -r/--runs, -m/-M, --command-name,
# --export-json, --export-markdown, -p/--prepare, -C/--conclude, -N,
# -S/--shell) and do what abtool's option does; the others are refused
# (exit 64, nothing run) with a message that names abtool's way. An
# option's argument that looks like one of hyperfine's stays an argument.
# Decides nothing on time: plans, files, counts and messages.
. "$(dirname "$0")/lib.sh"

W="$T/work"
mkdir -p "$W"
cd "$W"
store=$(test_store s)
runs() {
	sql "$store" "SELECT count(*) FROM runs"
}

# -w N, -r N: the plan's warmup and pairs; attached and --runs=N alike
for spelling in "-w 2 -r 3" "-w2 -r3" "--warmup 2 --runs 3" "-w 2 --runs=3"; do
	# shellcheck disable=SC2086
	expect_exit 2 "$ABTOOL" compare $spelling true true --store "$store" --json "$T/p.json" -q
	[ "$(jqv "$T/p.json" '"\(.plan.warmup) \(.plan.samples_planned)"')" = "2 10" ] \
		|| fail "$spelling: plan $(jqv "$T/p.json" .plan)"
done
# -m N -M N: the plan's pairs and its maximum, as --pairs and --max-pairs.
# 6 pairs can decide, so both sides print the same count and the default
# rule decides on it (B/A exactly 1: no difference shown, exit 2), not on
# wall times, whose A/A shows a difference at 2 alpha
expect_exit 2 "$ABTOOL" compare -m 6 -M 12 --warmup 0 'echo work=7' 'echo work=7' --metric work \
	--store "$store" --json "$T/m.json" -q
assert_contains "$T/m.json" '"abtool compare --metric work --seed '
[ "$(jqv "$T/m.json" .reproduce | grep -o -- '--pairs 6 --max-pairs 12')" = "--pairs 6 --max-pairs 12" ] \
	|| fail "-m/-M: $(jqv "$T/m.json" .reproduce)"

# --command-name, --export-json (hyperfine's layout), --export-markdown
expect_exit 2 "$ABTOOL" compare --command-name one --command-name=two true true -r 2 --warmup 0 \
	--store "$store" --export-json "$T/h.json" --export-markdown="$T/r.md" -q
[ "$(jqv "$T/h.json" '[.results[].command] | join(",")')" = one,two ] || fail "--export-json: $(cat "$T/h.json")"
[ "$(jqv "$T/h.json" '[.results[].times | length] | join(",")')" = 2,2 ] || fail "--export-json times"
assert_contains "$T/r.md" "# one-vs-two — "

# -p/--prepare and -C/--conclude: once per sample, warmups included, in the
# working directory (a shell for the hooks that need one)
expect_exit 2 "$ABTOOL" compare -p 'echo p >>prepared' --conclude 'sh -c "echo c >>concluded"' \
	-r 2 -w 1 true true --store "$store" --json "$T/k.json" -q
[ "$(wc -l <prepared)" = 6 ] || fail "--prepare ran $(wc -l <prepared) times for 6 samples"
[ "$(wc -l <concluded)" = 6 ] || fail "--conclude ran $(wc -l <concluded) times for 6 samples"
assert_contains "$T/k.json" "--prepare 'echo p >>prepared' --conclude 'sh -c \\\"echo c >>concluded\\\"'"
expect_exit 64 "$ABTOOL" compare --prepare a --prepare b true true --store "$store"
assert_contains "$T/err" "abtool compare: --prepare: give it once"

# -N and -S/--shell are abtool's own (tests/cli/compare_shell.sh has what they do)
expect_exit 2 "$ABTOOL" compare -N true true -r 1 -w 0 --store "$store" -q
expect_exit 2 "$ABTOOL" compare -S 'sh -e' true true -r 1 -w 0 --store "$store" -q

# an argument that looks like hyperfine's option is an argument
expect_exit 2 "$ABTOOL" compare -n -r -n -w true true -r 1 -w 0 --store "$store" --json "$T/n.json" -q
[ "$(jqv "$T/n.json" '[.sides[].name] | join(",")')" = "-r,-w" ] || fail "names: $(jqv "$T/n.json" .sides)"
before=$(runs)

# refused: each names what abtool does instead, and nothing runs
refused() {  # refused 'HYPERFINE OPTION...' 'WHAT THE MESSAGE NAMES' [THE OPTION IT NAMES]
	local name=${1%% *}
	# shellcheck disable=SC2086
	expect_exit 64 "$ABTOOL" compare $1 true true --store "$store"
	assert_contains "$T/err" "abtool compare: ${3:-${name%%=*}} is hyperfine's: "
	assert_contains "$T/err" "$2"
	assert_contains "$T/err" "usage: abtool compare"
}
refused "--setup make" "--prepare CMD runs before every sample"
refused "-s make" "run it before abtool compare"
refused "--cleanup x" "--conclude CMD runs after every sample"
refused "-c x" "run it after abtool compare"
refused "-i" "stops the run as invalid (exit 3)"
refused "--ignore-failure" "make the command exit 0"
refused "-iq" "stops the run as invalid" -i
refused "--reference true" "the first command is the reference already"
refused "--time-unit ms" "--json F and --tsv F keep nanoseconds"
refused "-u ms" "the reports choose a unit"
refused "--show-output" "-v prints a line per sample"
refused "--output=null" "each sample's stdout and stderr are captured"
refused "--input data" "each sample's stdin is /dev/null"
refused "-D 2" "list other values with -L NAME V1,V2"
refused "--export-csv r.csv" "--tsv F writes every sample"
refused "--export-asciidoc r.adoc" "--md F"
refused "--export-orgmode r.org" "--md F"
refused "--style basic" "--format text|md and --color"
refused "--sort command" "the rows keep the matrix's order"
[ "$(runs)" = "$before" ] || fail "a refused option ran a comparison"
echo ok
