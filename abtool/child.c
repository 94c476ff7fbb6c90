/* child.c - the start of a child between fork and exec (see child.h). */
#include "child.h"
#include "runner.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

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

void ab_child_run(const struct ab_child_setup *cs)
{
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
