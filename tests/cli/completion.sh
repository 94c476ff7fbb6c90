# The bash, zsh and fish completions, as cmake --install puts them: bash
# (its completion function driven with COMP_WORDS/COMP_CWORD, after
# bash-completion's loader found it) completes commands, options, the
# --format values, the templates of init, the store's run ids, the *.yaml
# files and folders (not .git, not other files) where an experiment file
# goes, and the branches and tags of the repository where a revision goes
# (--candidate, --parent, --good, --bad); zsh and fish load theirs without
# a word on stderr, and fish completes the same.
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

# A repository with a branch and a tag, experiment files, another file, a folder.
repo=$T/repo
mkdir -p "$repo/perf"
git -C "$repo" init -q -b main
echo x >"$repo/notes.txt"
echo 'name: x' >"$repo/exp.yaml"
echo 'accept: []' >"$repo/rules.yml"
git -C "$repo" add -A && git -C "$repo" commit -qm base
git -C "$repo" branch feature-fast
git -C "$repo" tag v1.0
export REPO=$repo

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
cd "$REPO" || exit 1
echo "run: $(c abtool run '' | tr ' ' '\n' | sort | tr '\n' ' ')"
echo "check-e: $(c abtool check e)"
echo "accept: $(c abtool analyze p.tsv --accept '')"
echo "candidate: $(c abtool run exp.yaml --candidate '')"
echo "candidate-f: $(c abtool run exp.yaml --candidate f)"
echo "parent: $(c abtool run exp.yaml --parent v)"
echo "good: $(c abtool bisect exp.yaml --good '')"
echo "bad: $(c abtool bisect exp.yaml --bad '')"
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
grep -qx "run: exp.yaml perf rules.yml " "$T/bash.out" || fail "abtool run: not the yaml files and the folder"
grep -qx "check-e: exp.yaml" "$T/bash.out" || fail "abtool check e: not exp.yaml"
grep -q "^accept: .*rules.yml" "$T/bash.out" || fail "analyze --accept: no rules.yml"
for w in feature-fast main v1.0 HEAD; do
	grep -q "^candidate: .*\b$w\b" "$T/bash.out" || fail "run --candidate: no $w"
	grep -q "^good: .*\b$w\b" "$T/bash.out" || fail "bisect --good: no $w"
	grep -q "^bad: .*\b$w\b" "$T/bash.out" || fail "bisect --bad: no $w"
done
grep -qx "candidate-f: feature-fast" "$T/bash.out" || fail "run --candidate f: not feature-fast"
grep -qx "parent: v1.0" "$T/bash.out" || fail "run --parent v: not v1.0"

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
	complete -C"abtool report "; echo ==; cd $argv[2]; complete -C"abtool run exp.yaml --candidate "
	echo ==; complete -C"abtool run "' "$share/fish/vendor_completions.d" "$repo" >"$T/fish.out" 2>"$T/fish.err" ||
	{ cat "$T/fish.err" >&2; fail "fish"; }
[ -s "$T/fish.err" ] && { cat "$T/fish.err" >&2; fail "fish wrote on stderr loading abtool.fish"; }
awk -F'\t' 'BEGIN {s = 0} /^==$/ {s++; next} {print s, $1}' "$T/fish.out" >"$T/fish.words"
grep -qx "0 run" "$T/fish.words" || { cat "$T/fish.out"; fail "fish: abtool ru does not give run"; }
for f in $formats; do
	grep -qx "1 $f" "$T/fish.words" || { cat "$T/fish.out"; fail "fish: --format $f missing"; }
done
grep -qx "2 7" "$T/fish.words" || { cat "$T/fish.out"; fail "fish: no run ids for report"; }
grep -qx "3 feature-fast" "$T/fish.words" || { cat "$T/fish.out"; fail "fish: --candidate: no branch"; }
grep -qx "3 v1.0" "$T/fish.words" || { cat "$T/fish.out"; fail "fish: --candidate: no tag"; }
grep -qx "4 exp.yaml" "$T/fish.words" || { cat "$T/fish.out"; fail "fish: run: no exp.yaml"; }
grep -qx "4 notes.txt" "$T/fish.words" && { cat "$T/fish.out"; fail "fish: run offers notes.txt"; }
echo ok
