/* runner_output.h - a child's captured output (struct ab_output, part of
 * runner.h's result), and the runner's pipes and capture of a child's
 * stdout and stderr (runner_output.c), which only runner*.c use: a
 * stream's head grows up to the spec's cap, the rest goes through a ring
 * of AB_RUNNER_TAIL bytes, and stdout may be hashed as it is read. */
#ifndef AB_RUNNER_OUTPUT_H
#define AB_RUNNER_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ab_sha256;

/* Captured output of one stream: the first `cap` bytes plus the last
 * AB_RUNNER_TAIL bytes when the stream was longer (`truncated` set). The
 * SHA-256 always covers the whole stream. */
#define AB_RUNNER_TAIL 65536

struct ab_output {
	char *data;          /* new memory, NUL-terminated (may hold NULs);
	                        head then tail; never NULL after ab_runner_run */
	size_t len;          /* bytes in data */
	size_t head_len;     /* the first head_len bytes of data are the start
	                        of the stream; when truncated, total - len
	                        bytes were dropped after them */
	uint64_t total;      /* bytes the process wrote to the stream */
	int truncated;       /* 1 when total > len */
	char sha256[65];     /* of the whole stream, hex; "" unless requested */
};

#define RUNNER_READ_CHUNK 65536   /* one read; the default pipe size */

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

/* Keep a descriptor off 0, 1 and 2, which the child overwrites with dup2
 * (and dup2(fd, fd) would leave close-on-exec set): returns fd itself when
 * it is above 2 (or negative), else a close-on-exec copy above 2 (fd is
 * closed), or -1 with errno. */
int runner_above_stdio(int fd);

/* A close-on-exec pipe with both ends above stdio (runner_above_stdio),
 * its read end non-blocking when `nonblock_read`. 0, or -1 with errno
 * (nothing left open). */
int runner_make_pipe(int p[2], int nonblock_read);

/* Start capturing the read end `fd` (the capture owns it), keeping up to
 * `cap` head bytes; `hash`: also compute the stream's SHA-256. Allocates
 * the first piece of the head (before the clock starts). */
void runner_capture_init(struct capture *c, int fd, size_t cap, int hash);

/* One read: straight into the head while it has room, else through
 * `scratch` (RUNNER_READ_CHUNK bytes) into the ring. Returns read(2)'s
 * result; closes the descriptor on EOF and on errors other than EAGAIN
 * and EINTR. */
ssize_t runner_capture_read(struct capture *c, char *scratch);

/* Read what is available now, without waiting for EOF (a grandchild may
 * hold the pipe open), then close the descriptor. */
void runner_capture_drain(struct capture *c, char *scratch);

/* Hand the stream over to `out` (which then owns the memory): head then
 * tail, NUL-terminated, with its hash when hashing; frees the rest and
 * leaves `c` empty with fd -1. */
void runner_capture_finish(struct capture *c, struct ab_output *out);

#endif
