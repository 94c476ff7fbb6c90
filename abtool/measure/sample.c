/* sample.c - see sample.h. */
#include "sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	unsigned flag;
	const char *name;
} flag_names[] = {
	{AB_FLAG_OUTPUT_TRUNCATED, "output_truncated"},
	{AB_FLAG_NO_CHECKSUM, "no_checksum"},
	{AB_FLAG_CONTENDED, "contended"},
	{AB_FLAG_LEFTOVERS, "leftover_processes"},
	{AB_FLAG_RERUN, "rerun"},
	{AB_FLAG_NOT_QUIET, "not_quiet"},
};

#define NFLAGS (sizeof(flag_names) / sizeof(flag_names[0]))

int ab_sample_ok(const struct ab_sample *s)
{
	return s->status != AB_SAMPLE_PLANNED && !s->error && s->exit_code == 0 &&
	       !s->signal && !s->timed_out;
}

void ab_sample_release(struct ab_sample *s)
{
	free(s->checksum);
	free(s->metrics);
	free(s->error);
	free(s->stdout_text);
	free(s->unavailable);
	s->unavailable = NULL;
	free(s->stderr_text);
	s->checksum = s->error = s->stdout_text = s->stderr_text = NULL;
	s->metrics = NULL;
	s->nmetrics = 0;
}

void ab_samples_free(struct ab_sample *samples, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		ab_sample_release(&samples[i]);
	free(samples);
}

const char *ab_sample_flags_string(char *buf, size_t size, unsigned flags)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < NFLAGS; i++) {
		if (!(flags & flag_names[i].flag))
			continue;
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%s",
					len ? "," : "", flag_names[i].name);
		if (len >= size)
			break;
	}
	return buf;
}

unsigned ab_sample_flags_parse(const char *text)
{
	unsigned flags = 0;
	size_t i, n;

	while (text && *text) {
		n = strcspn(text, ",");
		for (i = 0; i < NFLAGS; i++)
			if (strlen(flag_names[i].name) == n && !strncmp(text, flag_names[i].name, n))
				flags |= flag_names[i].flag;
		text += n;
		if (*text == ',')
			text++;
	}
	return flags;
}
