# Bad command lines of abtool compare and bad sides: in an experiment
# file: exit 64 with the option or file:line:column named, nothing stored.
. "$(dirname "$0")/corpus.sh"

mkdir -p "$T/w"
cd "$T/w"
expect_fail 64 "expected two commands" "$ABTOOL" compare 'echo 1'
expect_fail 64 "expected two commands" "$ABTOOL" compare 'echo 1' 'echo 2' 'echo 3'
expect_fail 64 "-P/--parameter-scan: expected NAME MIN MAX with integers" \
	"$ABTOOL" compare 'echo {n}' 'echo {n}' -P n 1 x
expect_fail 64 "-P n: expected MIN <= MAX" "$ABTOOL" compare 'echo {n}' 'echo {n}' -P n 4 1
expect_fail 64 "-L/--parameter-list: expected NAME VALUES" "$ABTOOL" compare 'echo' 'echo' -L n
expect_fail 64 "--faster-by: expected a percentage like 5%" "$ABTOOL" compare 'echo' 'echo' --faster-by fast
expect_fail 64 "--check-stdout and --checksum-regex: give one checksum" \
	"$ABTOOL" compare 'echo' 'echo' --check-stdout --checksum-regex 'x(.)'
expect_fail 64 "sides.a.command[1]: unknown placeholder '{lanes}'" "$ABTOOL" compare 'echo {lanes}' 'echo'
expect_fail 64 "sides.a.name: expected a name of letters" "$ABTOOL" compare -n 'a b' 'echo' 'echo'
expect_fail 64 "both sides are named 'x'" "$ABTOOL" compare -n x -n x 'echo' 'echo'
expect_fail 64 "-n/--name: at most twice" "$ABTOOL" compare -n x -n y -n z 'echo' 'echo'
printf 'accept:\n  - {name: gain, faster_by: fast}\n' >"$T/rules.yaml"
expect_fail 64 "rules.yaml:2:" "$ABTOOL" compare 'echo' 'echo' --accept "$T/rules.yaml"
[ ! -e "$XDG_DATA_HOME/abtool/abtool.db" ] || fail "a refused comparison created the per-user store"

printf 'name: x\nsides:\n  a: {name: p, command: "echo"}\n  b: {name: p, command: "echo"}\n' >"$T/same.yaml"
expect_fail 64 "same.yaml:2:1: sides: both sides are named 'p'" "$ABTOOL" check "$T/same.yaml"
printf 'name: x\nbenchmark: ./b\nsides:\n  a: {name: p, command: "echo"}\n  b: {name: q, command: "echo"}\n' \
	>"$T/both.yaml"
expect_fail 64 "both.yaml:2:1: benchmark: not with sides:" "$ABTOOL" check "$T/both.yaml"
printf 'name: x\nsides:\n  a: {name: p, command: "echo"}\n' >"$T/one.yaml"
expect_fail 64 "sides.b: required key is missing" "$ABTOOL" check "$T/one.yaml"
printf 'name: x\nsides:\n  a: {name: p, command: "echo"}\n  b: {name: q, command: "echo"}\n  c: {}\n' >"$T/three.yaml"
expect_fail 64 "three.yaml:5:3: sides.c:" "$ABTOOL" check "$T/three.yaml"
echo ok
