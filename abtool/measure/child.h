/* child.h - the start of a child process between fork and exec: process
 * group, signals, stdin/stdout/stderr, working directory, exec with the
 * child's own PATH. Shared by the runner (when it forks abtool itself)
 * and by abtool-zygote, the small static program that forks the
 * runner's children (see runner.h and zygote.h); so it uses only libc,
 * and only async-signal-safe calls. */
#ifndef AB_CHILD_H
#define AB_CHILD_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <signal.h>
#include <sys/types.h>

/* execvp's search path when the child's environment has no PATH (glibc
 * confstr(_CS_PATH)). */
#define AB_CHILD_DEFAULT_PATH "/bin:/usr/bin"

/* Where starting the process failed, when exec_errno is set. */
enum ab_runner_start_step {
	AB_RUNNER_START_EXEC = 0, /* execvp(argv[0]) or /bin/sh itself */
	AB_RUNNER_START_CWD,      /* chdir(cwd) */
	AB_RUNNER_START_IO,       /* redirecting stdin, stdout or stderr */
	AB_RUNNER_START_SETUP,    /* CPU affinity, personality (ASLR) or the parent-death signal */
};

/* What the child writes to report_fd before _exit(127) when it cannot
 * start; step is an enum ab_runner_start_step. */
struct ab_child_report {
	int step;
	int err;
};

/* Everything the child needs, prepared before the fork (borrowed). */
struct ab_child_setup {
	const char *shell;        /* run /bin/sh -c shell, or else argv */
	char *const *argv;
	const char *cwd;          /* or NULL */
	char *const *envp;        /* the child's whole environment */
	const char *path;         /* its PATH (ab_child_env_path(envp)) */
	char **sh_argv;           /* argc + 2 writable slots: a file without #!
	                             runs as /bin/sh FILE ARGS... (as execvp) */
	sigset_t reset;           /* dispositions to set to SIG_DFL */
	int stdin_fd, out_fd, err_fd; /* dup2'ed onto 0, 1, 2; -1: inherit */
	int report_fd;            /* close-on-exec write end of the report pipe */
	const char *cpus;         /* CPU list for sched_setaffinity, or NULL */
	int no_aslr;              /* 1: personality ADDR_NO_RANDOMIZE */
	int no_tty;               /* 1: give up the controlling terminal (TIOCNOTTY) */
	pid_t parent_pid;         /* the runner's process, or 0: the child gets SIGKILL when it
	                             dies (PR_SET_PDEATHSIG), even of SIGKILL */
};

/* Read exactly `n` bytes from `fd` into `buf`, retrying on EINTR: 0, or
 * -1 on end of file or an error (errno). Shared by the runner and the
 * zygote, which read each other's fixed-size messages. */
int ab_read_all(int fd, void *buf, size_t n);

/* In the child, right after fork: its own process group, the `reset`
 * dispositions back to SIG_DFL, an empty signal mask, the descriptors,
 * chdir, exec. On failure writes an ab_child_report and _exit(127). */
void ab_child_run(const struct ab_child_setup *cs) __attribute__((noreturn));

/*
 * Kill (SIGKILL) and reap every child of the calling process except
 * `keep` (0: none), again until none is left. In a child subreaper
 * (PR_SET_CHILD_SUBREAPER) every orphaned descendant of its children
 * comes back to it, so this ends all of them, whatever process group or
 * session they moved to. Returns how many were still running (zombies,
 * which are only reaped, do not count). The children are listed from
 * /proc/self/task/TID/children (Linux >= 3.5 with CONFIG_PROC_CHILDREN),
 * else by a scan of /proc; with keep == 0 a process with no child at all
 * returns after one waitpid(2). libc only; not async-signal-safe.
 */
int ab_child_reap_all(pid_t keep);

/*
 * Wait for child `pid` to end (with `nohang`, only look), then read the
 * clock and the child's run-queue wait before reaping it, so that both
 * describe the child as it ended: waitid(WNOWAIT) first, then
 * CLOCK_MONOTONIC into *t1_ns, then the second field of
 * /proc/PID/schedstat (the nanoseconds the process waited on a CPU's run
 * queue while runnable: time another task had the CPU; Linux's
 * CONFIG_SCHED_INFO, Documentation/scheduler/sched-stats.rst) into
 * *runq_ns, or -1 when the kernel does not keep it; then wait4 with its
 * status and rusage. Only the process itself is counted, not its other
 * threads or its children: when the process was on a CPU for less than
 * half the CPU time of its rusage (a shell wrapper, a program whose
 * threads or children do the work), its own wait does not stand for the
 * sample and *runq_ns is -1 too (the caller then falls back to the
 * host's CPU accounting). Returns 1 when reaped, 0 with
 * `nohang` when it is still running, -1 with errno on failure (ECHILD).
 * Retries on EINTR. libc only.
 */
int ab_child_wait_end(pid_t pid, int nohang, int *status, struct rusage *ru, int64_t *t1_ns,
		      int64_t *runq_ns);

/* The value of PATH in env (NULL-terminated), or AB_CHILD_DEFAULT_PATH.
 * Borrowed. */
const char *ab_child_env_path(char *const *env);

#endif
