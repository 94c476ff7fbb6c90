/* zygote.c - abtool-zygote: starts the runner's children (protocol in
 * zygote.h; why, in runner.h). A static program of its own, linked into
 * abtool as bytes and started from memory, so that its footprint is a
 * few hundred KB: what a child's max RSS starts from. It uses libc only. */
#include "child.h"
#include "zygote.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>


/* One request's header, descriptors and strings; 0, or -1 when the
 * runner is gone or the request is malformed. */
static int receive(int fd, struct ab_zygote_header *head, int *fds, int *nfds, char **strings)
{
	union {
		char buf[CMSG_SPACE(AB_ZYGOTE_MAX_FDS * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct msghdr msg;
	struct iovec iov;
	struct cmsghdr *c;
	ssize_t n;

	memset(&msg, 0, sizeof(msg));
	iov.iov_base = head;
	iov.iov_len = sizeof(*head);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = ctl.buf;
	msg.msg_controllen = sizeof(ctl.buf);
	do
		n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return -1;
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			*nfds = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
			if (*nfds > AB_ZYGOTE_MAX_FDS)
				return -1;
			memcpy(fds, CMSG_DATA(c), (size_t)*nfds * sizeof(int));
		}
	if ((size_t)n < sizeof(*head) && ab_read_all(fd, (char *)head + n, sizeof(*head) - (size_t)n) < 0)
		return -1;
	if (head->len > AB_ZYGOTE_MAX_REQUEST || (msg.msg_flags & MSG_CTRUNC))
		return -1;
	*strings = malloc(head->len + 1);
	if (!*strings || ab_read_all(fd, *strings, head->len) < 0)
		return -1;
	(*strings)[head->len] = '\0';
	return 0;
}

/* The next string of [*p, end), or NULL when there is none. */
static char *next_string(char **p, char *end)
{
	char *s = *p;

	if (s >= end)
		return NULL;
	*p = s + strlen(s) + 1;
	return s;
}

/* Split a request into cs (arrays in new memory); -1 when it does not
 * add up. */
static int parse(struct ab_child_setup *cs, const struct ab_zygote_header *head, char *strings,
		 const int *fds, int nfds)
{
	char *p = strings, *end = strings + head->len, **argv = NULL, **envp;
	uint32_t i;
	int f = 0;

	memset(cs, 0, sizeof(*cs));
	cs->stdin_fd = cs->out_fd = cs->err_fd = -1;
	if ((head->flags & AB_ZYGOTE_CWD) && !(cs->cwd = next_string(&p, end)))
		return -1;
	if ((head->flags & AB_ZYGOTE_CPUS) && !(cs->cpus = next_string(&p, end)))
		return -1;
	cs->no_aslr = (head->flags & AB_ZYGOTE_NO_ASLR) != 0;
	cs->no_tty = (head->flags & AB_ZYGOTE_NO_TTY) != 0;
	cs->parent_pid = getpid();  /* the child's parent: it dies if this process does */
	if (head->flags & AB_ZYGOTE_SHELL) {
		if (!(cs->shell = next_string(&p, end)))
			return -1;
	} else {
		if (head->argc == 0 || head->argc > head->len)
			return -1;
		cs->argv = argv = calloc(head->argc + 1, sizeof(*argv));
		cs->sh_argv = calloc(head->argc + 2, sizeof(*cs->sh_argv));
		if (!argv || !cs->sh_argv)
			return -1;
		for (i = 0; i < head->argc; i++)
			if (!(argv[i] = next_string(&p, end)))
				return -1;
	}
	if (head->envc > head->len)
		return -1;
	cs->envp = envp = calloc(head->envc + 1, sizeof(*envp));
	if (!envp)
		return -1;
	for (i = 0; i < head->envc; i++)
		if (!(envp[i] = next_string(&p, end)))
			return -1;
	cs->path = ab_child_env_path(envp);
	sigemptyset(&cs->reset);
	if (head->flags & AB_ZYGOTE_STDIN)
		cs->stdin_fd = f < nfds ? fds[f++] : -1;
	if (head->flags & AB_ZYGOTE_STDOUT)
		cs->out_fd = f < nfds ? fds[f++] : -1;
	if (head->flags & AB_ZYGOTE_STDERR)
		cs->err_fd = f < nfds ? fds[f++] : -1;
	cs->report_fd = f < nfds ? fds[f++] : -1;
	return f == nfds && cs->report_fd >= 0 ? 0 : -1;
}

/* The stack of a child until it execs; 16-byte aligned for any ABI. */
static char child_stack[65536] __attribute__((aligned(16)));

static int start_child(void *cs)
{
	ab_child_run(cs);
}

/*
 * Wait until the child `pid` ends, or the runner goes (the socket `fd`
 * becomes readable: end of file, or a request the protocol does not
 * allow while a child runs). SIGCHLD arrives through the signalfd `sfd`.
 * 0 with *end filled, once the child is reaped and every descendant left
 * is killed and reaped; -1 when the runner is gone (all killed too).
 */
static int wait_child(int fd, int sfd, pid_t pid, struct ab_zygote_end *end)
{
	struct pollfd pfd[2] = { { fd, POLLIN, 0 }, { sfd, POLLIN, 0 } };
	struct signalfd_siginfo si;
	struct timespec ts;
	int status = 0;

	for (;;) {
		int got = ab_child_wait_end(pid, 1, &status, &end->ru, &end->t1_ns, &end->runq_ns);

		if (got != 0) {
			if (got < 0) {  /* lost (cannot happen to our own child): no status */
				clock_gettime(CLOCK_MONOTONIC, &ts);
				end->t1_ns = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
				end->runq_ns = -1;
			}
			end->status = got > 0 ? status : 0;
			end->leftovers = ab_child_reap_all(0);
			return 0;
		}
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			pfd[0].revents = POLLERR;
		if (pfd[0].revents) {
			/* The runner is gone, perhaps killed (SIGKILL) in the
			 * middle of a sample: end it and all it started. */
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			ab_child_reap_all(0);
			return -1;
		}
		if (pfd[1].revents)
			while (read(sfd, &si, sizeof(si)) > 0)
				;
	}
}

/*
 * Every disposition back to SIG_DFL and nothing blocked but SIGCHLD, which
 * the children unblock (child.c) and this process reads from a signalfd;
 * the socket kept from them, one byte to say it is ready; then one child
 * per request until the runner closes the socket.
 *
 * The zygote is its children's parent and a child subreaper, so every
 * descendant of a child that its own parent leaves behind (`setsid cmd &`,
 * a daemon's double fork) is reparented to this process, not to init:
 * wait_child() kills them all when the child ends. The subreaper must be
 * an ancestor of the child, which is why the child is not cloned with
 * CLONE_PARENT as the runner's child: there, orphans would go to abtool
 * itself, which dies with a SIGKILL, leaving them to init; this process
 * outlives abtool and ends them once its socket closes. The price is one
 * message more per sample (struct ab_zygote_end, after the clock reading).
 */
int main(int argc, char **argv)
{
	struct sigaction dfl;
	sigset_t chld;
	char ready = 1;
	int fd, sfd, sig;

	if (argc != 2)
		return 2;
	fd = atoi(argv[1]);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &dfl, NULL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_SETMASK, &chld, NULL);
	sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	/* Without it (Linux < 3.4) descendants that leave the child's
	 * process group outlive it, as they did before. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (sfd < 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) < 0 || write(fd, &ready, 1) != 1)
		return 1;
	for (;;) {
		struct ab_zygote_header head;
		struct ab_child_setup cs;
		struct ab_zygote_end end;
		char *strings = NULL;
		int fds[AB_ZYGOTE_MAX_FDS], nfds = 0, i, bad;
		int32_t answer = 0;

		memset(&cs, 0, sizeof(cs));
		bad = receive(fd, &head, fds, &nfds, &strings) < 0 ||
		      parse(&cs, &head, strings, fds, nfds) < 0;
		if (!bad) {
			/* It shares this small process's memory until it execs,
			 * as posix_spawn does: nothing is copied, and this
			 * process waits meanwhile. */
			answer = (int32_t)clone(start_child, child_stack + sizeof(child_stack),
						CLONE_VM | CLONE_VFORK | SIGCHLD, &cs);
			if (answer < 0)
				answer = -errno;
		}
		for (i = 0; i < nfds; i++)
			close(fds[i]);
		free((void *)cs.argv);
		free(cs.sh_argv);
		free((void *)cs.envp);
		free(strings);
		if (bad || send(fd, &answer, sizeof(answer), MSG_NOSIGNAL) != sizeof(answer)) {
			if (answer > 0) {
				kill(-answer, SIGKILL);
				kill(answer, SIGKILL);
				ab_child_reap_all(0);
			}
			return 0;
		}
		if (answer <= 0)
			continue;
		memset(&end, 0, sizeof(end));
		if (wait_child(fd, sfd, answer, &end) < 0 ||
		    send(fd, &end, sizeof(end), MSG_NOSIGNAL) != sizeof(end))
			return 0;
	}
}
