/* runner_zygote.c - the runner's side of the zygote (runner_zygote.h):
 * abtool-zygote started from memory (memfd, execveat) in a process group
 * of its own, and the requests and answers over its socket. */
#include "runner_zygote.h"
#include "runner_output.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define ZYGOTE_READY_MS 10000     /* the zygote's start-up, at most */

static int zygote_fd = -1;        /* abtool's end of the socket; -1: none yet */
static int zygote_failed;         /* 1: it could not start or died; fork instead */
static pid_t zygote_owner;        /* the process that started it */
static pid_t zygote_pid;          /* its pid, which ab_child_reap_all spares */

extern char **environ;

/* The static abtool-zygote program, linked into this one (zygote_image.c). */
extern const unsigned char ab_zygote_image[], ab_zygote_image_end[];

static size_t append_string(char *buf, size_t at, const char *s)
{
	size_t n = strlen(s) + 1;

	if (buf)
		memcpy(buf + at, s, n);
	return at + n;
}

/* Lay out everything the child needs (before the clock starts). */
void runner_zygote_prepare(struct zygote_request *req, const struct ab_child_setup *cs)
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

int runner_zygote_spawn(pid_t *pid, struct zygote_request *req, const char *what)
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
	sv[0] = runner_above_stdio(sv[0]);
	sv[1] = runner_above_stdio(sv[1]);
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

int runner_zygote_ready(int enabled)
{
	/* In a forked copy of the process that started it, the zygote's
	 * children would be the other process's: start one of our own. */
	if (zygote_fd >= 0 && zygote_owner != getpid()) {
		close(zygote_fd);
		zygote_fd = -1;
		zygote_failed = 0;
	}
	if (!enabled || zygote_failed)
		return 0;
	if (zygote_fd < 0 && zygote_start() < 0) {
		zygote_failed = 1;
		return 0;
	}
	return 1;
}

int runner_zygote_read_end(struct ab_zygote_end *end)
{
	if (ab_read_all(zygote_fd, end, sizeof(*end)) < 0) {
		zygote_failed = 1;
		return -1;
	}
	return 0;
}

int runner_zygote_socket(void)
{
	return zygote_fd;
}

pid_t runner_zygote_pid(void)
{
	return zygote_fd >= 0 ? zygote_pid : 0;
}
