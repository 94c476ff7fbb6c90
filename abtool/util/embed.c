/* embed.c - lookup in the table of embedded files. */
#include "embed.h"

#include <string.h>

const struct ab_embedded_file *ab_embed_find(const char *path)
{
	const struct ab_embedded_file *f;

	for (f = ab_embedded; f->path; f++)
		if (!strcmp(f->path, path))
			return f;
	return NULL;
}
