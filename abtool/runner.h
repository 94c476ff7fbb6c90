/* runner.h - one fresh process per sample: fork/exec in its own process
 * group, stdout/stderr captured with a size cap, killed as a group on
 * timeout, measured with CLOCK_MONOTONIC around fork…wait4 and with
 * wait4's rusage (DESIGN.md "Measurement"). This module is the hot path:
 * between the clock readings it only forks, polls pipes and waits. */
#ifndef AB_RUNNER_H
#define AB_RUNNER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Captured output of one stream: the first `cap` bytes plus the last
 * AB_RUNNER_TAIL bytes when the stream was longer (`truncated` set). The
 * SHA-256 always covers the whole stream. */
#define AB_RUNNER_TAIL 65536

struct ab_output {
	char *data;          /* new memory, NUL-terminated; head then tail */
	size_t len;          /* bytes in data */
	uint64_t total;      /* bytes the process wrote to the stream */
	int truncated;       /* 1 when total > len */
	char sha256[65];     /* of the whole stream, hex; "" unless requested */
};

/* What to run. Fill it, then call ab_runner_run. Borrowed pointers. */
struct ab_runner_spec {
	const char *shell;        /* run `/bin/sh -c shell`, or NULL */
	char *const *argv;        /* else exec argv[0] (PATH search) with argv */
	const char *cwd;          /* working directory of the child */
	char *const *env_extra;   /* "NAME=value" added to the environment, or NULL */
	int64_t timeout_ms;       /* 0: none */
	size_t output_cap;        /* head bytes kept per stream; 0: 1 MiB */
	int hash_stdout;          /* 1: compute stdout's SHA-256 */
	int stdin_null;           /* 1: stdin from /dev/null (always for samples) */
	const char *log_path;     /* when set, stdout and stderr both go to this
	                             file (appended) instead of being captured */
};

/* How it went. */
struct ab_runner_result {
	int64_t wall_ns;          /* CLOCK_MONOTONIC from just before fork to just after wait4 */
	int64_t user_ns, sys_ns;  /* ru_utime, ru_stime of the child (and its waited-for children) */
	int64_t maxrss_bytes;     /* ru_maxrss * 1024 */
	int64_t minflt, majflt;   /* page faults */
	int64_t nvcsw, nivcsw;    /* voluntary / involuntary context switches */
	int exited;               /* 1: exited normally with exit_code */
	int exit_code;
	int signal;               /* the signal that killed it, or 0 */
	int timed_out;            /* 1: killed by abtool after timeout_ms */
	int exec_errno;           /* the exec failed with this errno (child exits 127) */
	struct ab_output out, err;
};

/*
 * Run the spec to completion. Returns 0 when the process was started and
 * waited for (whatever its exit status; see `result`), AB_EIO when it could
 * not be started (fork/pipe failure; message set), AB_EINTERRUPTED when
 * ab_runner_interrupt() was called while it ran (the group is killed and
 * waited for first). `result` is initialised here; release it with
 * ab_runner_result_release.
 */
int ab_runner_run(struct ab_runner_result *result, const struct ab_runner_spec *spec);

void ab_runner_result_release(struct ab_runner_result *result);

/*
 * Async-signal-safe: ask the running ab_runner_run (if any) to kill its
 * process group and return AB_EINTERRUPTED; later calls return it at once.
 * `sig` is remembered for ab_runner_interrupted().
 */
void ab_runner_interrupt(int sig);

/* The signal passed to ab_runner_interrupt, or 0. */
int ab_runner_interrupted(void);

/* A one-line description of how the process ended, e.g. "exit 1",
 * "killed by SIGSEGV", "timed out after 60 s", "exec failed: No such file
 * or directory". Writes into buf and returns it. */
const char *ab_runner_describe(char *buf, size_t size, const struct ab_runner_result *r,
			       int64_t timeout_ms);

#endif
