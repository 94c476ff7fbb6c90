# When perf record fails, abtool says why in perf's words: perf writes
# "Error:" on a line of its own and the reason on the next, which used to
# be dropped ("failed (exit 255): Error:; ..."). perf here is a stand-in
# that fails as perf does where perf_event_paranoid forbids it.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/s.db" --quiet
mkdir -p "$T/bin"
cat >"$T/bin/perf" <<'EOF2'
#!/bin/sh
printf '\nError:\nAccess to performance monitoring and observability operations is limited.\nConsider adjusting /proc/sys/kernel/perf_event_paranoid setting to open\n' >&2
exit 255
EOF2
chmod +x "$T/bin/perf"
PATH="$T/bin:$PATH" expect_fail 74 "abtool: no profile was taken: perf record -e cpu-clock failed (exit 255): Error: Access to performance monitoring and observability operations is limited.; the run's samples and verdict stand" \
	"$ABTOOL" profile 1 --store "$T/s.db" --samples 1
echo ok
