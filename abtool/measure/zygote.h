/* zygote.h - how the runner asks abtool-zygote for a child (see runner.h
 * on why a zygote starts the samples).
 *
 * The zygote is started with argv {"abtool-zygote", FD} and talks over the
 * stream socket FD. It writes one byte when it is ready. Each request is
 * a struct ab_zygote_header, then `len` bytes of NUL-terminated strings:
 * the working directory when AB_ZYGOTE_CWD, the CPU list when
 * AB_ZYGOTE_CPUS, the shell command when
 * AB_ZYGOTE_SHELL or else argc arguments, then envc environment entries.
 * The first byte carries, as SCM_RIGHTS, the child's stdin, stdout and
 * stderr (each only when its flag is set) and last the write end of the
 * report pipe. The zygote starts the child with clone(CLONE_VM |
 * CLONE_VFORK) and answers, once the child has exec'd or failed to, with
 * an int32_t: its pid, or -errno when clone failed. After a pid, once
 * the child has ended, it sends a struct ab_zygote_end (the clock and the
 * child's run-queue wait read before it is reaped): the zygote is the
 * child's parent and a child subreaper (PR_SET_CHILD_SUBREAPER), reaps
 * it, then kills and reaps every descendant still left (ab_child_reap_all)
 * before it answers. The runner sends nothing while a child runs.
 * It exits when the socket closes or a request is malformed; when the
 * socket closes while a child runs (abtool was killed), it first kills
 * the child's process group, the child, and every descendant. */
#ifndef AB_ZYGOTE_H
#define AB_ZYGOTE_H

#include <stdint.h>
#include <sys/resource.h>

enum {
	AB_ZYGOTE_SHELL = 1,
	AB_ZYGOTE_CWD = 2,
	AB_ZYGOTE_STDIN = 4,
	AB_ZYGOTE_STDOUT = 8,
	AB_ZYGOTE_STDERR = 16,
	AB_ZYGOTE_CPUS = 32,      /* a CPU list string follows the working directory */
	AB_ZYGOTE_NO_ASLR = 64,
	AB_ZYGOTE_NO_TTY = 128,
};

#define AB_ZYGOTE_MAX_FDS 4
#define AB_ZYGOTE_MAX_REQUEST (64u << 20)

struct ab_zygote_header {
	uint32_t len;             /* bytes of strings that follow */
	uint32_t argc, envc, flags;
};

/* How a child ended, measured by the zygote. */
struct ab_zygote_end {
	int64_t t1_ns;            /* CLOCK_MONOTONIC just after its wait4 (as ab_now_ns) */
	int32_t status;           /* wait4's status */
	int32_t leftovers;        /* descendants still running after it, killed */
	int64_t runq_ns;          /* its run-queue wait (ab_child_wait_end), or -1 */
	struct rusage ru;         /* wait4's */
};

#endif
