# An overlay path listed twice (the same text, or the same path written
# another way, such as 'bench/' and './bench') is refused with the file,
# line, column and key path of the second one and where the first is, in
# both forms of overlay:, by check and by run (exit 64, nothing stored).
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 EXP_EXTRA='overlay: [Makefile, Makefile]' write_exp "$T/repo"
expect_fail 64 "exp.yaml:15:21: overlay[1]: duplicate path 'Makefile' (first at 15:11); list each path once" \
	"$ABTOOL" check "$T/repo/exp.yaml"
expect_fail 64 "exp.yaml:15:21: overlay[1]: duplicate path 'Makefile' (first at 15:11)" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/s.db"
[ ! -e "$T/s.db" ] || [ "$(sqlite3 "$T/s.db" "select count(*) from runs")" = 0 ] || fail "a refused run was stored"

EXP_PAIRS=2 EXP_EXTRA='overlay:
  from: candidate
  paths:
    - bench.c
    - Makefile
    - ./bench.c' write_exp "$T/repo"
expect_fail 64 "exp.yaml:20:7: overlay.paths[2]: duplicate path './bench.c': the same as 'bench.c' (first at 18:7); list each path once" \
	"$ABTOOL" check "$T/repo/exp.yaml"
expect_fail 64 "exp.yaml:20:7: overlay.paths[2]: duplicate path './bench.c'" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/s.db"

# different paths are fine
EXP_PAIRS=2 EXP_EXTRA='overlay: [Makefile, bench.c]' write_exp "$T/repo"
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml"
echo ok
