# Every command's usage line against its option table (the arrays
# cmd_parse_options reads, printed by abtool __doc table): the usage names
# every option of the table but --help and --version, no option the table
# lacks, and each option's argument as the table names it (or, for a list
# of values such as text|md, as the table lists them). The usage lines
# are written by hand in main.c (they say what a table cannot: operands,
# alternatives such as --json | --ids, bisect's --resume form); this case
# keeps them true to the tables. No repository, no run.
. "$(dirname "$0")/lib.sh"

"$ABTOOL" __doc table >"$T/table" || fail "__doc table"
"$ABTOOL" __doc commands >"$T/commands" || fail "__doc commands"
while IFS=$'\t' read -r cmd summary; do
	"$ABTOOL" "$cmd" --help >"$T/help.$cmd" || fail "$cmd --help"
done <"$T/commands"
python3 - "$T" <<'PY' || fail "usage lines differ from the option tables (above)"
import re, sys
t = sys.argv[1]
table, letters = {}, {}
for line in open(f"{t}/table", encoding="utf-8"):
    cmd, opt, _section, _help = line.rstrip("\n").split("\t", 3)
    name, _, arg = opt.split(", ")[-1].partition(" ")  # "-n, --limit N"
    if name not in ("--help", "--version"):
        table.setdefault(cmd, {})[name] = arg
        if ", " in opt:
            letters.setdefault(cmd, {})[opt.split(", ")[0]] = name
problems = []
for cmd in [l.split("\t")[0] for l in open(f"{t}/commands", encoding="utf-8")]:
    help_text = open(f"{t}/help.{cmd}", encoding="utf-8").read()
    usage = " ".join(help_text.split("\n\n", 1)[0].split())
    assert usage.startswith(f"usage: abtool {cmd}"), usage
    # an option as --name or by its letter (-n), with its argument: a name
    # in capitals (compared with the table's) or the values it takes
    # (sequential|fixed: more than the table's name says, not compared)
    named = {}
    for m in re.finditer(r"(?<![\w-])(--[a-z][a-z-]*|-[A-Za-z])(?![\w-])"
                         r"(?:[ =]([A-Z][A-Za-z0-9_./=,%@-]*(?: [A-Z][A-Za-z0-9_./=,%@-]*)*|[a-z][a-z-]*(?:[\[|][a-z-]+\]?)*))?",
                         usage):
        name = letters.get(cmd, {}).get(m.group(1), m.group(1))
        value = m.group(2) or ""
        if value.count("]") > value.count("["):  # the bracket that closes [--opt VALUES]
            value = value[:-1]
        named.setdefault(name, value)
    want = table.get(cmd, {})
    for name in sorted(set(want) - set(named)):
        problems.append(f"{cmd}: the usage line lacks {name}")
    for name in sorted(set(named) - set(want)):
        problems.append(f"{cmd}: the usage line names {name}, which the option table lacks")
    for name in sorted(set(want) & set(named)):
        # "V1,V2,..." says the list goes on, as the table's "V1,V2" does
        # (an operand may follow the argument: as many words as the table's)
        given = " ".join(named[name].replace(",...", "").split()[:len(want[name].split())])
        if want[name] and given[:1].isupper() and given != want[name].replace(",...", ""):
            problems.append(f"{cmd}: the usage line gives {name} {named[name]}, "
                            f"the table {name} {want[name]}")
        # a list of values (text|md|...) is compared when the table gives one too
        if "|" in want[name] and named[name] and named[name] != want[name]:
            problems.append(f"{cmd}: the usage line gives {name} {named[name]}, "
                            f"the table {name} {want[name]}")
        if want[name] and not named[name]:
            problems.append(f"{cmd}: the usage line gives {name} without its argument {want[name]}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY
# The usage a usage error prints is wrapped as --help wraps it (80
# columns in a pipe), not one line of every option.
while IFS=$'\t' read -r cmd summary; do
	"$ABTOOL" "$cmd" --no-such-option >/dev/null 2>"$T/err.$cmd"
	grep -q "^usage: abtool $cmd" "$T/err.$cmd" || fail "$cmd: no usage after a bad option"
	long=$(awk 'length > 80' "$T/err.$cmd")
	[ -z "$long" ] || fail "$cmd: a usage error's line over 80 columns: $long"
done <"$T/commands"
echo ok
