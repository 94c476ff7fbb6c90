/* util_number.c - numbers from and into text: durations, sizes,
 * percentages, integers and reals, and human units (see util.h). */
#include "util.h"
#include "error.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ab_parse_double(double *out, const char *text)
{
	char *end;
	double v;

	if (!text || !*text || strchr(" \t\n", *text))
		return -1;
	errno = 0;
	v = strtod(text, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int ab_parse_int64(int64_t *out, const char *text)
{
	char *end;
	long long v;

	if (!text || !*text || strchr(" \t\n+", *text))
		return -1;
	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* The number that begins `text` (a digit or '.' first: no sign, no
 * space) into *v, finite, and where it ends into *end; 0, or -1 when
 * there is none. The unit after it is the caller's. */
static int leading_number(double *v, char **end, const char *text)
{
	if (!text || !*text || !strchr("0123456789.", *text))
		return -1;
	errno = 0;
	*v = strtod(text, end);
	if (errno || *end == text || !isfinite(*v))
		return -1;
	return 0;
}

int ab_parse_duration_ms(int64_t *out, const char *text)
{
	static const struct { const char *unit; double ms; } units[] = {
		{"us", 0.001}, {"µs", 0.001}, {"ms", 1}, {"s", 1000},
		{"m", 60000}, {"min", 60000}, {"h", 3600000}, {"d", 86400000},
	};
	char *end;
	double v;
	size_t i;

	if (leading_number(&v, &end, text) < 0 || v <= 0)
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].unit)) {
			double ms = ceil(v * units[i].ms);
			if (ms > 9.2e15)
				return -1;
			*out = (int64_t)ms;
			return 0;
		}
	}
	return -1;
}

int ab_parse_size(int64_t *out, const char *text)
{
	static const char units[] = "BKMGT";
	const char *u;
	char *end;
	double v;

	if (leading_number(&v, &end, text) < 0 || v < 0)
		return -1;
	if (*end && (u = strchr(units, toupper((unsigned char)*end)))) {
		v *= pow(1024, (double)(u - units));
		end++;
		if (u != units && (!strcmp(end, "B") || !strcmp(end, "iB")))
			end += strlen(end);
	}
	if (*end || v > 9.2e18)
		return -1;
	*out = (int64_t)ceil(v);
	return 0;
}

char *ab_format_size(char *buf, size_t size, int64_t bytes)
{
	static const char units[] = "KMGT";
	double v = (double)bytes;
	int i = -1;

	while (v >= 1024 && i < 3) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, size, "%lldB", (long long)bytes);
	else
		snprintf(buf, size, v < 10 ? "%.1f%c" : "%.0f%c", v, units[i]);
	return buf;
}

int ab_parse_percent(double *out, const char *text)
{
	char *end;
	double v;
	size_t n;

	if (!text || !(n = strlen(text)) || text[n - 1] != '%' || !strchr("0123456789.", *text))
		return -1;
	errno = 0;
	v = strtod(text, &end);
	if (errno || end != text + n - 1 || !isfinite(v) || v < 0)
		return -1;
	*out = v / 100.0;
	return 0;
}

/* Four significant digits, e.g. 99.90, 1.543, 812.0 */
static const char *format_scaled(char *buf, size_t size, double v, const char *unit)
{
	double a = fabs(v);
	int decimals = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : 3;
	snprintf(buf, size, "%.*f %s", decimals, v, unit);
	return buf;
}

const char *ab_format_ns(char *buf, size_t size, double ns)
{
	double a = fabs(ns);

	if (isnan(ns))
		return snprintf(buf, size, "n/a"), buf;
	if (a < 1e3)
		return snprintf(buf, size, "%.0f ns", ns), buf;
	if (a < 1e6)
		return format_scaled(buf, size, ns / 1e3, "µs");
	if (a < 1e9)
		return format_scaled(buf, size, ns / 1e6, "ms");
	return format_scaled(buf, size, ns / 1e9, "s");
}

const char *ab_format_bytes(char *buf, size_t size, double bytes)
{
	double a = fabs(bytes);

	if (isnan(bytes))
		return snprintf(buf, size, "n/a"), buf;
	if (a < 1024)
		return snprintf(buf, size, "%.0f B", bytes), buf;
	if (a < 1024.0 * 1024)
		return format_scaled(buf, size, bytes / 1024, "KiB");
	if (a < 1024.0 * 1024 * 1024)
		return format_scaled(buf, size, bytes / (1024.0 * 1024), "MiB");
	return format_scaled(buf, size, bytes / (1024.0 * 1024 * 1024), "GiB");
}
