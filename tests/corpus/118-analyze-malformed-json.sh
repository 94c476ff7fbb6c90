# A malformed hyperfine JSON export gets a JSON error with its line and
# column (it used to get "not a line of CSV ... reads TSV or CSV"), by its
# .json name or by its first character; JSON that is not hyperfine's
# export is named as such.
. "$(dirname "$0")/corpus.sh"

printf '{"results": [\n  {"command": "a", "times": [1.0],}\n]}\n' >"$T/bad.json"
expect_fail 64 "$T/bad.json:2:35: not JSON: " "$ABTOOL" analyze "$T/bad.json"
assert_contains "$T/err" "abtool analyze reads hyperfine's --export-json or a TSV or CSV file of pairs"
assert_not_contains "$T/err" "not a line of CSV"
cp "$T/bad.json" "$T/export.txt"
expect_fail 64 "$T/export.txt:2:35: not JSON: " "$ABTOOL" analyze "$T/export.txt"
printf '{"a": 1}\n' >"$T/other.json"
expect_fail 64 "$T/other.json: JSON, but not hyperfine's export (an object with a \"results\" array" \
	"$ABTOOL" analyze "$T/other.json"
echo ok
