/* runner.c - one fresh process per sample (see runner.h).
 *
 * Everything that can be prepared is prepared before the first clock
 * reading: pipes, /dev/null, the log file, the environment array, the
 * zygote's request, the first piece of the output buffers. Between the
 * readings the runner has the child started, polls and reads the pipes,
 * and reaps it. The child's side of the start is child.c; the zygote,
 * which starts it (see runner.h for why), is zygote.c, and the runner's
 * side of it runner_zygote.c. The pipes and the capture of the output are
 * runner_output.c, the child's environment runner_env.c. A failing chdir
 * or exec comes back over a close-on-exec pipe (git's child_die()).
 */
#include "runner.h"
#include "runner_output.h"
#include "runner_zygote.h"
#include "child.h"
#include "error.h"
#include "zygote.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_CAP (1024 * 1024)
#define TERM_GRACE_NS 100000000LL /* SIGTERM → SIGKILL on interrupt */
#define POLL_OPEN_NS 50000000LL   /* no pidfd: check the child this often */
#define BACKOFF_MIN_NS 50000LL    /* no pidfd, pipes closed: first wait */
#define BACKOFF_MAX_NS 50000000LL

/* The handler side only loads and stores these, so they must not need a
 * lock; C11 atomics also order the flag against the self-pipe's fd,
 * which volatile sig_atomic_t does not do across threads. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic_int must be lock-free");
static atomic_int interrupt_sig;
static atomic_int wake_rfd = -1, wake_wfd = -1;
static pthread_mutex_t wake_lock = PTHREAD_MUTEX_INITIALIZER;
static int pidfd_enabled = 1;
static int zygote_enabled = 1;
static int subreaper;             /* 1: this process is a child subreaper */

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

