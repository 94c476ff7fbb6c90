/* util.c - see util.h. */
#include "util.h"
#include "error.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

static void out_of_memory(void)
{
	fputs("abtool: out of memory\n", stderr);
	exit(70);
}

void *ab_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *ab_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *ab_xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *ab_xstrdup(const char *s)
{
	char *p;
	if (!s)
		return NULL;
	p = strdup(s);
	if (!p)
		out_of_memory();
	return p;
}

char *ab_xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	if (!p)
		out_of_memory();
	return p;
}

char *ab_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		out_of_memory();
	return s;
}

void ab_grow(void *arr, size_t *alloc, size_t n, size_t size)
{
	void **p = arr;
	size_t want;

	if (n <= *alloc)
		return;
	want = *alloc ? *alloc : 8;
	while (want < n)
		want *= 2;
	*p = ab_xrealloc(*p, want * size);
	*alloc = want;
}

size_t ab_strv_len(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

void ab_strv_push(char ***list, char *s)
{
	size_t n = ab_strv_len(*list);

	*list = ab_xrealloc(*list, (n + 2) * sizeof(**list));
	(*list)[n] = s;
	(*list)[n + 1] = NULL;
}

void ab_strv_append(char ***list, size_t *n, char *s)
{
	size_t cap = 2;

	while (cap < *n + 2)
		cap *= 2;
	*list = ab_xrealloc(*list, cap * sizeof(**list));
	(*list)[(*n)++] = s;
	(*list)[*n] = NULL;
}

void ab_strv_free(char **v)
{
	char **p;
	if (!v)
		return;
	for (p = v; *p; p++)
		free(*p);
	free(v);
}

int ab_read_file(char **out, size_t *len, const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, alloc = 0, r;

	*out = NULL;
	if (!f)
		return ab_error_set(errno == ENOENT ? AB_ENOTFOUND : AB_EIO,
				    "cannot read '%s': %s", path, strerror(errno));
	for (;;) {
		AB_GROW(buf, alloc, n + 65536);
		r = fread(buf + n, 1, alloc - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;
		fclose(f);
		free(buf);
		return ab_error_set(AB_EIO, "cannot read '%s': %s", path, strerror(e));
	}
	fclose(f);
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

int ab_write_file(const char *path, const void *data, size_t len)
{
	char *tmp = ab_xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	const char *p = data;
	int err = 0;

	if (fd < 0) {
		err = ab_error_set(AB_EIO, "cannot write '%s': %s", path, strerror(errno));
		goto out_free;
	}
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			err = ab_error_set(AB_EIO, "cannot write '%s': %s", path, strerror(errno));
			goto out_close;
		}
		p += w;
		len -= (size_t)w;
	}
	if (fsync(fd) < 0)
		err = ab_error_set(AB_EIO, "cannot write '%s': %s", path, strerror(errno));
out_close:
	if (close(fd) < 0 && !err)
		err = ab_error_set(AB_EIO, "cannot write '%s': %s", path, strerror(errno));
	if (!err && rename(tmp, path) < 0)
		err = ab_error_set(AB_EIO, "cannot write '%s': %s", path, strerror(errno));
	if (err)
		unlink(tmp);
out_free:
	free(tmp);
	return err;
}

int ab_mkdir_p(const char *path)
{
	return ab_mkdir_p_mode(path, 0777);
}

int ab_mkdir_p_mode(const char *path, unsigned mode)
{
	char *p = ab_xstrdup(path), *s;
	int err = 0;

	for (s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;
			*s = '\0';
			if (mkdir(p, (mode_t)mode) < 0 && errno != EEXIST) {
				err = ab_error_set(AB_EIO, "cannot create directory '%s': %s",
						   p, strerror(errno));
				break;
			}
			*s = c;
			if (c == '\0')
				break;
		}
	}
	free(p);
	return err;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

int ab_remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : ab_error_set(AB_EIO, "cannot remove '%s': %s",
							  path, strerror(errno));
	if (nftw(path, remove_entry, 32, FTW_DEPTH | FTW_PHYS) < 0)
		return ab_error_set(AB_EIO, "cannot remove '%s': %s", path, strerror(errno));
	return 0;
}

char *ab_path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return ab_xasprintf("%.*s/%s", (int)n, dir, name);
}

