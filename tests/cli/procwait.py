#!/usr/bin/env python3
"""procwait.py - wait for processes to end, on the kernel's word, not a clock.

The end-to-end cases use it (lib.sh: wait_gone, assert_group_gone,
assert_pattern_gone) where a process that is not their child must be gone:
a sample's process group after abtool was interrupted, a process a sample
moved out of its group with setsid. Each process is waited for through a
pidfd (pidfd_open(2), poll(2)), which becomes readable the moment the
process exits; nothing sleeps. A process that exited and waits to be
reaped (a zombie) is gone: it runs nothing and holds nothing.

    procwait.py pids PID...      the processes PID...
    procwait.py group PGID       every process of the group, and any it starts meanwhile
    procwait.py match REGEX      every process whose command line (argv joined
                                 by spaces) matches REGEX at its start

Exit 0 when they are all gone within --timeout seconds (default 30),
else 1 naming the survivors.
"""
import os
import re
import select
import sys
import time


def alive(pid):
    """The process exists and is not a zombie."""
    try:
        with open(f'/proc/{pid}/stat', encoding='utf-8', errors='replace') as f:
            stat = f.read()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat[stat.rindex(')') + 2] != 'Z'


def members(kind, arg):
    out = []
    for d in os.listdir('/proc'):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            if kind == 'group':
                with open(f'/proc/{d}/stat', encoding='utf-8', errors='replace') as f:
                    stat = f.read()
                fields = stat[stat.rindex(')') + 2:].split()
                if fields[0] != 'Z' and int(fields[2]) == int(arg):
                    out.append(int(d))
            else:
                with open(f'/proc/{d}/cmdline', 'rb') as f:
                    cmd = f.read().rstrip(b'\0').replace(b'\0', b' ').decode('utf-8', 'replace')
                if cmd and re.match(arg, cmd) and alive(d):
                    out.append(int(d))
        except (FileNotFoundError, ProcessLookupError, ValueError, IndexError):
            continue
    return out


def wait_pid(pid, deadline):
    """True once pid has ended (or never existed), False at the deadline."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        while alive(pid):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            poller.poll(left * 1000)
        return True
    finally:
        os.close(fd)


def main(argv):
    timeout = 30.0
    if len(argv) > 2 and argv[1] == '--timeout':
        timeout = float(argv[2])
        argv = argv[:1] + argv[3:]
    if len(argv) < 3 or argv[1] not in ('pids', 'group', 'match'):
        print(__doc__, file=sys.stderr)
        return 64
    kind, args = argv[1], argv[2:]
    deadline = time.monotonic() + timeout
    while True:
        pids = [int(p) for p in args] if kind == 'pids' else members(kind, args[0])
        pids = [p for p in pids if alive(p)]
        if not pids:
            return 0
        for p in pids:
            if not wait_pid(p, deadline):
                survivors = [q for q in pids if alive(q)]
                for q in survivors:
                    try:
                        with open(f'/proc/{q}/cmdline', 'rb') as f:
                            cmd = f.read().replace(b'\0', b' ').decode('utf-8', 'replace')
                    except OSError:
                        cmd = '?'
                    print(f'procwait: {q} survived {timeout:g} s: {cmd}', file=sys.stderr)
                return 1
        if kind == 'pids':
            return 0
        # a group or a pattern: look again for members started meanwhile


if __name__ == '__main__':
    sys.exit(main(sys.argv))
