# A directory given as the experiment file: exit 64 (a bad argument, not
# an I/O error), and where the file might be.
. "$(dirname "$0")/corpus.sh"

mkdir -p "$T/perf"
expect_fail 64 "'$T/perf' is a directory; give the experiment file in it, e.g. '$T/perf/exp.yaml'" \
	"$ABTOOL" check "$T/perf"
expect_fail 64 "is a directory" "$ABTOOL" run "$T/perf" --store "$T/store.db"
echo ok
