/* extract.c - checksums and metrics from a sample's output (see extract.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "extract.h"
#include "error.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <pcre2.h>

struct ab_extractor {
	const struct ab_experiment *exp;
	pcre2_code *checksum;        /* for AB_CHECKSUM_REGEX */
	pcre2_code **metric;         /* per metric, for AB_METRIC_REGEX */
	pcre2_match_data *md;
	int need_json;               /* some value comes from a JSON line */
};

static int compile(pcre2_code **out, const char *pattern, const char *what)
{
	int code;
	PCRE2_SIZE offset;
	PCRE2_UCHAR msg[256];

	*out = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
			     PCRE2_MULTILINE | PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &code,
			     &offset, NULL);
	if (!*out) {
		pcre2_get_error_message(code, msg, sizeof(msg));
		return ab_error_set(AB_EINVALID, "%s: bad regex at offset %zu: %s", what, (size_t)offset,
				    (const char *)msg);
	}
	return 0;
}

int ab_extract_new(struct ab_extractor **out, const struct ab_experiment *exp)
{
	struct ab_extractor *x = ab_xcalloc(1, sizeof(*x));
	size_t i;
	int err = 0;

	x->exp = exp;
	x->metric = ab_xcalloc(exp->nmetrics ? exp->nmetrics : 1, sizeof(*x->metric));
	x->md = pcre2_match_data_create(16, NULL);
	if (exp->checksum.kind == AB_CHECKSUM_REGEX)
		err = compile(&x->checksum, exp->checksum.arg, "checksum.regex");
	x->need_json = exp->checksum.kind == AB_CHECKSUM_JSON;
	for (i = 0; !err && i < exp->nmetrics; i++) {
		if (exp->metrics[i].source == AB_METRIC_REGEX)
			err = compile(&x->metric[i], exp->metrics[i].pattern, exp->metrics[i].name);
		x->need_json |= exp->metrics[i].source == AB_METRIC_JSON;
	}
	if (err) {
		ab_extract_free(x);
		return err;
	}
	*out = x;
	return 0;
}

void ab_extract_free(struct ab_extractor *x)
{
	size_t i;

	if (!x)
		return;
	pcre2_code_free(x->checksum);
	for (i = 0; i < x->exp->nmetrics; i++)
		pcre2_code_free(x->metric[i]);
	free(x->metric);
	pcre2_match_data_free(x->md);
	free(x);
}

int ab_extract_wants_stdout_hash(const struct ab_extractor *x)
{
	return x->exp->checksum.kind == AB_CHECKSUM_STDOUT_SHA256;
}

/* Group 1 of the last match of `re` in text that captured something (new
 * string); an empty string when every match captured nothing; NULL
 * without a match. An empty capture does not hide an earlier value: with
 * `^` and `$` matching at line ends, '(\d*)$' also matches, empty, at the
 * end of the text. *nul is set when the value holds a NUL byte, which a C
 * string would cut. */
static char *last_match(struct ab_extractor *x, pcre2_code *re, const char *text, size_t len, int *nul)
{
	PCRE2_SIZE start = 0, *ov;
	char *found = NULL;
	int rc;

	*nul = 0;
	while (start <= len &&
	       (rc = pcre2_match(re, (PCRE2_SPTR)text, len, start, 0, x->md, NULL)) > 0) {
		ov = pcre2_get_ovector_pointer(x->md);
		if (rc > 1 && ov[2] != PCRE2_UNSET && (ov[3] > ov[2] || !found)) {
			free(found);
			found = ab_xstrndup(text + ov[2], ov[3] - ov[2]);
			*nul = memchr(text + ov[2], '\0', ov[3] - ov[2]) != NULL;
		}
		start = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
	}
	return found;
}

/* The last line of text that parses as a JSON object (new reference).
 * *bad gets why the last line after it that starts with '{' is not JSON
 * (new string), or NULL: a value jansson refuses (an integer beyond 64
 * bits, 1e400) makes the whole line unreadable, and "not found" alone
 * would send the user looking for a key that is there. */
static json_t *last_json_object(const char *text, size_t len, char **bad)
{
	const char *end = text + len, *p;

	*bad = NULL;
	while (end > text) {
		json_t *o;
		json_error_t e;

		p = end;
		while (p > text && p[-1] != '\n')
			p--;
		if (p < end && *p == '{') {
			if ((o = json_loadb(p, (size_t)(end - p), JSON_DECODE_ANY, &e))) {
				if (json_is_object(o))
					return o;
				json_decref(o);
			} else if (!*bad) {
				size_t n = (size_t)(end - p);

				*bad = ab_xasprintf("; the line '%.*s%s' is not JSON: %s", n > 80 ? 80 : (int)n, p,
						    n > 80 ? "…" : "", e.text);
			}
		}
		end = p > text ? p - 1 : text;
	}
	return NULL;
}

