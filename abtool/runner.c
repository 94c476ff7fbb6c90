/* runner.c - one fresh process per sample (see runner.h).
 *
 * Everything that can be prepared is prepared before the first clock
 * reading: pipes, /dev/null, the log file, the environment array, the
 * PATH, the set of signals to reset, the first piece of the output
 * buffers. Between the readings the parent starts the child, polls and
 * reads the pipes, and reaps it.
 *
 * The child is started as posix_spawn does it: clone(CLONE_VM |
 * CLONE_VFORK) on a stack of its own. It shares the parent's memory
 * until it execs, so no page tables are copied and the parent takes no
 * copy-on-write faults while the sample runs (a fork of abtool cost
 * about 60 such faults per sample); the parent is suspended until the
 * child has exec'd or died, so a failing chdir or exec is reported
 * through shared memory instead of git's child_die() pipe. The child uses
 * async-signal-safe calls only, never returns into the parent's frames
 * and never writes the parent's memory except its start report. */
#include "runner.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_CAP (1024 * 1024)
#define HEAD_FIRST 16384          /* head bytes allocated before the start */
#define READ_CHUNK 65536          /* one read; the default pipe size */
#define TERM_GRACE_NS 100000000LL /* SIGTERM → SIGKILL on interrupt */
#define DRAIN_READS 256           /* reads per pipe once the child is gone */
#define POLL_OPEN_NS 50000000LL   /* no pidfd: check the child this often */
#define BACKOFF_MIN_NS 50000LL    /* no pidfd, pipes closed: first wait */
#define BACKOFF_MAX_NS 50000000LL
#define CHILD_STACK 65536          /* the cloned child's stack, bytes */
#define DEFAULT_PATH "/bin:/usr/bin" /* execvp's when PATH is unset (glibc _CS_PATH) */

/* The handler side only loads and stores these, so they must not need a
 * lock; C11 atomics also order the flag against the self-pipe's fd,
 * which volatile sig_atomic_t does not do across threads. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic_int must be lock-free");
static atomic_int interrupt_sig;
static atomic_int wake_rfd = -1, wake_wfd = -1;
static pthread_mutex_t wake_lock = PTHREAD_MUTEX_INITIALIZER;
static int pidfd_enabled = 1;

extern char **environ;

void ab_runner_interrupt(int sig)
{
	int saved = errno, expected = 0, fd;
	char byte = 0;

	atomic_compare_exchange_strong(&interrupt_sig, &expected, sig > 0 ? sig : SIGINT);
	fd = atomic_load(&wake_wfd);
	if (fd >= 0 && write(fd, &byte, 1) < 0) {
		/* full pipe: a wake-up is pending anyway */
	}
	errno = saved;
}

int ab_runner_interrupted(void)
{
	return atomic_load(&interrupt_sig);
}

void ab_runner_use_pidfd(int enable)
{
	pidfd_enabled = enable;
}

/* Keep our descriptors off 0, 1 and 2, which the child overwrites with
 * dup2 (and dup2(fd, fd) would leave close-on-exec set). */
static int above_stdio(int fd)
{
	int moved;

	if (fd < 0 || fd > 2)
		return fd;
	moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return moved;
}

static int make_pipe(int p[2], int nonblock_read)
{
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	p[0] = above_stdio(p[0]);
	p[1] = above_stdio(p[1]);
	if (p[0] < 0 || p[1] < 0 ||
	    (nonblock_read && fcntl(p[0], F_SETFL, O_NONBLOCK) < 0)) {
		int saved = errno;

		if (p[0] >= 0)
			close(p[0]);
		if (p[1] >= 0)
			close(p[1]);
		errno = saved;
		return -1;
	}
	return 0;
}

/* The self-pipe is created by the first run, not by ab_runner_interrupt,
 * which may run in a signal handler. The write end is published before
 * the read end, and ab_runner_run checks the flag after both: either it
 * sees the flag, or the interrupt sees the write end and wakes the poll. */