void ab_runner_use_zygote(int enable)
{
	zygote_enabled = enable;
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
		p[0] = runner_above_stdio(p[0]);
		p[1] = runner_above_stdio(p[1]);
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

/* The parent's view of one run. */
struct run {
	pid_t pid;
	int pidfd;                /* -1: fallback to wait4(WNOHANG) */
	int report_fd;            /* read end, -1 once closed */
	struct ab_child_report report;
	struct capture out, err;
	int64_t t0, t1;
	int status;               /* valid when have_status */
	struct rusage ru;
	int reaped, have_status, timed_out, interrupted, killed;
	int via_zygote;           /* 1: the zygote's child; it reaps it (zygote_end) */
	int leftovers;            /* descendants killed after it ended */
	int64_t runq_ns;          /* its run-queue wait, or -1 */
	char scratch[RUNNER_READ_CHUNK]; /* reads beyond the head go through here */
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void read_report(struct run *r)
{
	struct ab_child_report rep;
	ssize_t n = read(r->report_fd, &rep, sizeof(rep));

	if (n == (ssize_t)sizeof(rep))
		r->report = rep;
	else if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		close_fd(&r->report_fd);
}

/* The zygote's report on its child, which ended (zygote.h); the socket
 * is readable. Returns 1, or AB_EIO when the zygote died (the child then
 * got SIGKILL from the kernel: PR_SET_PDEATHSIG). */
static int zygote_end(struct run *r)
{
	struct ab_zygote_end end;

	r->reaped = 1;
	if (runner_zygote_read_end(&end) < 0) {
		r->t1 = ab_now_ns();
		return ab_error_set(AB_EIO, "lost track of process %d: the process that starts "
				    "samples died", (int)r->pid);
	}
	r->t1 = end.t1_ns;
	r->status = end.status;
	r->ru = end.ru;
	r->leftovers = end.leftovers;
	r->runq_ns = end.runq_ns;
	r->have_status = 1;
	return 1;
}

/* wait4, then the second clock reading at once (the zygote does both
 * for its children). Returns 1 when reaped. */
static int reap(struct run *r, int flags)
{
	int got;

	if (r->via_zygote)
		return zygote_end(r);
	got = ab_child_wait_end(r->pid, flags & WNOHANG, &r->status, &r->ru, &r->t1, &r->runq_ns);
	if (got == 0)
		return 0;
	if (got < 0)
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
	if (kill(-r->pid, sig) < 0 && errno == ESRCH && !r->via_zygote)
		kill(r->pid, sig);
	if (sig == SIGKILL)
		r->killed = 1;
}

enum { SLOT_OUT, SLOT_ERR, SLOT_REPORT, SLOT_WAKE, SLOT_PIDFD, SLOT_COUNT };

/* Poll until the child is reaped: read output, notice an exec failure,
 * an interrupt, the timeout and the end of the child. */
static int supervise(struct run *r, int64_t timeout_ms)
{
	struct pollfd pfd[SLOT_COUNT];
	int64_t deadline = timeout_ms > 0 ? r->t0 + timeout_ms * 1000000 : 0;
	int64_t kill_at = 0, backoff = BACKOFF_MIN_NS, next_check = r->t0 + POLL_OPEN_NS;
	int i, n, error;

	for (i = 0; i < SLOT_COUNT; i++)
		pfd[i].events = POLLIN;
	pfd[SLOT_WAKE].fd = atomic_load(&wake_rfd);
	/* The zygote's report on its child ends the wait like a pidfd. */
	pfd[SLOT_PIDFD].fd = r->via_zygote ? runner_zygote_socket() : r->pidfd;

	while (!r->reaped) {
		struct timespec ts, *tsp = NULL;
		int64_t wait_ns = -1, now = 0, next = 0;
		int pipes_open;

		pfd[SLOT_OUT].fd = r->out.fd;
		pfd[SLOT_ERR].fd = r->err.fd;
		pfd[SLOT_REPORT].fd = r->report_fd;
		pipes_open = r->out.fd >= 0 || r->err.fd >= 0 || r->report_fd >= 0;

		if (deadline && !r->timed_out)
			next = deadline;
		if (kill_at && !r->killed && (!next || kill_at < next))
			next = kill_at;
		if (!r->via_zygote && r->pidfd < 0 && pipes_open && (!next || next_check < next))
			next = next_check;
		if (next) {
			now = ab_now_ns();
			wait_ns = next > now ? next - now : 0;
		}
		if (!r->via_zygote && r->pidfd < 0 && !pipes_open) {
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
				runner_capture_read(&r->out, r->scratch);
			if (pfd[SLOT_ERR].revents)
				runner_capture_read(&r->err, r->scratch);
			if (pfd[SLOT_REPORT].revents)
				read_report(r);
			if (pfd[SLOT_WAKE].revents)
				drain_wake_pipe();
			if (pfd[SLOT_PIDFD].revents && (error = reap(r, 0)) < 0)
				return error;
		}
		/* Without a pidfd: check after the pipes closed, and every
		 * POLL_OPEN_NS while a grandchild may keep them busy. */
		if (!r->via_zygote && r->pidfd < 0 && !r->reaped &&
		    (!pipes_open || ab_now_ns() >= next_check)) {
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
	res->start_ns = r->t0;
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
	res->leftovers = r->leftovers;
	res->runq_ns = r->have_status ? r->runq_ns : -1;
	res->exec_errno = r->report.err;
	res->start_step = r->report.err ? r->report.step : 0;
}

/* The timed path is kept whole on purpose (docs/architecture.md,
 * "Processes", Timing): what runs inside the interval is visible at once,
 * and the descriptors opened for the child, the clock reading at the
 * spawn, the spawn itself (the zygote's request or a fork), supervise()
 * and the clean-up share one set of pipes and one exit path that closes
 * every one of them; split, the parts would hand half-open descriptors to
 * each other. Between r.t0 and supervise() run the spawn (after a zygote
 * that died, also the fork's preparation: the signal dispositions to
 * reset and, the first time, PR_SET_CHILD_SUBREAPER), a forked child's
 * setpgid and pidfd_open, and the closing of the child's ends of the
 * pipes. */
int ab_runner_run(struct ab_runner_result *result, const struct ab_runner_spec *spec)
{
	struct ab_child_setup cs;
	struct zygote_request req;
	char **envp = NULL;
	struct run r;
	sigset_t all, old_mask;
	int out_p[2] = { -1, -1 }, err_p[2] = { -1, -1 }, rep_p[2] = { -1, -1 };
	int log_fd = -1, null_fd = -1, error = 0, use_zygote, have_reset, saved;
	size_t cap = spec->output_cap ? spec->output_cap : DEFAULT_CAP;
	const char *what = spec->shell ? spec->shell : spec->argv ? spec->argv[0] : NULL;

	memset(result, 0, sizeof(*result));
	memset(&r, 0, sizeof(r));
	memset(&req, 0, sizeof(req));
	r.out.fd = r.err.fd = r.report_fd = r.pidfd = -1;
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
		null_fd = runner_above_stdio(open("/dev/null", O_RDONLY | O_CLOEXEC));
		if (null_fd < 0) {
			error = ab_error_set(AB_EIO, "cannot open '/dev/null': %s", strerror(errno));
			goto out_close;
		}
	}
	if (spec->log_path) {
		log_fd = runner_above_stdio(open(spec->log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
					  0666));
		if (log_fd < 0) {
			error = ab_error_set(AB_EIO, "cannot open log '%s': %s", spec->log_path,
					     strerror(errno));
			goto out_close;
		}
	} else {
		if (runner_make_pipe(out_p, 1) < 0 || runner_make_pipe(err_p, 1) < 0) {
			error = ab_error_set(AB_EIO, "cannot start '%s': pipe: %s", what,
					     strerror(errno));
			goto out_close;
		}
		runner_capture_init(&r.out, out_p[0], cap, spec->hash_stdout);
		runner_capture_init(&r.err, err_p[0], cap, 0);
		out_p[0] = err_p[0] = -1;
	}
	if (runner_make_pipe(rep_p, 1) < 0) {
		error = ab_error_set(AB_EIO, "cannot start '%s': pipe: %s", what, strerror(errno));
		goto out_close;
	}
	r.report_fd = rep_p[0];
	rep_p[0] = -1;

	cs.shell = spec->shell;
	cs.argv = spec->argv;
	cs.cwd = spec->cwd;
	cs.cpus = spec->cpus;
	cs.no_aslr = spec->no_aslr;
	cs.no_tty = spec->stdin_null;
	cs.parent_pid = getpid();
	envp = ab_runner_child_env(spec->env_extra);
	cs.envp = envp;
	cs.path = ab_child_env_path(cs.envp);
	if (spec->argv) {
		size_t argc = 0;

		while (spec->argv[argc])
			argc++;
		cs.sh_argv = ab_xcalloc(argc + 2, sizeof(*cs.sh_argv));
	}
	cs.stdin_fd = null_fd;
	cs.out_fd = spec->log_path ? log_fd : out_p[1];
	cs.err_fd = spec->log_path ? log_fd : err_p[1];
	cs.report_fd = rep_p[1];
	use_zygote = !spec->fork_child && runner_zygote_ready(zygote_enabled);
	if (use_zygote) {
		/* The zygote's descriptors are not ours: pass the ones the
		 * child inherits explicitly (where they are open). */
		if (cs.stdin_fd < 0 && fcntl(0, F_GETFD) >= 0)
			cs.stdin_fd = 0;
		if (cs.out_fd < 0 && fcntl(1, F_GETFD) >= 0)
			cs.out_fd = 1;
		if (cs.err_fd < 0 && fcntl(2, F_GETFD) >= 0)
			cs.err_fd = 2;
		runner_zygote_prepare(&req, &cs);
	} else {
		changed_signals(&cs.reset);
	}
	have_reset = !use_zygote;

	r.t0 = ab_now_ns();
	if (use_zygote) {
		error = runner_zygote_spawn(&r.pid, &req, what);
		if (error < 0) {
			r.pid = -1;
			goto out_free_env;
		}
		use_zygote = error == 0;
		error = 0;
	}
	if (!use_zygote) {
		if (!have_reset)
			changed_signals(&cs.reset);  /* the zygote just died */
		/* Descendants that leave the child's process group come back
		 * here then, and the clean-up after supervise() ends them. */
		if (!subreaper)
			subreaper = prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
		/* Blocked until the child has reset its handlers, so that
		 * none of ours runs in the child. */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old_mask);
		r.pid = fork();
		if (r.pid == 0)
			ab_child_run(&cs);
		saved = errno;
		pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
		if (r.pid < 0) {
			error = ab_error_set(AB_EIO, "cannot start '%s': fork: %s", what,
					     strerror(saved));
			goto out_free_env;
		}
	}
	r.via_zygote = use_zygote;
	if (!use_zygote) {
		/* Also here, so that a kill of the group cannot miss the
		 * child (the zygote's child is in its group before it
		 * answers: CLONE_VFORK). */
		setpgid(r.pid, r.pid);
#ifdef SYS_pidfd_open
		if (pidfd_enabled)
			r.pidfd = (int)syscall(SYS_pidfd_open, r.pid, 0);
#endif
	}
	close_fd(&out_p[1]);
	close_fd(&err_p[1]);
	close_fd(&rep_p[1]);
	close_fd(&log_fd);
	close_fd(&null_fd);

	error = supervise(&r, spec->timeout_ms);

	/* Leftovers (background jobs, a grandchild holding a pipe, a
	 * process that left the group) would skew the next sample. The
	 * zygote has killed its child's; a forked child's come back to
	 * this process, a subreaper, and all its children but the zygote
	 * are the child's (nothing else in abtool starts processes). */
	if (!r.via_zygote) {
		kill_group(&r, SIGKILL);
		if (subreaper)
			r.leftovers = ab_child_reap_all(runner_zygote_pid());
	}
	runner_capture_drain(&r.out, r.scratch);
	runner_capture_drain(&r.err, r.scratch);
	if (r.report_fd >= 0)
		read_report(&r);
	fill_result(result, &r);
	if (!error && r.interrupted)
		error = interrupted_error();

out_free_env:
	free(envp);
	free(cs.sh_argv);
	free(req.strings);
out_close:
	close_fd(&r.pidfd);
	close_fd(&r.report_fd);
	close_fd(&out_p[0]);
	close_fd(&out_p[1]);
	close_fd(&err_p[0]);
	close_fd(&err_p[1]);
	close_fd(&rep_p[0]);
	close_fd(&rep_p[1]);
	close_fd(&log_fd);
	close_fd(&null_fd);
out_finish:
	runner_capture_finish(&r.out, &result->out);
	runner_capture_finish(&r.err, &result->err);
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
	else if (r->exec_errno && r->start_step == AB_RUNNER_START_SETUP)
		snprintf(buf, size, "could not set the CPU affinity or personality: %s",
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
