/* runner.c - one fresh process per sample (see runner.h).
 *
 * Everything that can be prepared is prepared before the first clock
 * reading: pipes, /dev/null, the log file, the environment array, the
 * zygote's request, the first piece of the output buffers. Between the
 * readings the runner has the child started, polls and reads the pipes,
 * and reaps it. The child's side of the start is child.c; the zygote,
 * which starts it (see runner.h for why), is zygote.c. A failing chdir or
 * exec comes back over a close-on-exec pipe (git's child_die()).
 */
#include "runner.h"
#include "child.h"
#include "error.h"
#include "zygote.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/uio.h>
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
#define ZYGOTE_READY_MS 10000     /* the zygote's start-up, at most */

/* The handler side only loads and stores these, so they must not need a
 * lock; C11 atomics also order the flag against the self-pipe's fd,
 * which volatile sig_atomic_t does not do across threads. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic_int must be lock-free");
static atomic_int interrupt_sig;
static atomic_int wake_rfd = -1, wake_wfd = -1;
static pthread_mutex_t wake_lock = PTHREAD_MUTEX_INITIALIZER;
static int pidfd_enabled = 1;
static int zygote_enabled = 1;
static int zygote_fd = -1;        /* abtool's end of the socket; -1: none yet */
static int zygote_failed;         /* 1: it could not start or died; fork instead */
static pid_t zygote_owner;        /* the process that started it */
static pid_t zygote_pid;          /* its pid, which ab_child_reap_all spares */
static int subreaper;             /* 1: this process is a child subreaper */

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

