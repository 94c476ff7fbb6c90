/* child.c - the start of a child between fork and exec (see child.h). */
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/personality.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REAP_BATCH 256            /* children killed, then waited for, at a time */

static void __attribute__((noreturn)) child_die(const struct ab_child_setup *cs, int step)
{
	struct ab_child_report rep = { step, errno };

	if (write(cs->report_fd, &rep, sizeof(rep)) < 0) {
		/* the parent still sees exit 127 */
	}
	_exit(127);
}

/* execve `file`, and like execvp run a file without a #! line, which
 * execve refuses with ENOEXEC, with /bin/sh. Returns on failure. */
static void exec_file(const struct ab_child_setup *cs, const char *file)
{
	char *const *argv = cs->argv;
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

/* execvp, but with the child's PATH where execvp would take the calling
 * process's (glibc's __execvpe: an empty element is the current
 * directory; EACCES is kept while later elements are tried; errors other
 * than "not there" end the search). */
static void exec_search(const struct ab_child_setup *cs)
{
	const char *file = cs->argv[0], *p = cs->path, *colon;
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

/* sched_setaffinity to a "0-3,6" list, parsed without allocating (this
 * runs between clone and exec). -1 with errno. */
static int set_affinity(const char *list)
{
	cpu_set_t set;
	const char *p = list;

	CPU_ZERO(&set);
	while (*p) {
		long a = 0, b;
		if (*p < '0' || *p > '9')
			return errno = EINVAL, -1;
		while (*p >= '0' && *p <= '9')
			a = a * 10 + (*p++ - '0');
		b = a;
		if (*p == '-') {
			p++;
			b = 0;
			while (*p >= '0' && *p <= '9')
				b = b * 10 + (*p++ - '0');
		}
		if (b < a || b >= CPU_SETSIZE)
			return errno = EINVAL, -1;
		for (; a <= b; a++)
			CPU_SET((int)a, &set);
		if (*p == ',')
			p++;
		else if (*p)
			return errno = EINVAL, -1;
	}
	return sched_setaffinity(0, sizeof(set), &set);
}

int ab_read_all(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n > 0) {
		ssize_t got = read(fd, p, n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		p += got;
		n -= (size_t)got;
	}
	return 0;
}

void ab_child_run(const struct ab_child_setup *cs)
{
	struct sigaction dfl;
	sigset_t none;
	int sig;

	setpgid(0, 0);
	/* abtool killed with SIGKILL cannot stop its sample: the kernel does.
	 * A parent gone before this line is caught by its pid. */
	if (cs->parent_pid &&
	    (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != cs->parent_pid))
		child_die(cs, AB_RUNNER_START_SETUP);
	if (cs->no_tty) {
		/* In a background process group, a read of the terminal
		 * (/dev/tty) would stop the child until the timeout; without
		 * a controlling terminal, opening /dev/tty fails at once. */
		int tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);

		if (tty >= 0) {
			ioctl(tty, TIOCNOTTY);
			close(tty);
		}
	}
	if (cs->cpus && set_affinity(cs->cpus) < 0)
		child_die(cs, AB_RUNNER_START_SETUP);
	if (cs->no_aslr) {
		int persona = personality(0xffffffff);
		if (persona < 0 || personality((unsigned long)persona | ADDR_NO_RANDOMIZE) < 0)
			child_die(cs, AB_RUNNER_START_SETUP);
	}
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		if (sigismember(&cs->reset, sig) == 1)
			sigaction(sig, &dfl, NULL);
	/* glibc keeps 32 and 33 (SIGCANCEL, SIGSETXID) from sigaction(), so
	 * an ignored disposition inherited there (glibc's posix_spawn, which
	 * GNU make uses, leaves them ignored in its children) would pass on
	 * to the benchmark: reset them with the system call. An all-zero
	 * kernel sigaction is SIG_DFL, no flags, an empty mask. */
	for (sig = SIGSYS + 1; sig < SIGRTMIN; sig++) {
		unsigned long kernel_sa[4] = { 0, 0, 0, 0 };
		syscall(SYS_rt_sigaction, sig, kernel_sa, NULL, (size_t)(_NSIG / 8));
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	if ((cs->stdin_fd >= 0 && dup2(cs->stdin_fd, 0) < 0) ||
	    (cs->out_fd >= 0 && dup2(cs->out_fd, 1) < 0) ||
	    (cs->err_fd >= 0 && dup2(cs->err_fd, 2) < 0))
		child_die(cs, AB_RUNNER_START_IO);
	if (cs->cwd && chdir(cs->cwd) < 0)
		child_die(cs, AB_RUNNER_START_CWD);

	if (cs->shell) {
		char *const sh[] = { "sh", "-c", (char *)cs->shell, NULL };

		execve("/bin/sh", sh, cs->envp);
	} else {
		exec_search(cs);
	}
	child_die(cs, AB_RUNNER_START_EXEC);
}

const char *ab_child_env_path(char *const *env)
{
	for (; *env; env++)
		if (!strncmp(*env, "PATH=", 5))
			return *env + 5;
	return AB_CHILD_DEFAULT_PATH;
}

/* The state letter and the parent of `pid` (/proc/PID/stat); 0, or -1
 * when it is gone. The name field may hold ')': the last one ends it. */
static int proc_stat(pid_t pid, char *state, pid_t *ppid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd, parent;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %d", state, &parent) != 2)
		return -1;
	*ppid = parent;
	return 0;
}

/* Append the children of thread `tid` but `keep` to kids[n..max); the
 * new n, or -1 when the kernel has no children file. A list longer than
 * one read is cut at its last whole number: the rest comes next round. */
static long read_children(pid_t tid, pid_t *kids, long n, long max, pid_t keep)
{
	char path[64], buf[4096], *p, *end;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len < 0)
		return -1;
	buf[len] = '\0';
	if ((size_t)len == sizeof(buf) - 1 && (end = strrchr(buf, ' ')))
		end[1] = '\0';
	for (p = buf; n < max;) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid > 0 && pid != keep)
			kids[n++] = (pid_t)pid;
		p = end;
	}
	return n;
}

