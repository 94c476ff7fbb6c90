/* error.c - the per-thread error slot (see error.h). */
#include "error.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char message[4096];
static _Thread_local int last_code;

int ab_error_set(int code, const char *fmt, ...)
{
	va_list ap;

	/* the house's message style (CONTRIBUTING.md, "Errors"): an error code,
	 * and a message that is not empty and ends in neither a period nor a
	 * newline (the command adds "abtool: " and the newline);
	 * scripts/check-structure checks every literal format the same way */
	assert(code < 0);
	assert(fmt && *fmt && !strchr(".\n", fmt[strlen(fmt) - 1]));
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	last_code = code;
	return code;
}

int ab_error_prefix(const char *fmt, ...)
{
	char old[sizeof(message)];
	size_t n, rest;
	va_list ap;

	memcpy(old, message, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message) - 3, fmt, ap);
	va_end(ap);
	n = strlen(message);
	memcpy(message + n, ": ", 3);
	n += 2;
	rest = strlen(old);
	if (rest > sizeof(message) - n - 1)
		rest = sizeof(message) - n - 1;
	memcpy(message + n, old, rest);
	message[n + rest] = '\0';
	return last_code;
}

const char *ab_error_last(void)
{
	return message;
}

int ab_error_code(void)
{
	return last_code;
}

void ab_error_clear(void)
{
	message[0] = '\0';
	last_code = AB_OK;
}

int ab_error_exit_code(int code)
{
	switch (code) {
	case AB_OK:
		return 0;
	case AB_EINVALID:
	case AB_ENOTFOUND:
		return 64;
	case AB_EIO:
	case AB_ELOCKED:
		return 74;
	case AB_EINTERRUPTED:
		return 130;
	default:
		return 70;
	}
}
