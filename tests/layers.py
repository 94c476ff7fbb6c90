#!/usr/bin/env python3
"""The layers hold (docs/architecture.md, "The layers"): an include that
goes up a layer is refused, by the build and by scripts/check-structure;
and check-structure refuses an error message out of the house's style.

  tests/layers.py SOURCE_DIR BUILD_DIR

The build: abtool/stats/stats.c is compiled with its own command from
BUILD_DIR/compile_commands.json, once with an include of a header of its
own layer's neighbour below (util.h, which must compile) and once with
run.h of the run layer above it (which must not: the stats library is not
given the run layer's folder). check-structure: a copy of the tree with
the same upward include must fail and name the file, the header and both
layers; the copy as it is must pass. Exit 0 when all hold.
"""
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

src, build = sys.argv[1], sys.argv[2]
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
    commands = json.load(f)
target = os.path.join(src, "abtool", "stats", "stats.c")
entry = next(c for c in commands if os.path.realpath(c["file"]) == os.path.realpath(target))
argv = entry.get("arguments") or shlex.split(entry["command"])

with tempfile.TemporaryDirectory() as tmp:
    def compile_with(header):
        probe = os.path.join(tmp, "probe.c")
        with open(target, encoding="utf-8") as f:
            body = f.read()
        with open(probe, "w", encoding="utf-8") as f:
            f.write(f'#include "{header}"\n' + body)
        args = []
        skip = False
        for a in argv:
            if skip:
                skip = False
                continue
            if a == "-o":
                args += ["-o", os.devnull]
                skip = True
            elif os.path.realpath(a) == os.path.realpath(target) or a.endswith("stats.c"):
                args.append(probe)
            else:
                args.append(a)
        # the layer's headers are found through -I, not beside the probe
        return subprocess.run(args, cwd=entry["directory"], capture_output=True, text=True)

    same = compile_with("util.h")
    check(same.returncode == 0, "stats.c compiles with an include of the layer below (util.h)")
    up = compile_with("run.h")
    check(up.returncode != 0 and "run.h: No such file" in up.stderr,
          "stats.c with an include of the run layer's run.h does not compile")

    tree = os.path.join(tmp, "tree")
    for d in ("abtool", "store"):
        shutil.copytree(os.path.join(src, d), os.path.join(tree, d))
    script = os.path.join(src, "scripts", "check-structure")
    clean = subprocess.run([sys.executable, script, tree], capture_output=True, text=True)
    check(clean.returncode == 0, "check-structure passes on a copy of the tree")
    copy = os.path.join(tree, "abtool", "stats", "stats.c")
    with open(copy, encoding="utf-8") as f:
        body = f.read()
    with open(copy, "w", encoding="utf-8") as f:
        f.write('#include "report.h"\n' + body)
    bad = subprocess.run([sys.executable, script, tree], capture_output=True, text=True)
    check(bad.returncode == 1 and
          "abtool/stats/stats.c:1: includes report.h of the layer abtool/report/, above "
          "abtool/stats/" in bad.stdout,
          "check-structure refuses stats.c including report.h, naming file, line and layers")
    os.makedirs(os.path.join(tree, "abtool", "misc"))
    with open(os.path.join(tree, "abtool", "misc", "stray.c"), "w") as f:
        f.write("int ab_stray;\n")
    stray = subprocess.run([sys.executable, script, tree], capture_output=True, text=True)
    check(stray.returncode == 1 and "abtool/misc/stray.c: not in a layer's folder" in stray.stdout,
          "check-structure refuses a source file outside every layer's folder")

    copy = os.path.join(tree, "abtool", "util", "error.c")
    with open(copy, "a", encoding="utf-8") as f:
        f.write('int ab_probe(void);\nint ab_probe(void)\n{\n\treturn ab_error_set(AB_EIO, '
                '"Cannot read the probe");\n}\n')
    style = subprocess.run([sys.executable, script, tree], capture_output=True, text=True)
    check(style.returncode == 1 and "abtool/util/error.c:" in style.stdout and
          "the message of ab_error_set starts with a capital" in style.stdout,
          "check-structure refuses an error message in another style than the house's")

sys.exit(1 if failures else 0)