static char *json_value_text(json_t *v, int *nul)
{
	*nul = 0;
	if (json_is_string(v)) {
		*nul = json_string_length(v) != strlen(json_string_value(v));
		return ab_xstrdup(json_string_value(v));
	}
	if (json_is_integer(v))
		return ab_xasprintf("%lld", (long long)json_integer_value(v));
	if (v && !json_is_null(v))
		return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	return NULL;
}

/* The offset of the first byte of text that is not part of valid UTF-8
 * (RFC 3629: shortest form, no surrogates, at most U+10FFFF), or len. */
static size_t invalid_utf8_at(const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0, n, j;
	uint32_t cp, min;

	while (i < len) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if ((s[i] & 0xE0) == 0xC0)
			cp = s[i] & 0x1F, n = 2, min = 0x80;
		else if ((s[i] & 0xF0) == 0xE0)
			cp = s[i] & 0x0F, n = 3, min = 0x800;
		else if ((s[i] & 0xF8) == 0xF0)
			cp = s[i] & 0x07, n = 4, min = 0x10000;
		else
			return i;
		if (n > len - i)
			return i;
		for (j = 1; j < n; j++) {
			if ((s[i + j] & 0xC0) != 0x80)
				return i;
			cp = cp << 6 | (s[i + j] & 0x3F);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return i;
		i += n;
	}
	return len;
}

/* Why a regex found nothing when stdout is not UTF-8 (new string, "" when
 * it is): PCRE2_MATCH_INVALID_UTF lets no match cross an invalid byte, so
 * a checksum printed as raw bytes is never matched although it printed. */
static char *not_utf8_hint(const char *out, size_t len)
{
	size_t at = invalid_utf8_at(out, len), line = 1, i;

	if (at == len)
		return ab_xstrdup("");
	for (i = 0; i < at; i++)
		line += out[i] == '\n';
	return ab_xasprintf("; stdout is not valid UTF-8 (byte 0x%02x at offset %zu, line %zu) and a "
			    "regex matches only UTF-8 text, so it cannot match there: print the checksum "
			    "as text (hex digits, say), or hash the whole output with "
			    "checksum: {stdout: sha256}", (unsigned char)out[at], at, line);
}

static char *regex_not_found(const char *regex, const char *out, size_t len)
{
	char *hint = not_utf8_hint(out, len),
	     *msg = ab_xasprintf("checksum not found in stdout: no match of checksum.regex '%s'%s",
				 regex, hint);

	free(hint);
	return msg;
}

static void fail(struct ab_sample *s, char *why)
{
	if (!s->error)
		s->error = why;
	else
		free(why);
}

/* The sample's checksum as the experiment's `checksum:` says, from stdout
 * `out` (its JSON line `json`, NULL when none; `bad` the reason a JSON
 * line was not read, or NULL) or the file under `workdir`; a missing,
 * empty or NUL-cut checksum fails the sample and flags it. */
