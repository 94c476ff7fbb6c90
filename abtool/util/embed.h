/* embed.h - files compiled into the binary (store migrations, templates).
 * The table is generated at build time by cmake/embed_gen.cmake. */
#ifndef AB_EMBED_H
#define AB_EMBED_H

#include <stddef.h>

struct ab_embedded_file {
	const char *path;           /* relative to the source tree, e.g. "templates/demo/bench.c" */
	const unsigned char *data;  /* size bytes, followed by a NUL */
	size_t size;
};

/* Terminated by an entry whose path is NULL. */
extern const struct ab_embedded_file ab_embedded[];

/* The embedded file at `path` (borrowed, static), or NULL */
const struct ab_embedded_file *ab_embed_find(const char *path);

#endif
