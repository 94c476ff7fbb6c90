/* runner_output.c - the runner's pipes and the capture of a child's
 * output (runner_output.h): what ab_runner_run reads between the clock
 * readings, so a read is one read(2) into memory allocated ahead where it
 * can be. */
#include "runner_output.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEAD_FIRST 16384          /* head bytes allocated before the start */
#define DRAIN_READS 256           /* reads per pipe once the child is gone */

/* Keep our descriptors off 0, 1 and 2, which the child overwrites with
 * dup2 (and dup2(fd, fd) would leave close-on-exec set). */
int runner_above_stdio(int fd)
{
	int moved;

	if (fd < 0 || fd > 2)
		return fd;
	moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return moved;
}

int runner_make_pipe(int p[2], int nonblock_read)
{
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	p[0] = runner_above_stdio(p[0]);
	p[1] = runner_above_stdio(p[1]);
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

void runner_capture_init(struct capture *c, int fd, size_t cap, int hash)
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
ssize_t runner_capture_read(struct capture *c, char *scratch)
{
	char *dst = scratch;
	size_t room = RUNNER_READ_CHUNK;
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
void runner_capture_drain(struct capture *c, char *scratch)
{
	int i;

	for (i = 0; c->fd >= 0 && i < DRAIN_READS; i++) {
		ssize_t n = runner_capture_read(c, scratch);

		if (n < 0 && errno != EINTR)
			break;
	}
	if (c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
	}
}

/* Hand the stream over to `out`: head then tail, NUL-terminated. */
void runner_capture_finish(struct capture *c, struct ab_output *out)
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
