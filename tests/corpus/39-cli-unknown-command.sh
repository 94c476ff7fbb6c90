# An unknown command: exit 64 and where the commands are listed; no
# command at all: the usage on stderr, exit 64.
. "$(dirname "$0")/corpus.sh"

expect_fail 64 "abtool: 'frobnicate' is not a command; see 'abtool --help'" "$ABTOOL" frobnicate exp.yaml
expect_fail 64 "usage: abtool COMMAND [ARGS]" "$ABTOOL"
echo ok
