# A 20 MB "experiment file" is refused from its size, without reading it
# (abtool's max RSS stays far below the file's size), exit 64; so is an
# endless one (/dev/zero), after at most 1 MiB.
. "$(dirname "$0")/corpus.sh"

{
	echo "name: huge"
	echo "benchmark: ./bench"
	head -c 20000000 /dev/zero | tr '\0' '#'
} >"$T/exp.yaml"
size=$(stat -c %s "$T/exp.yaml")
expect_fail 64 "exp.yaml is $size bytes; an experiment file is at most 1 MiB" \
	/usr/bin/time -o "$T/rss" -f %M "$ABTOOL" check "$T/exp.yaml"
# (the memory bound holds in the normal build; ASan's shadow memory is not abtool's)
[ -n "${ABTOOL_SANITIZED:-}" ] || [ "$(tail -n 1 "$T/rss")" -lt 16384 ] || fail "abtool used $(tail -n 1 "$T/rss") KiB for a 20 MB file"
expect_fail 64 "/dev/zero is more than 1 MiB; an experiment file is at most 1 MiB" \
	/usr/bin/time -o "$T/rss" -f %M "$ABTOOL" check /dev/zero
[ -n "${ABTOOL_SANITIZED:-}" ] || [ "$(tail -n 1 "$T/rss")" -lt 16384 ] || fail "abtool used $(tail -n 1 "$T/rss") KiB on /dev/zero"
echo ok
