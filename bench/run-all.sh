#!/bin/bash
# run-all.sh - every benchmark of bench/, one after the other, each
# printing its own tables; the output is what docs/performance.md quotes.
# Needs a built abtool (build/abtool, or ABTOOL=path) and the packages of
# scripts/install-deps --bench. Takes about 10 minutes on 2 CPUs.
#
# Usage: bench/run-all.sh [NAME...]   (default: all: these six in this
# order, then any other bench/*.sh)
set -u
dir=$(cd "$(dirname "$0")" && pwd)
names="sample_overhead bookkeeping checkout build_cache store memory"
for f in "$dir"/*.sh; do
	n=$(basename "$f" .sh)
	case " $names lib layers run-all " in *" $n "*) ;; *) names="$names $n" ;; esac
done
[ $# -gt 0 ] && names=$*
echo "# abtool benchmarks, $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo '```'
"${ABTOOL:-$dir/../build/abtool}" env 2>&1 | sed -n '1,/^$/p'
echo "uptime: $(uptime)"
echo '```'
status=0
for name in $names; do
	echo
	echo "## $name"
	echo
	echo "\$ bench/$name.sh"
	start=$(date +%s)
	if ! "$dir/$name.sh"; then
		echo "bench/$name.sh failed" >&2
		status=1
	fi
	echo "($(( $(date +%s) - start )) s)"
done
exit $status
