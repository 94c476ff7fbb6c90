/* error.h - one error slot per thread, in the manner of libgit2's
 * git_error_set()/git_error_last(): modules return a negative AB_E* code
 * and leave the message here; only cmd_*.c and main.c print it. */
#ifndef AB_ERROR_H
#define AB_ERROR_H

enum ab_error_code {
	AB_OK = 0,
	AB_ERROR = -1,        /* internal error (exit 70) */
	AB_EINVALID = -2,     /* bad experiment file, input or command line (exit 64) */
	AB_ENOTFOUND = -3,    /* a named revision, run, file or key does not exist (exit 64) */
	AB_EIO = -4,          /* file system, process or store failure (exit 74) */
	AB_EINTERRUPTED = -5, /* stopped by SIGINT or SIGTERM (exit 130 or 143) */
	AB_ENOMEM = -6,       /* out of memory (exit 70) */
	AB_ELOCKED = -7,      /* the store or a cache entry stayed locked (exit 74) */
};

/*
 * Record the message of the last error and return `code`, so callers write
 * `return ab_error_set(AB_EINVALID, "...")`. The message follows git's
 * style: lowercase, no final period, what to do where it helps.
 */
int ab_error_set(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prefix the current message with `fmt` and ": " (context from an outer
 * layer, e.g. the file name). Returns the current code. */
int ab_error_prefix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The last message (borrowed; valid until the next ab_error_set), or "" */
const char *ab_error_last(void);

/* The code passed to the last ab_error_set, AB_OK when none */
int ab_error_code(void);

void ab_error_clear(void);

/* The process exit code docs/architecture.md ("Exit codes") assigns to an error code: 64, 70 or 74
 * (AB_EINTERRUPTED maps to 130; callers that know the signal use 128+sig). */
int ab_error_exit_code(int code);

#endif