static int open_wake_pipe(void)
{
	int p[2], error = 0;

	if (atomic_load(&wake_rfd) >= 0)
		return 0;
	pthread_mutex_lock(&wake_lock);
	if (atomic_load(&wake_rfd) < 0) {
		if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0) {
			error = ab_error_set(AB_EIO, "cannot create a pipe: %s", strerror(errno));
			goto out_unlock;
		}
		p[0] = above_stdio(p[0]);
		p[1] = above_stdio(p[1]);
		if (p[0] < 0 || p[1] < 0) {
			error = ab_error_set(AB_EIO, "cannot create a pipe: %s", strerror(errno));
			if (p[0] >= 0)
				close(p[0]);
			if (p[1] >= 0)
				close(p[1]);
			goto out_unlock;
		}
		atomic_store(&wake_wfd, p[1]);
		atomic_store(&wake_rfd, p[0]);
	}
out_unlock:
	pthread_mutex_unlock(&wake_lock);
	return error;
}

static void drain_wake_pipe(void)
{
	char buf[64];
	int fd = atomic_load(&wake_rfd);

	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

static const char *signal_name(char *buf, size_t size, int sig)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, size, "SIG%s", abbrev);
	else
		snprintf(buf, size, "signal %d", sig);
#else
	snprintf(buf, size, "signal %d (%s)", sig, strsignal(sig));
#endif
	return buf;
}

static int interrupted_error(void)
{
	char name[32];

	return ab_error_set(AB_EINTERRUPTED, "interrupted by %s",
			    signal_name(name, sizeof(name), ab_runner_interrupted()));
}

/* One captured stream: the head grows up to cap, the rest goes through a
 * ring of AB_RUNNER_TAIL bytes allocated when the head is full. */
struct capture {
	int fd;                   /* read end, non-blocking; -1 once closed */
	char *head;
	size_t head_len, head_alloc, cap;
	char *ring;
	size_t ring_start, ring_len;
	uint64_t total;
	struct ab_sha256 *sha;    /* NULL unless hashing */
};

static void capture_init(struct capture *c, int fd, size_t cap, int hash)
{
	c->fd = fd;
	c->cap = cap;
	c->head_alloc = cap < HEAD_FIRST ? cap : HEAD_FIRST;
	c->head = ab_xmalloc(c->head_alloc + 1);
	c->sha = hash ? ab_sha256_new() : NULL;
}

static void ring_push(struct capture *c, const char *data, size_t n)
{
	size_t at, first;

	if (!c->ring)
		c->ring = ab_xmalloc(AB_RUNNER_TAIL);
	if (n >= AB_RUNNER_TAIL) {
		memcpy(c->ring, data + n - AB_RUNNER_TAIL, AB_RUNNER_TAIL);
		c->ring_start = 0;
		c->ring_len = AB_RUNNER_TAIL;
		return;
	}
	at = (c->ring_start + c->ring_len) % AB_RUNNER_TAIL;
	first = AB_RUNNER_TAIL - at < n ? AB_RUNNER_TAIL - at : n;
	memcpy(c->ring + at, data, first);
	memcpy(c->ring, data + first, n - first);
	c->ring_len += n;
	if (c->ring_len > AB_RUNNER_TAIL) {
		c->ring_start = (c->ring_start + c->ring_len - AB_RUNNER_TAIL) % AB_RUNNER_TAIL;
		c->ring_len = AB_RUNNER_TAIL;
	}
}

/* One read: straight into the head while it has room, else through
 * `scratch` into the ring. Returns read(2)'s result; closes on EOF and on
 * errors other than EAGAIN and EINTR. */
static ssize_t capture_read(struct capture *c, char *scratch)
{
	char *dst = scratch;
	size_t room = READ_CHUNK;
	ssize_t n;

	if (c->head_len < c->cap) {
		if (c->head_len == c->head_alloc) {
			c->head_alloc = c->head_alloc * 2 < c->cap ? c->head_alloc * 2 : c->cap;
			c->head = ab_xrealloc(c->head, c->head_alloc + 1);
		}
		dst = c->head + c->head_len;
		room = c->head_alloc - c->head_len;
	}
	n = read(c->fd, dst, room);
	if (n > 0) {
		c->total += n;
		if (c->sha)
			ab_sha256_update(c->sha, dst, n);
		if (dst == scratch)
			ring_push(c, scratch, n);
		else
			c->head_len += n;
	} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
		close(c->fd);
		c->fd = -1;
	}
	return n;
}

