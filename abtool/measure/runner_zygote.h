/* runner_zygote.h - the runner's side of the zygote (runner_zygote.c),
 * private to runner*.c: it starts abtool-zygote from the image linked into
 * abtool, lays out a child's request before the clock starts, sends it and
 * reads the answer and the report on the child's end (protocol in
 * zygote.h; why a zygote starts the samples in runner.h). */
#ifndef AB_RUNNER_ZYGOTE_H
#define AB_RUNNER_ZYGOTE_H

#include <sys/types.h>

#include "child.h"
#include "zygote.h"

/* A child's request, laid out ahead (runner_zygote_prepare). */
struct zygote_request {
	struct ab_zygote_header head;
	char *strings;            /* new memory */
	int fds[AB_ZYGOTE_MAX_FDS];
	int nfds;
};

/* 1 when the zygote runs (started now if need be, also anew in a forked
 * copy of the process that started it), 0 when the runner must fork:
 * `enabled` 0 (ab_runner_use_zygote's setting), or it could not start or
 * died. */
int runner_zygote_ready(int enabled);

/* Lay out everything the child of `cs` needs into `req` (before the clock
 * starts); req->strings is new memory, freed by the caller. The
 * descriptors are borrowed. */
void runner_zygote_prepare(struct zygote_request *req, const struct ab_child_setup *cs);

/*
 * Have the zygote start the child. Returns 0 with *pid; 1 when the zygote
 * was gone before the request went out (the caller forks instead);
 * AB_EIO when it failed after that (whether the child started is then
 * unknown, so nothing is retried); `what` names the command in messages.
 */
int runner_zygote_spawn(pid_t *pid, struct zygote_request *req, const char *what);

/* Read the zygote's report on its child, which ended (the socket is
 * readable). 0, or -1 when the zygote died (it is then taken for failed). */
int runner_zygote_read_end(struct ab_zygote_end *end);

/* abtool's end of the zygote's socket, for poll, or -1 when none. */
int runner_zygote_socket(void);

/* The zygote's pid while it runs (ab_child_reap_all spares it), else 0. */
pid_t runner_zygote_pid(void);

#endif