void ab_runner_use_zygote(int enable)
{
	zygote_enabled = enable;
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

/* ---- the zygote (protocol in zygote.h) ------------------------------ */

/* The static abtool-zygote program, linked into this one (zygote_image.c). */
extern const unsigned char ab_zygote_image[], ab_zygote_image_end[];

struct zygote_request {
	struct ab_zygote_header head;
	char *strings;            /* new memory */
	int fds[AB_ZYGOTE_MAX_FDS];
	int nfds;
};

static size_t append_string(char *buf, size_t at, const char *s)
{
	size_t n = strlen(s) + 1;

	if (buf)
		memcpy(buf + at, s, n);
	return at + n;
}

/* Lay out everything the child needs (before the clock starts). */
static void zygote_prepare(struct zygote_request *req, const struct ab_child_setup *cs)
{
	size_t len = 0, pass, i;

	memset(req, 0, sizeof(*req));
	for (pass = 0; pass < 2; pass++) {
		char *buf = pass ? req->strings : NULL;

		len = 0;
		if (cs->cwd)
			len = append_string(buf, len, cs->cwd);
		if (cs->cpus)
			len = append_string(buf, len, cs->cpus);
		if (cs->shell) {
			len = append_string(buf, len, cs->shell);
		} else {
			for (i = 0; cs->argv[i]; i++)
				len = append_string(buf, len, cs->argv[i]);
			req->head.argc = (uint32_t)i;
		}
		for (i = 0; cs->envp[i]; i++)
			len = append_string(buf, len, cs->envp[i]);
		req->head.envc = (uint32_t)i;
		if (!pass)
			req->strings = ab_xmalloc(len ? len : 1);
	}
	req->head.len = (uint32_t)len;
	req->head.flags = (cs->shell ? AB_ZYGOTE_SHELL : 0) | (cs->cwd ? AB_ZYGOTE_CWD : 0) |
			  (cs->cpus ? AB_ZYGOTE_CPUS : 0) | (cs->no_aslr ? AB_ZYGOTE_NO_ASLR : 0) |
			  (cs->no_tty ? AB_ZYGOTE_NO_TTY : 0);
	if (cs->stdin_fd >= 0) {
		req->head.flags |= AB_ZYGOTE_STDIN;
		req->fds[req->nfds++] = cs->stdin_fd;
	}
	if (cs->out_fd >= 0) {
		req->head.flags |= AB_ZYGOTE_STDOUT;
		req->fds[req->nfds++] = cs->out_fd;
	}
	if (cs->err_fd >= 0) {
		req->head.flags |= AB_ZYGOTE_STDERR;
		req->fds[req->nfds++] = cs->err_fd;
	}
	req->fds[req->nfds++] = cs->report_fd;
}

/* Write all of iov, the descriptors with the first byte. 0, or -1 with
 * errno; *sent tells whether any byte went out. */
static int send_all(int fd, struct iovec *iov, int niov, const int *fds, int nfds, int *sent)
{
	union {
		char buf[CMSG_SPACE(AB_ZYGOTE_MAX_FDS * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct msghdr msg;
	ssize_t n;

	*sent = 0;
	while (niov > 0) {
		memset(&msg, 0, sizeof(msg));
		msg.msg_iov = iov;
		msg.msg_iovlen = (size_t)niov;
		if (nfds) {
			struct cmsghdr *c;

			memset(&ctl, 0, sizeof(ctl));
			msg.msg_control = ctl.buf;
			msg.msg_controllen = CMSG_SPACE((size_t)nfds * sizeof(int));
			c = CMSG_FIRSTHDR(&msg);
			c->cmsg_level = SOL_SOCKET;
			c->cmsg_type = SCM_RIGHTS;
			c->cmsg_len = CMSG_LEN((size_t)nfds * sizeof(int));
			memcpy(CMSG_DATA(c), fds, (size_t)nfds * sizeof(int));
		}
		n = sendmsg(fd, &msg, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		*sent = 1;
		nfds = 0;
		while (niov > 0 && (size_t)n >= iov->iov_len) {
			n -= (ssize_t)iov->iov_len;
			iov++;
			niov--;
		}
		if (niov > 0) {
			iov->iov_base = (char *)iov->iov_base + n;
			iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}


/*
 * Have the zygote start the child. Returns 0 with *pid; 1 when the zygote
 * was gone before the request went out (the caller forks instead);
 * AB_EIO when it failed after that (whether the child started is then
 * unknown, so nothing is retried).
 */
static int zygote_spawn(pid_t *pid, struct zygote_request *req, const char *what)
{
	struct iovec iov[2];
	int32_t answer;
	int sent;

	iov[0].iov_base = &req->head;
	iov[0].iov_len = sizeof(req->head);
	iov[1].iov_base = req->strings;
	iov[1].iov_len = req->head.len;
	if (send_all(zygote_fd, iov, 2, req->fds, req->nfds, &sent) < 0 && !sent) {
		zygote_failed = 1;
		return 1;
	}
	if (!sent || ab_read_all(zygote_fd, &answer, sizeof(answer)) < 0) {
		zygote_failed = 1;
		return ab_error_set(AB_EIO, "cannot start '%s': the process that starts samples died",
				    what);
	}
	if (answer < 0)
		return ab_error_set(AB_EIO, "cannot start '%s': fork: %s", what, strerror(-answer));
	*pid = (pid_t)answer;
	return 0;
}

/* dl_iterate_phdr callback: the file offset of loc->addr in the object
 * whose loaded segments hold it. */
struct image_location {
	uintptr_t addr;
	off_t offset;
	int found;
};

static int locate_image(struct dl_phdr_info *info, size_t size, void *data)
{
	struct image_location *loc = data;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && loc->addr >= start && loc->addr < start + ph->p_filesz) {
			loc->offset = (off_t)(ph->p_offset + (loc->addr - start));
			loc->found = 1;
			return 1;
		}
	}
	return 0;
}

/* Copy the image from this program's file into fd inside the kernel
 * (sendfile): read through memory, its 690 KB would add to abtool's own
 * peak RSS. 0, or -1 (the caller then copies from memory). */
static int copy_image_from_file(int fd, size_t size)
{
	struct image_location loc = { (uintptr_t)ab_zygote_image, 0, 0 };
	size_t done = 0;
	int exe;

	if (dl_iterate_phdr(locate_image, &loc) <= 0 || !loc.found)
		return -1;
	if ((exe = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	while (done < size) {
		ssize_t n = sendfile(fd, exe, &loc.offset, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(exe);
	if (done == size)
		return 0;
	return ftruncate(fd, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0 ? -1 : -2;
}

/* The zygote's program in a memory file (no file to install or find);
 * -1 when the kernel refuses (then the runner forks). */
static int zygote_image_fd(void)
{
	size_t size = (size_t)(ab_zygote_image_end - ab_zygote_image), done = 0;
	int fd = -1, copied;

#ifdef MFD_EXEC
	fd = memfd_create("abtool-zygote", MFD_CLOEXEC | MFD_EXEC);
#endif
	if (fd < 0)
		fd = memfd_create("abtool-zygote", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	copied = copy_image_from_file(fd, size);
	while (copied == -1 && done < size) {
		ssize_t n = write(fd, ab_zygote_image + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			copied = -2;
		else
			done += (size_t)n;
	}
	if (copied == -2) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Start the zygote in a process group of its own (the terminal's ^C
 * reaches abtool, which decides) and wait until it is ready. 0, or -1
 * when it cannot start: then the runner forks. */
static int zygote_start(void)
{
	int sv[2] = { -1, -1 }, image, saved;
	char fdarg[16], ready;
	sigset_t all, old_mask;
	struct pollfd pfd;
	int64_t deadline;
	pid_t pid;

	if ((image = zygote_image_fd()) < 0)
		return -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		goto out_close;
	sv[0] = above_stdio(sv[0]);
	sv[1] = above_stdio(sv[1]);
	if (sv[0] < 0 || sv[1] < 0)
		goto out_close;
	snprintf(fdarg, sizeof(fdarg), "%d", sv[1]);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old_mask);
	pid = fork();
	if (pid == 0) {
		char *const argv[] = { "abtool-zygote", fdarg, NULL };

		setpgid(0, 0);
		if (fcntl(sv[1], F_SETFD, 0) == 0)
			syscall(SYS_execveat, image, "", argv, environ, AT_EMPTY_PATH);
		_exit(127);
	}
	saved = errno;
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	close(sv[1]);
	sv[1] = -1;
	if (pid < 0) {
		errno = saved;
		goto out_close;
	}
	pfd.fd = sv[0];
	pfd.events = POLLIN;
	deadline = ab_now_ns() + ZYGOTE_READY_MS * 1000000LL;
	for (;;) {
		int64_t left = (deadline - ab_now_ns()) / 1000000;
		int n = poll(&pfd, 1, left > 0 ? (int)left : 0);

		if (n == 1 && read(sv[0], &ready, 1) == 1)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		goto out_close;
	}
	close(image);
	zygote_fd = sv[0];
	zygote_owner = getpid();
	zygote_pid = pid;
	return 0;
out_close:
	close(image);
	if (sv[0] >= 0)
		close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	return -1;
}

static int zygote_ready(void)
{
	/* In a forked copy of the process that started it, the zygote's
	 * children would be the other process's: start one of our own. */
	if (zygote_fd >= 0 && zygote_owner != getpid()) {
		close(zygote_fd);
		zygote_fd = -1;
		zygote_failed = 0;
	}
	if (!zygote_enabled || zygote_failed)
		return 0;
	if (zygote_fd < 0 && zygote_start() < 0) {
		zygote_failed = 1;
		return 0;
	}
	return 1;
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
	char scratch[READ_CHUNK]; /* reads beyond the head go through here */
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
	if (ab_read_all(zygote_fd, &end, sizeof(end)) < 0) {
		r->t1 = ab_now_ns();
		zygote_failed = 1;
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
	pfd[SLOT_PIDFD].fd = r->via_zygote ? zygote_fd : r->pidfd;

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
				capture_read(&r->out, r->scratch);
			if (pfd[SLOT_ERR].revents)
				capture_read(&r->err, r->scratch);
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

/* The timed path is kept whole on purpose (docs/architecture.md, "Process
 * model"): the descriptors opened for the child, the clock reading at the
 * spawn, the spawn itself (the zygote's request or a fork), supervise()
 * and the clean-up share one set of pipes and one exit path that closes
 * every one of them; split, the parts would hand half-open descriptors to
 * each other. Between r.t0 and the wait in supervise() only the spawn and
 * the polling of the pipes run. */
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
	if (make_pipe(rep_p, 1) < 0) {
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
	use_zygote = !spec->fork_child && zygote_ready();
	if (use_zygote) {
		/* The zygote's descriptors are not ours: pass the ones the
		 * child inherits explicitly (where they are open). */
		if (cs.stdin_fd < 0 && fcntl(0, F_GETFD) >= 0)
			cs.stdin_fd = 0;
		if (cs.out_fd < 0 && fcntl(1, F_GETFD) >= 0)
			cs.out_fd = 1;
		if (cs.err_fd < 0 && fcntl(2, F_GETFD) >= 0)
			cs.err_fd = 2;
		zygote_prepare(&req, &cs);
	} else {
		changed_signals(&cs.reset);
	}
	have_reset = !use_zygote;

	r.t0 = ab_now_ns();
	if (use_zygote) {
		error = zygote_spawn(&r.pid, &req, what);
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
			r.leftovers = ab_child_reap_all(zygote_fd >= 0 ? zygote_pid : 0);
	}
	capture_drain(&r.out, r.scratch);
	capture_drain(&r.err, r.scratch);
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
