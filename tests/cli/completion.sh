# The bash, zsh and fish completions, as cmake --install puts them: bash
# (its completion function driven with COMP_WORDS/COMP_CWORD, after
# bash-completion's loader found it) completes commands, options, the
# --format values, the templates of init and the store's run ids; zsh and
# fish load theirs without a word on stderr, and fish completes the same.
# bash-completion, zsh and fish come from scripts/install-deps --test;
# without them the case fails.
. "$(dirname "$0")/lib.sh"

loader=/usr/share/bash-completion/bash_completion
[ -f "$loader" ] || fail "bash-completion is missing: run scripts/install-deps --test"
command -v zsh >/dev/null || fail "zsh is missing: run scripts/install-deps --test"
command -v fish >/dev/null || fail "fish is missing: run scripts/install-deps --test"
build=$(dirname "$ABTOOL")
cmake --install "$build" --prefix "$T/inst" >"$T/install.log" 2>&1 || {
	cat "$T/install.log" >&2
	fail "cmake --install"
}
share="$T/inst/share"
for f in bash-completion/completions/abtool zsh/site-functions/_abtool \
	fish/vendor_completions.d/abtool.fish; do
	[ -f "$share/$f" ] || fail "cmake --install put no $share/$f"
done
# The completions call abtool (history --ids): the one just built.
mkdir -p "$T/bin"
ln -sf "$ABTOOL" "$T/bin/abtool"
export PATH="$T/bin:$PATH"
# A store with runs 1 to 7 (a fixture of an older schema, upgraded on open).
cp "$ABTOOL_TEST_SRC/tests/fixtures/store-v6.db" "$T/store.db"
export ABTOOL_STORE="$T/store.db"
formats=$("$ABTOOL" __doc table | awk -F'\t' '$1 == "report" && $2 ~ /--format / {print $2}')
formats=$(echo "${formats##* }" | tr '|' ' ')
[ -n "$formats" ] || fail "report has no --format in its table"

cat >"$T/drive.bash" <<'SH'
. /usr/share/bash-completion/bash_completion
# bash-completion's loader finds abtool's file under XDG_DATA_DIRS
_completion_loader abtool
complete -p abtool >/dev/null || { echo "no completion for abtool after the loader" >&2; exit 1; }
fn=$(complete -p abtool | sed -n 's/.*-F \([^ ]*\).*/\1/p')
# complete WORDS...: the last word is the one being completed
c() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	"$fn" abtool "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[*]}"
}
echo "ru: $(c abtool ru)"
echo "format: $(c abtool report --format '')"
echo "short: $(c abtool report -f '')"
echo "inconclusive: $(c abtool run x.yaml --inconclusive = '')"
echo "template: $(c abtool init --template '')"
echo "options: $(c abtool run --ver)"
echo "runs: $(c abtool report '')"
echo "cache: $(c abtool cache '')"
SH
XDG_DATA_DIRS="$share:/usr/share" bash --norc "$T/drive.bash" >"$T/bash.out" 2>"$T/bash.err" || {
	cat "$T/bash.err" >&2
	fail "driving bash's completion"
}
cat "$T/bash.out"
[ -s "$T/bash.err" ] && { cat "$T/bash.err" >&2; fail "bash's completion wrote on stderr"; }
assert_contains "$T/bash.out" "ru: run"
grep -qx "format: $formats" "$T/bash.out" || fail "abtool report --format: not '$formats'"
grep -qx "short: $formats" "$T/bash.out" || fail "abtool report -f: not '$formats'"
assert_contains "$T/bash.out" "inconclusive: reject accept"
grep -q "^template: .*no-regression" "$T/bash.out" || fail "init --template: no template names"
grep -qx "options: --version --verbose" "$T/bash.out" || fail "run --ver: not --version --verbose"
grep -qx "runs: 7 6 5 4 3 2 1 latest" "$T/bash.out" || fail "report: not the store's run ids"
assert_contains "$T/bash.out" "cache: list prune clear"

# zsh: compinit finds _abtool on the fpath and loads it without complaint.
zsh -n "$share/zsh/site-functions/_abtool" 2>"$T/zsh.err" || { cat "$T/zsh.err" >&2; fail "zsh -n"; }
zsh -f -c 'fpath=("$1" $fpath); autoload -Uz compinit; compinit -u -d "$2"
	[[ $_comps[abtool] == _abtool ]] || { print -u2 "compinit did not bind _abtool"; exit 1 }
	autoload +X _abtool && whence -w _abtool' zsh "$share/zsh/site-functions" "$T/zcompdump" \
	>"$T/zsh.out" 2>"$T/zsh.err" || { cat "$T/zsh.err" >&2; fail "zsh cannot load _abtool"; }
[ -s "$T/zsh.err" ] && { cat "$T/zsh.err" >&2; fail "zsh wrote on stderr loading _abtool"; }
assert_contains "$T/zsh.out" "_abtool: function"

# fish: loads it from vendor_completions.d and completes the same.
fish --no-config -c 'set -p fish_complete_path $argv[1]
	complete -C"abtool ru"; echo ==; complete -C"abtool report --format "; echo ==
	complete -C"abtool report "' "$share/fish/vendor_completions.d" >"$T/fish.out" 2>"$T/fish.err" ||
	{ cat "$T/fish.err" >&2; fail "fish"; }
[ -s "$T/fish.err" ] && { cat "$T/fish.err" >&2; fail "fish wrote on stderr loading abtool.fish"; }
awk -F'\t' 'BEGIN {s = 0} /^==$/ {s++; next} {print s, $1}' "$T/fish.out" >"$T/fish.words"
grep -qx "0 run" "$T/fish.words" || { cat "$T/fish.out"; fail "fish: abtool ru does not give run"; }
for f in $formats; do
	grep -qx "1 $f" "$T/fish.words" || { cat "$T/fish.out"; fail "fish: --format $f missing"; }
done
grep -qx "2 7" "$T/fish.words" || { cat "$T/fish.out"; fail "fish: no run ids for report"; }
echo ok
