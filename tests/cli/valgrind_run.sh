# valgrind memcheck on one real `abtool run` (2 pairs: inconclusive, exit
# 2): no invalid access, no use of uninitialised memory, no definite leak.
# Only abtool is checked; the build and the benchmark children run as
# they are (--trace-children=no). A definite leak counts as an error
# (exit 99). valgrind does not know pidfd_open (it warns about syscall
# 434), so the runner's wait4 fallback is what runs here. Registered with
# the label `valgrind` and only in builds without sanitizers
# (tests/CMakeLists.txt).
. "$(dirname "$0")/lib.sh"

command -v valgrind >/dev/null || fail "valgrind is not installed (scripts/install-deps --test)"
make_repo "$T/repo" 4 2
EXP_PAIRS=2 write_exp "$T/repo"
expect_exit 2 valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	--track-fds=no --trace-children=no --log-file="$T/valgrind.log" \
	"$ABTOOL" run "$T/repo/exp.yaml" --seed 3
assert_contains "$T/out" "Verdict: inconclusive"
assert_contains "$T/valgrind.log" "ERROR SUMMARY: 0 errors"
echo ok
