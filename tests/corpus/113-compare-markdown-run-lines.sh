# The Markdown report of a comparison of two commands (abtool compare,
# sides:) says what the run ran on and how, as a run of two commits does:
# the Host, Noise controls, Noise and Plan lines, with the plan's seed
# and how many of the planned samples ran, on stdout and in --md.
. "$(dirname "$0")/corpus.sh"

mkdir -p "$T/w"
cd "$T/w"
expect_decided "$ABTOOL" compare true 'true ' --pairs 2 --seed 7 --store s.db --md r.md
for f in "$T/out" r.md; do
	assert_contains "$f" "Host: "
	assert_contains "$f" "Noise controls: "
	assert_contains "$f" "Noise: CPU occupancy"
	assert_contains "$f" "Plan: 2 pairs per row after 1 warmup per side, rows round-robin, AB|BA blocks, seed 7; 6 of 6 samples ran."
done
expect_exit 0 "$ABTOOL" report 1 --format md --store s.db
assert_contains "$T/out" "seed 7; 6 of 6 samples ran."
echo ok
