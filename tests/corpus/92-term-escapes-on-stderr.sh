# Terminal escapes in strings that users and benchmarks control never
# reach the terminal raw: run's "this design was rejected" hint (and the
# refusal of block_rejected), note's confirmation and a failed sample's
# stderr tail printed ESC sequences from design names and benchmark
# output (an OSC 8 link, a clear-screen, colours). Every message goes
# through one filter (cmd_term_stderr): control characters become spaces,
# and so do C1 controls (U+0080-U+009F, e.g. CSI U+009B) in a UTF-8 locale.
. "$(dirname "$0")/corpus.sh"

export LC_ALL=C.UTF-8
esc=$(printf '\033')
c1=$(printf '\302\233')
# no_raw FILE...: no ESC byte and no UTF-8 C1 control in the files
no_raw() {
	local f
	for f in "$@"; do
		! grep -q "$esc" "$f" || fail "ESC in $f: $(od -c "$f" | grep -m1 033)"
		! LC_ALL=C grep -q "$c1" "$f" || fail "a C1 control in $f"
	done
}

make_repo "$T/repo" 10 100      # the candidate is 10x slower: rejected (on cpu_ns)
db="$T/store.db"
cat >"$T/repo/evil.yaml" <<'EOF2'
name: evil
design: "evil\e]8;;http://evil\e\\x\e[2J\u009b31mRED"
hypothesis: a name with escapes
build: make
benchmark: ./bench 1
checksum: {regex: 'checksum=(\S+)'}
metric: cpu_ns
pairs: 8
accept:
  - name: no regression
    no_regression: 2%
EOF2
expect_exit 1 "$ABTOOL" run "$T/repo/evil.yaml" --store "$db"
no_raw "$T/err"
# refused by block_rejected before measuring: the design's name
sed 's/pairs: 8/pairs: 7/' "$T/repo/evil.yaml" >"$T/repo/evil2.yaml"
printf 'history: {block_rejected: true}\n' >>"$T/repo/evil2.yaml"
expect_fail 64 "design 'evil ]8;;http://evil \\x [2J 31mRED' was rejected in run 1" \
	"$ABTOOL" run "$T/repo/evil2.yaml" --store "$db"
no_raw "$T/err"
# measured again: the hint before measuring names it (any verdict after)
sed 's/pairs: 8/pairs: 7/' "$T/repo/evil.yaml" >"$T/repo/evil2.yaml"
expect_decided "$ABTOOL" run "$T/repo/evil2.yaml" --store "$db"
assert_contains "$T/err" "this design 'evil ]8;;http://evil \\x [2J 31mRED' was rejected in run 1"
no_raw "$T/err"

# note: the confirmation names the design (stdout), an error the argument
name=$(printf 'evil\033]8;;http://evil\033\\x\033[2J\302\23331mRED')
expect_exit 0 "$ABTOOL" note --store "$db" --design "$name" "$(printf 'see \033[2Jhere')"
assert_contains "$T/out" "added to design 'evil ]8;;http://evil \\x [2J 31mRED'"
no_raw "$T/out" "$T/err"
expect_exit 0 "$ABTOOL" note --store "$db" 1 "a note"
assert_contains "$T/out" "(design 'evil ]8;;http://evil \\x [2J 31mRED')"
no_raw "$T/out" "$T/err"
expect_exit 0 "$ABTOOL" history --store "$db" --design "$name"
no_raw "$T/out" "$T/err"
"$ABTOOL" history --store "$db" --design "${name}S" >"$T/out" 2>"$T/err"
assert_contains "$T/err" "did you mean 'evil ]8;;http://evil \x [2J 31mRED'?"
no_raw "$T/out" "$T/err"

# a failed sample whose stderr prints escapes: the tail is shown without them
cat >"$T/repo/fails.yaml" <<'EOF2'
name: fails
build: make
benchmark: [sh, -c, 'printf "err\033[31mRED\302\233 \033]0;title\007\n" >&2; exit 3']
pairs: 2
EOF2
expect_fail 3 "parent sample 0 failed: exit 3" "$ABTOOL" run "$T/repo/fails.yaml" --store "$db"
assert_contains "$T/err" "err [31mRED   ]0;title "
no_raw "$T/err"
# the stored text keeps what the benchmark printed, byte for byte
sqlite3 "$db" "select hex(stderr) from samples where stderr is not null limit 1" | grep -q 1B5B33316D \
	|| fail "the stored stderr lost its bytes"

# in the C locale the ASCII controls are replaced too, and the UTF-8 C1
# controls (the terminal is most likely UTF-8); other text stays
LC_ALL=C expect_exit 64 "$ABTOOL" "$(printf 'x\033[2J\302\233 \302\243')"
no_raw "$T/err"
assert_contains "$T/err" "'x [2J  £' is not a command"
echo ok
