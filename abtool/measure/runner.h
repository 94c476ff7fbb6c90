/* runner.h - one fresh process per sample, started by the zygote (or a
 * fork) in its own process group, stdout/stderr captured with a size cap,
 * killed as a group on timeout, measured with CLOCK_MONOTONIC around the
 * start…wait4 and with wait4's rusage (docs/measurement.md;
 * docs/architecture.md, "Processes"). This module is the hot path: between
 * the clock readings it only starts the child, polls pipes and waits.
 * Defined in runner.c, with its sections runner_env.c (the environment),
 * runner_output.c (the pipes and the capture) and runner_zygote.c. */
#ifndef AB_RUNNER_H
#define AB_RUNNER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "child.h"          /* enum ab_runner_start_step */
#include "runner_output.h"  /* struct ab_output */

/* What to run. Fill it, then call ab_runner_run. Borrowed pointers. */
struct ab_runner_spec {
	const char *shell;        /* run `/bin/sh -c shell`, or NULL */
	char *const *argv;        /* else exec argv[0] with argv, no word
	                             splitting; a name without '/' is searched
	                             in the child's PATH (after env_extra) */
	const char *cwd;          /* working directory of the child, or NULL
	                             to inherit; a failing chdir is reported
	                             like a failing exec (exec_errno) */
	char *const *env_extra;   /* NULL-terminated; "NAME=value" sets or
	                             overrides NAME, a bare "NAME" removes it
	                             (as git's child_process.env); later
	                             entries win. NULL: the parent's environment */
	int64_t timeout_ms;       /* 0: none */
	size_t output_cap;        /* head bytes kept per stream; 0: 1 MiB */
	int hash_stdout;          /* 1: compute stdout's SHA-256 */
	int stdin_null;           /* 1: stdin from /dev/null, and no controlling
	                             terminal: opening /dev/tty fails (ENXIO)
	                             instead of stopping the child (always for
	                             samples and builds); 0: inherited; the child
	                             is in a background process group, so reading
	                             a terminal stops it */
	const char *log_path;     /* when set, stdout and stderr both go to this
	                             file (created, appended) instead of being
	                             captured: out and err stay empty, no hash */
	const char *cpus;         /* CPU list like "0-3,6": the child's affinity, or NULL */
	int no_aslr;              /* 1: the child runs without address-space randomization */
	int fork_child;           /* 1: start the child from abtool itself, not the zygote,
	                             so that counters abtool opened with inherit follow it */
};

/* How it went. */
struct ab_runner_result {
	int64_t wall_ns;          /* CLOCK_MONOTONIC from just before the start to just after
	                             wait4 of the child (by the zygote, or by the runner) */
	int64_t start_ns;         /* the first clock reading (ab_now_ns), 0 when never started */
	int64_t user_ns, sys_ns;  /* ru_utime, ru_stime of the child (and its waited-for children) */
	int64_t maxrss_bytes;     /* ru_maxrss * 1024 */
	int64_t minflt, majflt;   /* page faults */
	int64_t nvcsw, nivcsw;    /* voluntary / involuntary context switches */
	int exited;               /* 1: exited normally with exit_code */
	int exit_code;
	int signal;               /* the signal that killed it, or 0 */
	int timed_out;            /* 1: killed by abtool after timeout_ms */
	int64_t runq_ns;          /* how long the child waited on a CPU's run queue while it
	                             was runnable (another task had the CPU), from
	                             /proc/PID/schedstat as it ended; the process itself, not
	                             its children; -1 when the kernel does not keep it */
	int leftovers;            /* processes the child started that were still running
	                             when it ended (in its process group or not): all
	                             killed then, after wall_ns was measured */
	int exec_errno;           /* the exec failed with this errno (child exits 127) */
	int start_step;           /* enum ab_runner_start_step, when exec_errno != 0 */
	struct ab_output out, err;
};

