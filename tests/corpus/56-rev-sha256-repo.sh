# A SHA-256 repository (git init --object-format=sha256), which the
# libgit2 abtool is built with cannot read: exit 64, said to be a
# repository abtool cannot open and why, not "is not a git repository";
# likewise for the default store of commands run inside it.
. "$(dirname "$0")/corpus.sh"

# libgit2 1.5 leaks the pcre2 match data of its config regex when it
# refuses the repository's extension (git_config_foreach_match in
# git_repository_open_ext): not abtool's leak, so the sanitizer build
# does not count leaks here.
[ -z "${ABTOOL_SANITIZED:-}" ] || export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
git init -q --object-format=sha256 "$T/repo" 2>/dev/null || { echo "skipped: git has no sha256 object format"; exit 0; }
echo one >"$T/repo/a"
git -C "$T/repo" add a && git -C "$T/repo" commit -qm one
echo two >"$T/repo/a" && git -C "$T/repo" commit -qam two
printf 'name: s\nbenchmark: cat a\npairs: 2\n' >"$T/repo/exp.yaml"
if "$ABTOOL" check "$T/repo/exp.yaml" >/dev/null 2>&1; then
	echo "skipped: this libgit2 reads SHA-256 repositories"
	exit 0
fi
expect_fail 64 "cannot open the git repository at '$T/repo': " "$ABTOOL" check "$T/repo/exp.yaml"
assert_contains "$T/err" "(a SHA-256 repository: the libgit2 abtool is built with reads SHA-1 repositories only)"
assert_not_contains "$T/err" "is not a git repository"
cd "$T/repo" || fail "cd"
expect_fail 64 "no default store: cannot open the git repository at '.': " "$ABTOOL" history
assert_contains "$T/err" "SHA-256 repository"
echo ok
