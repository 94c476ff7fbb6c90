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
# names: refused in the option's words, never as a line of the generated
# experiment (abtool-compare.yaml), whatever they hold
expect_fail 64 "-n \"a b\": expected a name of letters" "$ABTOOL" compare -n 'a b' 'echo' 'echo'
expect_fail 64 "-n \"bad\\nname\": expected a name of letters" "$ABTOOL" compare -n $'bad\nname' 'echo' 'echo'
expect_fail 64 "-n \"x: y\": expected a name of letters" "$ABTOOL" compare -n 'x: y' 'echo' 'echo'
expect_fail 64 "--name-b \"a\\u001Bb\": expected a name" "$ABTOOL" compare --name-b $'a\033b' 'echo' 'echo'
expect_fail 64 "compare: both commands are named 'x': give each its own name" \
	"$ABTOOL" compare -n x -n x 'echo' 'echo'
expect_fail 64 "compare: both commands are named 'a'" "$ABTOOL" compare --name-b a 'echo' 'echo'
expect_fail 64 "-n/--name: at most twice" "$ABTOOL" compare -n x -n y -n z 'echo' 'echo'
expect_fail 64 "--name-a y: command A is named 'x' already (by -n): name each command once" \
	"$ABTOOL" compare -n x --name-a y 'echo' 'echo'
expect_fail 64 "-n b: command B is named 'y' already (by --name-b)" \
	"$ABTOOL" compare --name-b y -n a -n b 'echo' 'echo'
assert_not_contains "$T/err" "abtool-compare.yaml"
# --timeout: at most 30 days (2^63 ns, about 106752 days, overflowed)
expect_fail 64 "--timeout 2562047h: at most 30d (2592000000 ms)" \
	"$ABTOOL" compare --timeout 2562047h 'true' 'true'
expect_fail 64 "--timeout 31d: at most 30d" "$ABTOOL" compare --timeout 31d 'true' 'true'
# -P and -L: in their own words, before anything runs
expect_fail 64 "-P x: the parameter is given twice (-P x first)" \
	"$ABTOOL" compare 'echo {x}' 'echo' -P x 1 2 -P x 1 3
expect_fail 64 "-L x: the parameter is given twice (-P x first)" \
	"$ABTOOL" compare 'echo {x}' 'echo' -P x 1 2 -L x 5,6
expect_fail 64 "-L x: the value 'a' is listed twice" "$ABTOOL" compare 'echo {x}' 'echo' -L x a,a
expect_fail 64 "-L x: the value '4.0' is listed twice" "$ABTOOL" compare 'echo {x}' 'echo' -L x 4,4.0
expect_fail 64 "-L x: value 2 is empty" "$ABTOOL" compare 'echo {x}' 'echo' -L x 'a,,b'
expect_fail 64 "-L x: value 2 is empty" "$ABTOOL" compare 'echo {x}' 'echo' -L x 'a,'
expect_fail 64 "-L 'x:': expected a parameter name" "$ABTOOL" compare 'echo {x}' 'echo' -L 'x:' 1
expect_fail 64 "-P y: the parameters make 90000 rows" \
	"$ABTOOL" compare 'echo {x}' 'echo {y}' -P x 1 300 -P y 1 300
assert_contains "$T/err" "more than the 10000 a comparison measures: use fewer values"
assert_not_contains "$T/err" "experiment file"
expect_fail 64 "-L x: neither command has {x}" "$ABTOOL" compare 'echo 1' 'echo 2' -L x 1,2
expect_fail 64 "-P x: neither command has {x}" "$ABTOOL" compare 'echo {{x}}' 'echo' -P x 1 2
assert_not_contains "$T/err" "abtool-compare.yaml"
# an unbalanced quote: refused up front with or without a shell; a
# --shell that is not there too (each sample would fail to start)
expect_fail 64 "command A 'echo 'unbalanced': an unbalanced ' (opened at character 6)" \
	"$ABTOOL" compare "echo 'unbalanced" 'echo x'
expect_fail 64 "--prepare 'echo \"a': an unbalanced \"" "$ABTOOL" compare -p 'echo "a' 'echo' 'echo'
expect_fail 64 "--shell nosuchshell: not found on PATH" "$ABTOOL" compare --shell nosuchshell true true
expect_fail 64 "--shell /no/such/sh: no such executable file" \
	"$ABTOOL" compare --shell '/no/such/sh -e' true true
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
