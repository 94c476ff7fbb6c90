#!/usr/bin/env python3
"""gha_fake.py - run the abtool action's shell steps as a GitHub runner
would, without GitHub: the step of job JOB in WORKFLOW that uses the abtool
action gives the inputs (its with:, expressions substituted from --set
NAME=VALUE: matrix.shard, github.run_id, ...), and each step of the
action.yml in ACTION_DIR runs in order: a run: step with bash, its env:
substituted, with a fresh GITHUB_OUTPUT file whose lines become
steps.ID.outputs, GITHUB_PATH entries put in front of PATH for the steps
after it, and GITHUB_ACTION_PATH set; a uses: step (actions/cache,
actions/upload-artifact) is reported and skipped, as they need the network.
GITHUB_STEP_SUMMARY and RUNNER_TEMP come from the environment; GITHUB_JOB is
JOB, as the runner sets it. A failed step skips the rest but the if:
always() ones, as on GitHub. --only ID runs the action's step ID alone.
Exits with the first failed step's exit code; --outputs FILE receives the
steps' outputs as JSON.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def evaluate(text, ctx):
    """Substitute every ${{ path }} of text from ctx (dotted paths only)."""
    def one(m):
        expr = m.group(1)
        if not re.fullmatch(r"[A-Za-z_][\w.-]*", expr):
            raise SystemExit(f"gha_fake: unsupported expression in a run step: {expr}")
        cur = ctx
        for part in expr.split("."):
            if not isinstance(cur, dict) or part not in cur:
                raise SystemExit(f"gha_fake: unknown value: {expr}")
            cur = cur[part]
        return str(cur)
    return EXPR.sub(one, text) if isinstance(text, str) else str(text)


def main():
    args = sys.argv[1:]
    sets, outputs_file, only = {}, None, None
    while args and args[0].startswith("--"):
        if args[0] == "--set":
            name, _, value = args[1].partition("=")
            sets[name] = value
            args = args[2:]
        elif args[0] == "--only":
            only = args[1]
            args = args[2:]
        elif args[0] == "--outputs":
            outputs_file = args[1]
            args = args[2:]
        else:
            raise SystemExit(f"gha_fake: unknown option {args[0]}")
    action_dir, workflow, job = args
    wf = yaml.safe_load(open(workflow))
    ctx = {"github": {}, "matrix": {}, "runner": {"temp": os.environ["RUNNER_TEMP"]}, "env": dict(os.environ)}
    for name, value in sets.items():
        scope, _, key = name.partition(".")
        ctx.setdefault(scope, {})[key] = value
    step = [s for s in wf["jobs"][job]["steps"]
            if "uses" in s and not s["uses"].startswith("actions/")][0]
    action = yaml.safe_load(open(os.path.join(action_dir, "action.yml")))
    inputs = {k: str(v.get("default", "")) for k, v in action.get("inputs", {}).items()}
    for k, v in (step.get("with") or {}).items():
        if k not in inputs:
            raise SystemExit(f"gha_fake: the workflow gives input '{k}', which action.yml does not declare")
        inputs[k] = evaluate(v, ctx)
    ctx["inputs"] = inputs
    ctx["steps"] = {}
    path_file = tempfile.mktemp(prefix="github_path.", dir=os.environ["RUNNER_TEMP"])
    open(path_file, "w").close()
    failed = 0
    for s in action["runs"]["steps"]:
        if only is not None and s.get("id") != only:
            continue
        cond = s.get("if", "")
        if failed and "always()" not in cond:
            print(f"gha_fake: skipped after a failure: {s.get('name', s.get('uses'))}", file=sys.stderr)
            continue
        if "uses" in s:
            print(f"gha_fake: skipped (needs the network): {s['uses']}", file=sys.stderr)
            continue
        out_file = tempfile.mktemp(prefix="github_output.", dir=os.environ["RUNNER_TEMP"])
        open(out_file, "w").close()
        env = dict(os.environ)
        extra = [p for p in open(path_file).read().splitlines() if p]
        env["PATH"] = os.pathsep.join(list(reversed(extra)) + [env["PATH"]])
        env.update({"GITHUB_ACTION_PATH": action_dir, "GITHUB_OUTPUT": out_file, "GITHUB_PATH": path_file,
                    "GITHUB_JOB": job})
        for k, v in (s.get("env") or {}).items():
            env[k] = evaluate(v, ctx)
        assert s.get("shell") == "bash", s
        rc = subprocess.call(["bash", "-e", "-c", evaluate(s["run"], ctx)], env=env)
        outs = {}
        for line in open(out_file).read().splitlines():
            if "=" in line:
                k, _, v = line.partition("=")
                outs[k] = v
        if "id" in s:
            ctx["steps"][s["id"]] = {"outputs": outs, "outcome": "success" if rc == 0 else "failure"}
        if rc != 0 and not failed:
            failed = rc
    if outputs_file:
        json.dump({k: v["outputs"] for k, v in ctx["steps"].items()}, open(outputs_file, "w"))
    sys.exit(failed)


main()