/* The children of this process but `keep`, found by a scan of /proc:
 * only where the children files are missing. */
static long scan_children(pid_t *kids, long max, pid_t keep)
{
	pid_t self = getpid(), ppid;
	struct dirent *d;
	long n = 0;
	DIR *dir = opendir("/proc");
	char state;

	if (!dir)
		return 0;
	while (n < max && (d = readdir(dir))) {
		long pid = strtol(d->d_name, NULL, 10);

		if (pid > 0 && pid != keep && proc_stat((pid_t)pid, &state, &ppid) == 0 &&
		    ppid == self)
			kids[n++] = (pid_t)pid;
	}
	closedir(dir);
	return n;
}

int ab_child_reap_all(pid_t keep)
{
	pid_t kids[REAP_BATCH], self = getpid(), tid = (pid_t)syscall(SYS_gettid), ppid;
	int running = 0;
	char state;

	for (;;) {
		long n, i;

		if (!keep) {
			pid_t got;

			while ((got = waitpid(-1, NULL, WNOHANG)) > 0)
				;
			if (got < 0 && errno == ECHILD)
				return running;
		}
		/* Orphans come back to the subreaper's first live thread (the
		 * leader), its own children to the thread that forked them. */
		n = read_children(tid, kids, 0, REAP_BATCH, keep);
		if (n >= 0 && tid != self)
			n = read_children(self, kids, n, REAP_BATCH, keep);
		if (n < 0)
			n = scan_children(kids, REAP_BATCH, keep);
		if (n <= 0)
			return running;
		for (i = 0; i < n; i++) {
			if (proc_stat(kids[i], &state, &ppid) == 0 && state != 'Z' && state != 'X')
				running++;
			kill(kids[i], SIGKILL);
		}
		for (i = 0; i < n; i++)
			while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
				;
	}
}

/* The second field of /proc/PID/schedstat: run-queue wait in ns, or -1;
 * the first (time on a CPU, ns) into *on_cpu_ns. */
static int64_t runq_wait_ns(pid_t pid, int64_t *on_cpu_ns)
{
	char path[64], buf[128];
	unsigned long long on_cpu, waited;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &on_cpu, &waited) != 2)
		return -1;
	*on_cpu_ns = (int64_t)on_cpu;
	return (int64_t)waited;
}

int ab_child_wait_end(pid_t pid, int nohang, int *status, struct rusage *ru, int64_t *t1_ns,
		      int64_t *runq_ns)
{
	siginfo_t si;
	struct timespec ts;
	int64_t on_cpu_ns = 0, cpu_ns;
	pid_t got;
	int rc;

	memset(&si, 0, sizeof(si));
	do
		rc = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT | (nohang ? WNOHANG : 0));
	while (rc < 0 && errno == EINTR);
	if (rc < 0)
		return -1;
	if (si.si_pid == 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*t1_ns = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	*runq_ns = runq_wait_ns(pid, &on_cpu_ns);
	do
		got = wait4(pid, status, 0, ru);
	while (got < 0 && errno == EINTR);
	if (got != pid)
		return -1;
	/* The process's own wait stands for the sample only when the process
	 * itself did most of its work: a shell wrapper or a program whose
	 * threads or children work waits little itself. */
	cpu_ns = ((int64_t)ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000000LL +
		 ((int64_t)ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1000;
	if (*runq_ns >= 0 && 2 * on_cpu_ns < cpu_ns)
		*runq_ns = -1;
	return 1;
}
