# A store path that names no regular file (a folder, a character device,
# a FIFO) is refused before sqlite opens it, by commands that read and
# commands that write alike (exit 64), and nothing is left beside it:
# sqlite would have written a journal with the device's mode
# (/dev/null-journal, 0666).
. "$(dirname "$0")/corpus.sh"

mkdir -p "$T/w/folder.db"
cd "$T/w"
expect_fail 64 "the store '$T/w/folder.db' is a folder, not a store file; give --store a file" \
	"$ABTOOL" history --store "$T/w/folder.db"
expect_fail 64 "is a folder, not a store file" "$ABTOOL" compare true true --pairs 1 --store folder.db
[ -z "$(ls -A "$T/w/folder.db")" ] || fail "written into the folder: $(ls -A "$T/w/folder.db")"
[ "$(ls "$T/w")" = folder.db ] || fail "files beside the store: $(ls "$T/w")"
had_journal=$([ -e /dev/null-journal ] && echo yes || echo no)
expect_fail 64 "the store '/dev/null' is a character device, not a store file" "$ABTOOL" history --store /dev/null
expect_fail 64 "is a character device, not a store file" "$ABTOOL" designs --store /dev/null
[ "$had_journal" = yes ] || [ ! -e /dev/null-journal ] || fail "a journal beside /dev/null"
mkfifo "$T/w/fifo"
expect_fail 64 "the store '$T/w/fifo' is a FIFO, not a store file" "$ABTOOL" show 1 --store "$T/w/fifo"
echo ok