static void extract_checksum(struct ab_extractor *x, struct ab_sample *s,
			     const struct ab_runner_result *r, json_t *json, const char *bad,
			     const char *workdir)
{
	const struct ab_experiment *exp = x->exp;
	const char *out = r->out.data ? r->out.data : "";
	int nul = 0;

	free(s->checksum);
	s->checksum = NULL;
	switch (exp->checksum.kind) {
	case AB_CHECKSUM_NONE:
		break;
	case AB_CHECKSUM_REGEX:
		s->checksum = last_match(x, x->checksum, out, r->out.len, &nul);
		break;
	case AB_CHECKSUM_STDOUT_SHA256:
		s->checksum = ab_xstrdup(r->out.sha256);
		break;
	case AB_CHECKSUM_JSON:
		s->checksum = json_value_text(json_object_get(json, exp->checksum.arg), &nul);
		break;
	case AB_CHECKSUM_FILE: {
		char hex[65], *path = ab_path_absolute(workdir, exp->checksum.arg);
		if (ab_sha256_file(hex, path) == 0)
			s->checksum = ab_xstrdup(hex);
		free(path);
		break;
	}
	}
	/* An empty checksum is equal on both sides whatever they computed,
	 * and one cut at a NUL byte may be: neither can show equal results. */
	if (s->checksum && (nul || !*s->checksum)) {
		const char *source = exp->checksum.kind == AB_CHECKSUM_REGEX ? "checksum.regex" : "checksum.json";

		fail(s, nul ? ab_xasprintf("the checksum holds a NUL byte (%s '%s'): print it as text",
					   source, exp->checksum.arg)
			    : exp->checksum.kind == AB_CHECKSUM_REGEX
			    ? ab_xasprintf("the checksum is empty: checksum.regex '%s' matched, but its "
					   "group captured nothing; make the group match at least one "
					   "character, e.g. (\\S+)", exp->checksum.arg)
			    : ab_xasprintf("the checksum is empty: the key '%s' (checksum.json) is an "
					   "empty string", exp->checksum.arg));
		free(s->checksum);
		s->checksum = NULL;
	}
	if (exp->checksum.kind != AB_CHECKSUM_NONE && !s->checksum) {
		s->flags |= AB_FLAG_NO_CHECKSUM;
		fail(s, exp->checksum.kind == AB_CHECKSUM_FILE
			     ? ab_xasprintf("checksum file '%s' was not written", exp->checksum.arg)
			     : exp->checksum.kind == AB_CHECKSUM_REGEX
			     ? regex_not_found(exp->checksum.arg, out, r->out.len)
			     : ab_xasprintf("checksum not found in stdout: no JSON line with the key '%s' "
					    "(checksum.json)%s", exp->checksum.arg, bad ? bad : ""));
	}
}

void ab_extract_sample(struct ab_extractor *x, struct ab_sample *s,
		       const struct ab_runner_result *r, const char *workdir)
{
	const struct ab_experiment *exp = x->exp;
	const char *out = r->out.data ? r->out.data : "";
	char *bad = NULL;
	json_t *json = x->need_json ? last_json_object(out, r->out.len, &bad) : NULL;
	size_t i;
	int nul = 0;

	free(s->metrics);
	s->nmetrics = exp->nmetrics;
	s->metrics = ab_xmalloc((exp->nmetrics ? exp->nmetrics : 1) * sizeof(double));
	for (i = 0; i < exp->nmetrics; i++) {
		const struct ab_metric *m = &exp->metrics[i];
		double v = NAN;
		char *text = NULL;

		if (m->source == AB_METRIC_BUILTIN) {
			if (!strcmp(m->name, "wall_ns"))
				v = (double)r->wall_ns;
			else if (!strcmp(m->name, "user_ns"))
				v = (double)r->user_ns;
			else if (!strcmp(m->name, "sys_ns"))
				v = (double)r->sys_ns;
			else if (!strcmp(m->name, "cpu_ns"))
				v = (double)(r->user_ns + r->sys_ns);
			else if (!strcmp(m->name, "maxrss_bytes"))
				v = (double)r->maxrss_bytes;
			s->metrics[i] = v;
			continue;
		}
		if (m->source == AB_METRIC_PERF || m->source == AB_METRIC_CACHEGRIND) {
			s->metrics[i] = NAN;  /* measured around the runner (measure.c) */
			continue;
		}
		if (m->source == AB_METRIC_REGEX)
			text = last_match(x, x->metric[i], out, r->out.len, &nul);
		else
			text = json_value_text(json_object_get(json, m->pattern), &nul);
		if (text && nul)
			fail(s, ab_xasprintf("metric '%s': the value holds a NUL byte", m->name));
		else if (text && ab_parse_double(&v, text) < 0)
			fail(s, ab_xasprintf("metric '%s': '%s' is not a number", m->name, text));
		else if (!text && m->source == AB_METRIC_REGEX) {
			char *hint = not_utf8_hint(out, r->out.len);

			fail(s, ab_xasprintf("metric '%s' not found in stdout%s", m->name, hint));
			free(hint);
		} else if (!text)
			fail(s, ab_xasprintf("metric '%s' not found in stdout%s", m->name, bad ? bad : ""));
		s->metrics[i] = v;
		free(text);
	}

	extract_checksum(x, s, r, json, bad, workdir);
	if (r->out.truncated || r->err.truncated)
		s->flags |= AB_FLAG_OUTPUT_TRUNCATED;
	if (r->leftovers)
		s->flags |= AB_FLAG_LEFTOVERS;
	json_decref(json);
	free(bad);
}