char *ab_shell_quote(const char *s, int always)
{
	const char *p;
	char *out, *o;

	for (p = s; *p; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_./=:,@%+-", *p))
			break;
	if (!always && *s && !*p)
		return ab_xstrdup(s);
	o = out = ab_xmalloc(4 * strlen(s) + 3);
	*o++ = '\'';
	for (p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

char *ab_path_absolute(const char *base, const char *path)
{
	char *joined, *out, *seg, *save = NULL;
	char cwd[PATH_MAX];
	size_t len = 0;

	if (path[0] == '/') {
		joined = ab_xstrdup(path);
	} else {
		if (!base) {
			if (!getcwd(cwd, sizeof(cwd)))
				strcpy(cwd, "/");
			base = cwd;
		}
		joined = ab_path_join(base, path);
	}
	/* Normalise ".", ".." and repeated slashes lexically. */
	out = ab_xmalloc(strlen(joined) + 2);
	out[0] = '\0';
	for (seg = strtok_r(joined, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
		if (!strcmp(seg, "."))
			continue;
		if (!strcmp(seg, "..")) {
			while (len > 0 && out[len - 1] != '/')
				len--;
			if (len > 0)
				len--;
			out[len] = '\0';
			continue;
		}
		out[len++] = '/';
		strcpy(out + len, seg);
		len += strlen(seg);
	}
	if (len == 0)
		strcpy(out, "/");
	free(joined);
	return out;
}

char *ab_cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && xdg[0] == '/')
		return ab_path_join(xdg, "abtool");
	return ab_xasprintf("%s/.cache/abtool", home && *home ? home : "/tmp");
}

struct ab_sha256 {
	EVP_MD_CTX *md;
};

struct ab_sha256 *ab_sha256_new(void)
{
	struct ab_sha256 *ctx = ab_xmalloc(sizeof(*ctx));

	ctx->md = EVP_MD_CTX_new();
	if (!ctx->md || EVP_DigestInit_ex(ctx->md, EVP_sha256(), NULL) != 1)
		out_of_memory();
	return ctx;
}

void ab_sha256_update(struct ab_sha256 *ctx, const void *data, size_t len)
{
	EVP_DigestUpdate(ctx->md, data, len);
}

void ab_sha256_final(struct ab_sha256 *ctx, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;

	EVP_DigestFinal_ex(ctx->md, md, &n);
	for (i = 0; i < n && i < 32; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	hex[64] = '\0';
	EVP_MD_CTX_free(ctx->md);
	free(ctx);
}

void ab_sha256_hex(char hex[65], const void *data, size_t len)
{
	struct ab_sha256 *ctx = ab_sha256_new();
	ab_sha256_update(ctx, data, len);
	ab_sha256_final(ctx, hex);
}

int ab_sha256_file(char hex[65], const char *path)
{
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "rb");
	struct ab_sha256 *ctx;

	if (!f)
		return ab_error_set(errno == ENOENT ? AB_ENOTFOUND : AB_EIO,
				    "cannot read '%s': %s", path, strerror(errno));
	ctx = ab_sha256_new();
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		ab_sha256_update(ctx, buf, n);
	ab_sha256_final(ctx, hex);
	if (ferror(f)) {
		fclose(f);
		return ab_error_set(AB_EIO, "cannot read '%s'", path);
	}
	fclose(f);
	return 0;
}

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

int ab_parse_duration_ms(int64_t *out, const char *text)
{
	static const struct { const char *unit; double ms; } units[] = {
		{"us", 0.001}, {"µs", 0.001}, {"ms", 1}, {"s", 1000},
		{"m", 60000}, {"min", 60000}, {"h", 3600000}, {"d", 86400000},
	};
	char *end;
	double v;
	size_t i;

	if (!text || !*text || !strchr("0123456789.", *text))
		return -1;
	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || !isfinite(v) || v <= 0)
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

	if (!text || !*text || !strchr("0123456789.", *text))
		return -1;
	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || !isfinite(v) || v < 0)
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

int64_t ab_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int64_t ab_epoch_ns(int64_t monotonic_ns)
{
	struct timespec wall;
	int64_t mono = ab_now_ns();

	clock_gettime(CLOCK_REALTIME, &wall);
	return monotonic_ns + ((int64_t)wall.tv_sec * 1000000000LL + wall.tv_nsec - mono);
}

void ab_utc_iso8601(char *buf, size_t size, int64_t unix_seconds)
{
	time_t t = (time_t)unix_seconds;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
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

size_t ab_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *row, result;

	if (la > 64 || lb > 64)
		return (size_t)-1;
	row = ab_xmalloc((lb + 1) * sizeof(*row));
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t prev = row[0], tmp;
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	result = row[lb];
	free(row);
	return result;
}

const char *ab_suggest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t best_d = 3, i, d;

	for (i = 0; i < n; i++) {
		d = ab_edit_distance(word, cands[i]);
		if (d < best_d && d < strlen(word)) {
			best = cands[i];
			best_d = d;
		}
	}
	return best;
}