/* Read what is available now, without waiting for EOF (a grandchild may
 * hold the pipe open); bounded in case a writer outside the group keeps
 * it busy. */
static void capture_drain(struct capture *c, char *scratch)
{
	int i;

	for (i = 0; c->fd >= 0 && i < DRAIN_READS; i++) {
		ssize_t n = capture_read(c, scratch);

		if (n < 0 && errno != EINTR)
			break;
	}
	if (c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
	}
}

/* Hand the stream over to `out`: head then tail, NUL-terminated. */
static void capture_finish(struct capture *c, struct ab_output *out)
{
	size_t len = c->head_len + c->ring_len, first;

	if (c->fd >= 0)
		close(c->fd);
	if (!c->head)
		c->head = ab_xmalloc(1);
	else if (c->ring_len)
		c->head = ab_xrealloc(c->head, len + 1);
	if (c->ring_len) {
		first = AB_RUNNER_TAIL - c->ring_start < c->ring_len ?
			AB_RUNNER_TAIL - c->ring_start : c->ring_len;
		memcpy(c->head + c->head_len, c->ring + c->ring_start, first);
		memcpy(c->head + c->head_len + first, c->ring, c->ring_len - first);
	}
	c->head[len] = '\0';
	out->data = c->head;
	out->len = len;
	out->head_len = c->head_len;
	out->total = c->total;
	out->truncated = c->total > len;
	out->sha256[0] = '\0';
	if (c->sha)
		ab_sha256_final(c->sha, out->sha256);
	free(c->ring);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

/* What the child reports before _exit(127) when it cannot exec. */
struct start_report {
	int step;
	int err;
};

/* Everything the child needs, computed before it starts. The child
 * writes only `report` (and the script slots of `sh_argv`). */
struct child_setup {
	const struct ab_runner_spec *spec;
	char **envp;
	const char *path;         /* the child's PATH, for a name without '/' */
	char **sh_argv;           /* argc + 2 slots for an ENOEXEC file */
	sigset_t reset;           /* dispositions the child sets to SIG_DFL */
	int stdin_fd, out_fd, err_fd; /* -1: inherit */
	volatile struct start_report report;
};

static void __attribute__((noreturn)) child_die(struct child_setup *cs, int step)
{
	cs->report.step = step;
	cs->report.err = errno;
	_exit(127);
}

/* execve `file`, and like execvp run a file without a #! line, which
 * execve refuses with ENOEXEC, with /bin/sh. Returns on failure. */
static void exec_file(struct child_setup *cs, const char *file)
{
	char *const *argv = cs->spec->argv;
	size_t i;

	execve(file, argv, cs->envp);
	if (errno != ENOEXEC)
		return;
	cs->sh_argv[0] = "/bin/sh";
	cs->sh_argv[1] = (char *)file;
	for (i = 1; argv[i]; i++)
		cs->sh_argv[i + 1] = argv[i];
	cs->sh_argv[i + 1] = NULL;
	execve("/bin/sh", cs->sh_argv, cs->envp);
	errno = ENOEXEC;
}

/* execvp with the child's PATH (glibc's __execvpe: an empty element is
 * the current directory; EACCES is kept while later elements are tried;
 * errors other than "not there" end the search). */
static void exec_search(struct child_setup *cs)
{
	const char *file = cs->spec->argv[0], *p = cs->path, *colon;
	size_t flen = strlen(file), dlen;
	char buf[PATH_MAX];
	int eacces = 0;

	if (!*file) {
		errno = ENOENT;
		return;
	}
	if (strchr(file, '/')) {
		exec_file(cs, file);
		return;
	}
	if (flen >= NAME_MAX + 1) {
		errno = ENAMETOOLONG;
		return;
	}
	for (;; p = colon + 1) {
		colon = strchr(p, ':');
		if (!colon)
			colon = p + strlen(p);
		dlen = (size_t)(colon - p);
		if (dlen + 1 + flen < sizeof(buf)) {
			memcpy(buf, p, dlen);
			buf[dlen] = '/';
			memcpy(buf + dlen + 1, file, flen + 1);
			exec_file(cs, dlen ? buf : file);
			switch (errno) {
			case EACCES:
				eacces = 1;
				break;
			case ENOENT:
			case ESTALE:
			case ENOTDIR:
			case ENODEV:
			case ETIMEDOUT:
			case ENAMETOOLONG:
				break;
			default:
				return;
			}
		}
		if (!*colon)
			break;
	}
	errno = eacces ? EACCES : ENOENT;
}

/* The cloned child: async-signal-safe calls only, on its own stack. Every
 * signal is blocked when it starts (see ab_runner_run), so none of the
 * parent's handlers can run here before the dispositions are reset. */
static int run_child(void *arg)
{
	struct child_setup *cs = arg;
	struct sigaction dfl;
	sigset_t none;
	int sig;

	setpgid(0, 0);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		if (sigismember(&cs->reset, sig) == 1)
			sigaction(sig, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	if ((cs->stdin_fd >= 0 && dup2(cs->stdin_fd, 0) < 0) ||
	    (cs->out_fd >= 0 && dup2(cs->out_fd, 1) < 0) ||
	    (cs->err_fd >= 0 && dup2(cs->err_fd, 2) < 0))
		child_die(cs, AB_RUNNER_START_IO);
	if (cs->spec->cwd && chdir(cs->spec->cwd) < 0)
		child_die(cs, AB_RUNNER_START_CWD);

	if (cs->spec->shell) {
		char *const sh[] = { "sh", "-c", (char *)cs->spec->shell, NULL };

		execve("/bin/sh", sh, cs->envp);
	} else {
		exec_search(cs);
	}
	child_die(cs, AB_RUNNER_START_EXEC);
	return 127;
}

/* Signals whose disposition is not SIG_DFL now: ignored ones would
 * survive exec, handled ones must not run in the child before it. */
static void changed_signals(sigset_t *set)
{
	struct sigaction sa;
	int sig;

	sigemptyset(set);
	for (sig = 1; sig < NSIG; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL)
			sigaddset(set, sig);
	}
}

static size_t name_len(const char *entry)
{
	const char *eq = strchr(entry, '=');

	return eq ? (size_t)(eq - entry) : strlen(entry);
}

/* Does any of extra[from…] set or remove the variable of `entry`? */
static int overridden(const char *entry, char *const *extra, size_t from)
{
	size_t n = name_len(entry), i;

	for (i = from; extra[i]; i++)
		if (name_len(extra[i]) == n && !strncmp(extra[i], entry, n))
			return 1;
	return 0;
}

/* New array of borrowed strings: environ with `extra` applied. */
static char **build_env(char *const *extra)
{
	size_t n = 0, m = 0, i, k = 0;
	char **env;

	while (environ && environ[n])
		n++;
	while (extra && extra[m])
		m++;
	env = ab_xmalloc((n + m + 1) * sizeof(*env));
	for (i = 0; i < n; i++)
		if (!extra || !overridden(environ[i], extra, 0))
			env[k++] = environ[i];
	for (i = 0; i < m; i++)
		if (strchr(extra[i], '=') && !overridden(extra[i], extra, i + 1))
			env[k++] = extra[i];
	env[k] = NULL;
	return env;
}

/* The value of PATH in `env`, or execvp's default. Borrowed. */
static const char *env_path(char *const *env)
{
	for (; *env; env++)
		if (!strncmp(*env, "PATH=", 5))
			return *env + 5;
	return DEFAULT_PATH;
}

/* The parent's view of one run. */
struct run {
	pid_t pid;
	int pidfd;                /* -1: fallback to wait4(WNOHANG) */
	struct start_report report;
	struct capture out, err;
	int64_t t0, t1;
	int status;               /* valid when have_status */
	struct rusage ru;
	int reaped, have_status, timed_out, interrupted, killed;
	char scratch[READ_CHUNK]; /* reads beyond the head go through here */
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* wait4, then the second clock reading at once. Returns 1 when reaped. */
static int reap(struct run *r, int flags)
{
	pid_t got;

	do
		got = wait4(r->pid, &r->status, flags, &r->ru);
	while (got < 0 && errno == EINTR);
	if (got == 0)
		return 0;
	r->t1 = ab_now_ns();
	r->reaped = 1;
	if (got < 0)
		return ab_error_set(AB_EIO, "lost track of process %d: %s (is SIGCHLD ignored?)",
				    (int)r->pid, strerror(errno));
	r->have_status = 1;
	return 1;
}

static void kill_group(struct run *r, int sig)
{
	/* Both the child and the parent call setpgid, so the group exists
	 * unless the child is already gone. */
	if (kill(-r->pid, sig) < 0 && errno == ESRCH)
		kill(r->pid, sig);
	if (sig == SIGKILL)
		r->killed = 1;
}

enum { SLOT_OUT, SLOT_ERR, SLOT_WAKE, SLOT_PIDFD, SLOT_COUNT };

/* Poll until the child is reaped: read output, notice an interrupt, the timeout and the end of the child. */
static int supervise(struct run *r, int64_t timeout_ms)
{
	struct pollfd pfd[SLOT_COUNT];
	int64_t deadline = timeout_ms > 0 ? r->t0 + timeout_ms * 1000000 : 0;
	int64_t kill_at = 0, backoff = BACKOFF_MIN_NS, next_check = r->t0 + POLL_OPEN_NS;
	int i, n, error;

	for (i = 0; i < SLOT_COUNT; i++)
		pfd[i].events = POLLIN;
	pfd[SLOT_WAKE].fd = atomic_load(&wake_rfd);
	pfd[SLOT_PIDFD].fd = r->pidfd;

	while (!r->reaped) {
		struct timespec ts, *tsp = NULL;
		int64_t wait_ns = -1, now = 0, next = 0;
		int pipes_open;

		pfd[SLOT_OUT].fd = r->out.fd;
		pfd[SLOT_ERR].fd = r->err.fd;
		pipes_open = r->out.fd >= 0 || r->err.fd >= 0;

		if (deadline && !r->timed_out)
			next = deadline;
		if (kill_at && !r->killed && (!next || kill_at < next))
			next = kill_at;
		if (r->pidfd < 0 && pipes_open && (!next || next_check < next))
			next = next_check;
		if (next) {
			now = ab_now_ns();
			wait_ns = next > now ? next - now : 0;
		}
		if (r->pidfd < 0 && !pipes_open) {
			if (wait_ns < 0 || backoff < wait_ns)
				wait_ns = backoff;
			if (backoff < BACKOFF_MAX_NS)
				backoff *= 2;
		}
		if (wait_ns >= 0) {
			ts.tv_sec = wait_ns / 1000000000;
			ts.tv_nsec = wait_ns % 1000000000;
			tsp = &ts;
		}

		n = ppoll(pfd, SLOT_COUNT, tsp, NULL);
		if (n < 0 && errno != EINTR) {
			error = ab_error_set(AB_EIO, "poll: %s", strerror(errno));
			kill_group(r, SIGKILL);
			if (reap(r, 0) < 0)
				return AB_EIO;
			return error;
		}
		if (n > 0) {
			if (pfd[SLOT_OUT].revents)
				capture_read(&r->out, r->scratch);
			if (pfd[SLOT_ERR].revents)
				capture_read(&r->err, r->scratch);
			if (pfd[SLOT_WAKE].revents)
				drain_wake_pipe();
			if (pfd[SLOT_PIDFD].revents && (error = reap(r, 0)) < 0)
				return error;
		}
		/* Without a pidfd: check after the pipes closed, and every
		 * POLL_OPEN_NS while a grandchild may keep them busy. */
		if (r->pidfd < 0 && !r->reaped && (!pipes_open || ab_now_ns() >= next_check)) {
			next_check = ab_now_ns() + POLL_OPEN_NS;
			if ((error = reap(r, WNOHANG)) < 0)
				return error;
		}
		if (r->reaped)
			break;

		if (atomic_load(&interrupt_sig) && !r->interrupted) {
			r->interrupted = 1;
			if (!r->killed) {
				kill_group(r, SIGTERM);
				kill_at = ab_now_ns() + TERM_GRACE_NS;
			}
		}
		if (deadline || kill_at)
			now = ab_now_ns();
		if (deadline && !r->timed_out && now >= deadline) {
			r->timed_out = 1;
			kill_group(r, SIGKILL);
		}
		if (kill_at && !r->killed && now >= kill_at)
			kill_group(r, SIGKILL);
	}
	return 0;
}

static int64_t timeval_ns(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000000000 + (int64_t)tv->tv_usec * 1000;
}

static void fill_result(struct ab_runner_result *res, const struct run *r)
{
	res->wall_ns = r->t1 - r->t0;
	res->user_ns = timeval_ns(&r->ru.ru_utime);
	res->sys_ns = timeval_ns(&r->ru.ru_stime);
	res->maxrss_bytes = (int64_t)r->ru.ru_maxrss * 1024;
	res->minflt = r->ru.ru_minflt;
	res->majflt = r->ru.ru_majflt;
	res->nvcsw = r->ru.ru_nvcsw;
	res->nivcsw = r->ru.ru_nivcsw;
	if (!r->have_status) {
		/* lost: nothing to say about its end */
	} else if (WIFEXITED(r->status)) {
		res->exited = 1;
		res->exit_code = WEXITSTATUS(r->status);
	} else if (WIFSIGNALED(r->status)) {
		res->signal = WTERMSIG(r->status);
	}
	/* A child that exited on its own just as the time ran out did not
	 * time out. */
	res->timed_out = r->timed_out && res->signal;
	res->exec_errno = r->report.err;
	res->start_step = r->report.err ? r->report.step : 0;
}

int ab_runner_run(struct ab_runner_result *result, const struct ab_runner_spec *spec)
{
	struct child_setup cs;
	struct run r;
	sigset_t all, old_mask;
	int out_p[2] = { -1, -1 }, err_p[2] = { -1, -1 };
	int log_fd = -1, null_fd = -1, error = 0, start_errno;
	char *stack = NULL;
	size_t cap = spec->output_cap ? spec->output_cap : DEFAULT_CAP;
	const char *what = spec->shell ? spec->shell : spec->argv ? spec->argv[0] : NULL;

	memset(result, 0, sizeof(*result));
	memset(&r, 0, sizeof(r));
	r.out.fd = r.err.fd = r.pidfd = -1;
	memset(&cs, 0, sizeof(cs));

	if (!what) {
		error = ab_error_set(AB_EINVALID, "nothing to run: give a shell command or argv");
		goto out_finish;
	}
	error = open_wake_pipe();
	if (error < 0)
		goto out_finish;
	if (ab_runner_interrupted()) {
		error = interrupted_error();
		goto out_finish;
	}

	if (spec->stdin_null) {
		null_fd = above_stdio(open("/dev/null", O_RDONLY | O_CLOEXEC));
		if (null_fd < 0) {
			error = ab_error_set(AB_EIO, "cannot open '/dev/null': %s", strerror(errno));
			goto out_close;
		}
	}
	if (spec->log_path) {
		log_fd = above_stdio(open(spec->log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
					  0666));
		if (log_fd < 0) {
			error = ab_error_set(AB_EIO, "cannot open log '%s': %s", spec->log_path,
					     strerror(errno));
			goto out_close;
		}
	} else {
		if (make_pipe(out_p, 1) < 0 || make_pipe(err_p, 1) < 0) {
			error = ab_error_set(AB_EIO, "cannot start '%s': pipe: %s", what,
					     strerror(errno));
			goto out_close;
		}
		capture_init(&r.out, out_p[0], cap, spec->hash_stdout);
		capture_init(&r.err, err_p[0], cap, 0);
		out_p[0] = err_p[0] = -1;
	}

	cs.spec = spec;
	cs.envp = build_env(spec->env_extra);
	cs.path = env_path(cs.envp);
	if (spec->argv) {
		size_t argc = 0;

		while (spec->argv[argc])
			argc++;
		cs.sh_argv = ab_xcalloc(argc + 2, sizeof(*cs.sh_argv));
	}
	/* malloc'd, not mmap'd: the heap reuses warm pages, so the child
	 * takes no page faults on its stack. */
	stack = ab_xmalloc(CHILD_STACK);
	changed_signals(&cs.reset);
	cs.stdin_fd = null_fd;
	cs.out_fd = spec->log_path ? log_fd : out_p[1];
	cs.err_fd = spec->log_path ? log_fd : err_p[1];

	/* Blocked until the child has reset its handlers, so that none of
	 * ours runs in the child. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old_mask);

	r.t0 = ab_now_ns();
	/* The stack grows down on every architecture Linux runs abtool on;
	 * its top is aligned for any ABI. Back here, the child has exec'd or
	 * exited, its setpgid done and its report written. */
	r.pid = clone(run_child, (void *)(((uintptr_t)stack + CHILD_STACK) & ~(uintptr_t)63),
		      CLONE_VM | CLONE_VFORK | SIGCHLD, &cs);
	start_errno = errno;
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	if (r.pid < 0) {
		error = ab_error_set(AB_EIO, "cannot start '%s': clone: %s", what,
				     strerror(start_errno));
		goto out_free_env;
	}
	r.report.step = cs.report.step;
	r.report.err = cs.report.err;
#ifdef SYS_pidfd_open
	if (pidfd_enabled)
		r.pidfd = (int)syscall(SYS_pidfd_open, r.pid, 0);
#endif
	close_fd(&out_p[1]);
	close_fd(&err_p[1]);
	close_fd(&log_fd);
	close_fd(&null_fd);

	error = supervise(&r, spec->timeout_ms);

	/* Leftovers of the group (background jobs, a grandchild holding a
	 * pipe) would skew the next sample. */
	kill_group(&r, SIGKILL);
	capture_drain(&r.out, r.scratch);
	capture_drain(&r.err, r.scratch);
	fill_result(result, &r);
	if (!error && r.interrupted)
		error = interrupted_error();

out_free_env:
	free(cs.envp);
	free(cs.sh_argv);
	free(stack);
out_close:
	close_fd(&r.pidfd);
	close_fd(&out_p[0]);
	close_fd(&out_p[1]);
	close_fd(&err_p[0]);
	close_fd(&err_p[1]);
	close_fd(&log_fd);
	close_fd(&null_fd);
out_finish:
	capture_finish(&r.out, &result->out);
	capture_finish(&r.err, &result->err);
	return error;
}

void ab_runner_result_release(struct ab_runner_result *result)
{
	if (!result)
		return;
	free(result->out.data);
	free(result->err.data);
	result->out.data = result->err.data = NULL;
	result->out.len = result->err.len = 0;
}

/* "60 s", "1.5 s", "200 ms" */
static void format_timeout(char *buf, size_t size, int64_t ms)
{
	int len;

	if (ms < 1000) {
		snprintf(buf, size, "%lld ms", (long long)ms);
		return;
	}
	len = snprintf(buf, size, "%lld.%03lld", (long long)(ms / 1000), (long long)(ms % 1000));
	if (len < 0 || (size_t)len >= size)
		return;
	while (buf[len - 1] == '0')
		len--;
	if (buf[len - 1] == '.')
		len--;
	snprintf(buf + len, size - len, " s");
}

const char *ab_runner_describe(char *buf, size_t size, const struct ab_runner_result *r,
			       int64_t timeout_ms)
{
	char detail[64];

	if (!size)
		return buf;
	if (r->exec_errno && r->start_step == AB_RUNNER_START_CWD)
		snprintf(buf, size, "could not enter the working directory: %s",
			 strerror(r->exec_errno));
	else if (r->exec_errno && r->start_step == AB_RUNNER_START_IO)
		snprintf(buf, size, "could not start: cannot redirect stdin/stdout/stderr: %s",
			 strerror(r->exec_errno));
	else if (r->exec_errno)
		snprintf(buf, size, "could not start: %s", strerror(r->exec_errno));
	else if (r->timed_out)
		snprintf(buf, size, "timed out after %s",
			 (format_timeout(detail, sizeof(detail), timeout_ms), detail));
	else if (r->signal)
		snprintf(buf, size, "killed by %s", signal_name(detail, sizeof(detail), r->signal));
	else if (r->exited)
		snprintf(buf, size, "exit %d", r->exit_code);
	else
		snprintf(buf, size, "did not run");
	return buf;
}
