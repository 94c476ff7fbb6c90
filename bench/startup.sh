#!/usr/bin/env bash
# startup.sh [PAIRS] - what the PostgreSQL engine costs a command that does
# not use it: `abtool --version` and `abtool history` on a sqlite store,
# timed by `abtool compare` (the project measuring itself) with the binary
# built without the engine (-DABTOOL_POSTGRESQL=OFF) as A and the default
# binary, which loads libpq only when a PostgreSQL store is opened
# (store/store_pg.c), as B. Prints each comparison's ratio B/A, the
# interval the rule --no-regression 5% decides on, its upper bound and
# the rule's outcome: the target is an upper bound of at most 1.05. The binary without the
# engine is WITHOUT=path, or built here in build-nopg/ (a second build
# folder: RelWithDebInfo, -DABTOOL_POSTGRESQL=OFF -DBUILD_TESTING=OFF).
. "$(dirname "$0")/lib.sh"
need jq cmake

PAIRS=${1:-200}
METRIC=${METRIC:-wall_ns}  # cpu_ns: less disturbed by a busy machine
WITHOUT=${WITHOUT:-}
if [ -z "$WITHOUT" ]; then
	cmake -S "$ROOT" -B "$ROOT/build-nopg" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DABTOOL_POSTGRESQL=OFF -DBUILD_TESTING=OFF >"$B/cmake.log" 2>&1 ||
		{ cat "$B/cmake.log" >&2; exit 1; }
	cmake --build "$ROOT/build-nopg" --target abtool >"$B/build.log" 2>&1 ||
		{ tail -n 30 "$B/build.log" >&2; exit 1; }
	WITHOUT=$ROOT/build-nopg/abtool
fi
[ -x "$WITHOUT" ] || { echo "$BENCH: no abtool at $WITHOUT" >&2; exit 1; }
header
echo "A (without the engine): $WITHOUT; B (with it): $ABTOOL; $PAIRS pairs, $METRIC"
echo "B links libpq: $(readelf -d "$ABTOOL" | grep -c 'NEEDED.*libpq') (0: loaded only for a PostgreSQL store)"

# the store history reads: a few comparisons' runs; another store keeps
# the measurements
hist=$B/history.db
for i in 1 2 3; do
	"$ABTOOL" compare true true --pairs 2 --warmup 0 --quiet --inconclusive=accept --store "$hist" \
		>/dev/null 2>&1
done

echo
echo "| command | ratio B/A | interval | upper bound | --no-regression 5% | target | |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for cmd in "--version" "history --store $hist"; do
	"$ABTOOL" compare "$WITHOUT $cmd" "$ABTOOL $cmd" -n without -n with --pairs "$PAIRS" \
		--metric "$METRIC" --warmup 2 --check-stdout --no-regression 5% --inconclusive=accept --quiet \
		--store "$B/measure.db" --json "$B/r.json" >/dev/null 2>"$B/err" ||
		{ cat "$B/err" >&2; exit 1; }
	ratio=$(jq -r '.rows[0].ratio' "$B/r.json")
	detail=$(jq -r '.rules[0].detail' "$B/r.json")
	interval=$(echo "$detail" | sed -n 's/^all: ratio [0-9.]* \(\[[0-9.]*, [0-9.]*\]\).*/\1/p')
	upper=$(echo "$interval" | sed -n 's/.*, \([0-9.]*\)\]/\1/p')
	met=$(awk -v u="${upper:-nan}" 'BEGIN { print (u != "nan" && u + 0 <= 1.05) ? "met" : "not met" }')
	printf '| `abtool %s` | %.3f | %s | %s | %s | at most 1.05 | %s |\n' "${cmd%% --store*}" "$ratio" \
		"${interval:-none}" "${upper:-none}" "$(jq -r '.rules[0].outcome' "$B/r.json")" "$met"
done
echo
echo "load at the end: $(load_now)"