/*
 * Run the spec to completion. Returns
 *   0                the process was started and waited for, whatever its
 *                    exit status (see `result`; a failed exec or chdir is
 *                    a start that exited 127 with exec_errno set);
 *   AB_EINVALID      neither shell nor argv[0] given (message set);
 *   AB_EIO           it could not be started (pipe, log file, fork), or
 *                    the child was lost because SIGCHLD is ignored
 *                    (message set);
 *   AB_EINTERRUPTED  ab_runner_interrupt() was called before the start or
 *                    before the child was reaped: the group got SIGTERM,
 *                    then SIGKILL after 100 ms, and was waited for; the
 *                    result describes the killed process (message set).
 * `result` is initialised here whatever the outcome, with out.data and
 * err.data allocated; release it with ab_runner_result_release.
 *
 * The child runs in a new process group with every signal disposition
 * at its default and an empty signal mask, whatever abtool changed; it
 * inherits the parent's environment (at the time of the call) plus
 * env_extra, and abtool's stdin, stdout and stderr where the spec does
 * not redirect them.
 *
 * The child is started by a zygote: abtool-zygote, a small static
 * program (abtool/measure/zygote.c) whose bytes are linked into abtool and which
 * the first call starts from memory (memfd). It starts each child with
 * clone(CLONE_VM | CLONE_VFORK), reaps it and reports its end, status and
 * rusage (zygote.h). That keeps the start as cheap as posix_spawn's (no copy
 * of abtool's page tables, no copy-on-write faults in abtool while the
 * child runs) and maxrss_bytes the child's own: the kernel folds the peak
 * RSS of the address space a process execs from into its ru_maxrss
 * (fs/exec.c exec_mmap), so a fork of abtool, or a vfork or posix_spawn
 * from it, gives every child at least abtool's RSS (3 MB and 11 MB for
 * /bin/true, which needs 1 MB). Where the zygote cannot start (memfd
 * exec refused) and with fork_child, the runner forks itself. The zygote
 * has its own process group and ends when the caller closes its socket
 * (exits). Output is read until the child exits and the pipes are
 * drained of what is available: a grandchild that keeps a pipe open does
 * not delay the end. On timeout the whole group gets SIGKILL. When the
 * child has ended, every process it left behind is killed and reaped,
 * also those that left its process group or session (setsid): the
 * zygote, or the caller when it forks, is a child subreaper
 * (PR_SET_CHILD_SUBREAPER), so such orphans come back to it rather than
 * to init (`leftovers` counts them). Killed with SIGKILL, abtool cannot
 * clean up: the zygote then ends the child and all its descendants; a
 * child abtool forked itself gets SIGKILL from the kernel
 * (PR_SET_PDEATHSIG), but what it started and left outside its group
 * may survive. Processes handed to a daemon outside the child's tree
 * (systemd-run, at) are not found.
 *
 * The end of a child the runner forked is observed through a pidfd (Linux
 * >= 5.3), of the zygote's through its report. Where pidfd_open is
 * unavailable, the runner checks with wait4(WNOHANG) every
 * 50 ms while the pipes are open and, once they are closed, after waits
 * growing from 50 µs to 50 ms; wall_ns can then exceed the exit by up to
 * about the time elapsed since the pipes closed (at most 50 ms).
 * The caller must not set SIGCHLD to SIG_IGN (the child would be reaped
 * by the kernel and its status lost), nor start child processes of its
 * own while it forks children: once it has, its children other than the
 * zygote are taken for leftovers. Not for concurrent use from several
 * threads.
 */
int ab_runner_run(struct ab_runner_result *result, const struct ab_runner_spec *spec);

/* Free out.data and err.data; the struct can be reused. NULL-safe. */
void ab_runner_result_release(struct ab_runner_result *result);

/*
 * Async-signal-safe (callable from a SIGINT handler or another thread):
 * ask the running ab_runner_run (if any) to kill its process group and
 * return AB_EINTERRUPTED; later calls of ab_runner_run return it at once,
 * without starting anything. The first `sig` (> 0; 0 counts as SIGINT) is
 * remembered for ab_runner_interrupted(). The running call notices at
 * once through a self-pipe it watches. errno is preserved.
 */
void ab_runner_interrupt(int sig);

/* The signal passed to ab_runner_interrupt, or 0. */
int ab_runner_interrupted(void);

/* A one-line description of how the process ended: "exit 1",
 * "killed by SIGSEGV", "timed out after 60 s" (or "after 200 ms",
 * "after 1.5 s"), "could not start: No such file or directory",
 * "could not enter the working directory: Permission denied". Writes into
 * buf (truncating to size) and returns it. */
const char *ab_runner_describe(char *buf, size_t size, const struct ab_runner_result *r,
			       int64_t timeout_ms);

/*
 * abtool's own credentials, kept from every child (docs/security.md,
 * "Credentials"): the children's environment is abtool's without
 * ABTOOL_STORE, always, and without each variable hidden here (the PG*
 * variables the store's libpq read; env_extra may still set one).
 * ab_runner_hide_env adds `name` to the hidden set, ab_runner_keep_env
 * takes it out again (the experiment's env.keep); both copy the name and
 * hold for the process's life. Not for concurrent use with ab_runner_run.
 */
void ab_runner_hide_env(const char *name);
void ab_runner_keep_env(const char *name);

/* The environment of a child (a new array of borrowed strings: free the
 * array only): environ without ABTOOL_STORE and the hidden names, with
 * `extra` (ab_runner_spec.env_extra, may be NULL) applied. */
char **ab_runner_child_env(char *const *extra);

/* For tests: 0 makes the runner ignore pidfds and use its fallback (see
 * ab_runner_run); 1 (the default) uses them where the kernel has them. */
void ab_runner_use_pidfd(int enable);

/* For tests: 0 makes the runner fork abtool for each child instead of
 * asking its zygote (see ab_runner_run); 1 (the default) uses the zygote
 * where it could be started. */
void ab_runner_use_zygote(int enable);

#endif
