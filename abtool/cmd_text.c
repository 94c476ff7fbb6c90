/* cmd_text.c - text for the terminal: its width, display widths, one-line
 * and padded text, short times, and the terminal filter that keeps
 * control characters that users and benchmarks control off stdout and
 * stderr (see cmd.h). */
#include "cmd.h"
#include "env.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

int cmd_terminal_columns(void)
{
	struct winsize ws;

	if (!isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) < 0 || ws.ws_col == 0)
		return 0;
	return ws.ws_col;
}

int cmd_fd_columns(int fd)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	char *end;
	long n;

	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if (env && *env) {
		n = strtol(env, &end, 10);
		if (!*end && n > 0 && n < 100000)
			return (int)n;
	}
	return 80;
}

int cmd_fd_smart_terminal(int fd)
{
	const char *term = getenv("TERM");

	return isatty(fd) && !(term && !strcmp(term, "dumb"));
}

int cmd_color_wanted(int mode, int fd)
{
	const char *no = getenv("NO_COLOR");

	if (mode == CMD_COLOR_ALWAYS || mode == CMD_COLOR_NEVER)
		return mode == CMD_COLOR_ALWAYS;
	return cmd_fd_smart_terminal(fd) && !(no && *no);
}

size_t cmd_text_width(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* How the terminal's text is encoded, from the locale's LC_CTYPE as the
 * environment sets it (LC_ALL, LC_CTYPE, LANG), read once with
 * newlocale() so that abtool's own locale stays "C". */
static struct {
	int init, c1_utf8;  /* replace C1 controls as UTF-8: a UTF-8 or the C locale */
	locale_t loc;    /* (locale_t)0 when the environment's locale is unknown */
} term;

static void term_init(void)
{
	const char *codeset;

	if (term.init)
		return;
	term.init = 1;
	term.loc = newlocale(LC_CTYPE_MASK, "", (locale_t)0);
	codeset = term.loc ? nl_langinfo_l(CODESET, term.loc) : "ANSI_X3.4-1968";
	/* In "C" (ASCII) bytes from 0x80 are no text at all, and the terminal
	 * is most likely UTF-8, which would act on a C1 control in UTF-8. */
	term.c1_utf8 = !strcasecmp(codeset, "UTF-8") || !strcasecmp(codeset, "utf8") ||
		    !strcmp(codeset, "ANSI_X3.4-1968");
}

/*
 * Copy n bytes of terminal text from `in` to `out` (room for n bytes)
 * with every control character replaced by one space, and return the
 * bytes written. Control characters: the C0 set and DEL always (newline
 * and tab kept when `lines`); in a UTF-8 or the "C" locale also the C1
 * set U+0080-U+009F as UTF-8 (0xC2 0x80-0x9F: CSI 0x9B, OSC 0x9D, ... to
 * a UTF-8 terminal), and in another locale each byte the locale calls a
 * control (iscntrl_l: the raw bytes 0x80-0x9F of ISO 8859; none in a
 * multibyte locale such as GBK, where 0xC2 0x9B is a character). Raw
 * bytes 0x80-0x9F in a UTF-8 locale are continuation bytes or invalid
 * UTF-8, which a UTF-8 terminal shows as U+FFFD and never acts on: kept
 * (docs/security.md, "Terminal text"). *held is set when the last byte
 * is such a 0xC2 and `held` is given: it is not written, and the caller
 * passes it first with the next bytes.
 */
static size_t term_clean(char *out, const char *in, size_t n, int lines, int *held)
{
	size_t i, w = 0;

	term_init();
	if (held)
		*held = 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)in[i];

		if ((c < 0x20 && !(lines && (c == '\n' || c == '\t'))) || c == 0x7f) {
			out[w++] = ' ';
		} else if (term.c1_utf8 && c == 0xC2 && i + 1 == n && held) {
			*held = 1;
		} else if (term.c1_utf8 && c == 0xC2 && i + 1 < n &&
			   (unsigned char)in[i + 1] >= 0x80 && (unsigned char)in[i + 1] <= 0x9F) {
			out[w++] = ' ';
			i++;
		} else if (!term.c1_utf8 && c >= 0x80 && term.loc && iscntrl_l(c, term.loc)) {
			out[w++] = ' ';
		} else {
			out[w++] = (char)c;
		}
	}
	return w;
}

static int write_all(int fd, const char *buf, size_t n)
{
	size_t i = 0;

	while (i < n) {
		ssize_t w = write(fd, buf + i, n - i);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		i += (size_t)w;
	}
	return 0;
}

/* A terminal filter's stream: the fd it writes to, and a 0xC2 held back
 * from the last write (the first byte of what may be a C1 control). */
struct term_stream {
	int fd, held;
};

/* The write function of the filtered streams: term_clean() on the way
 * to the fd, in pieces of at most 4 KiB. */
static ssize_t term_write(void *cookie, const char *buf, size_t n)
{
	struct term_stream *ts = cookie;
	char in[4097], tmp[4097];
	size_t done = 0, k, pre, w;

	while (done < n) {
		pre = ts->held ? 1 : 0;
		if (pre)
			in[0] = (char)0xC2;
		k = n - done < sizeof(in) - 1 ? n - done : sizeof(in) - 1;
		memcpy(in + pre, buf + done, k);
		w = term_clean(tmp, in, pre + k, 1, &ts->held);
		if (write_all(ts->fd, tmp, w) < 0)
			return done ? (ssize_t)done : -1;
		done += k;
	}
	return (ssize_t)n;
}

/* At fclose: a 0xC2 still held is written as it is (invalid UTF-8). */
static int term_close(void *cookie)
{
	struct term_stream *ts = cookie;

	if (ts->held)
		write_all(ts->fd, "\xC2", 1);
	ts->held = 0;
	return 0;
}

/* `stream` (stdout or stderr) replaced by a filter of its fd through
 * `ts` (static: the streams live as long as the process); NULL when the
 * filter cannot be made (the stream is left as it was). */
static FILE *term_filter(FILE *stream, struct term_stream *ts, int mode)
{
	static const cookie_io_functions_t io = { .write = term_write, .close = term_close };
	FILE *f;

	fflush(stream);
	if (!(f = fopencookie(ts, "w", io)))
		return NULL;
	setvbuf(f, NULL, mode, mode == _IONBF ? 0 : 8192);
	return f;
}

void cmd_plain_stdout(void)
{
	static struct term_stream ts = { STDOUT_FILENO, 0 };
	FILE *f = term_filter(stdout, &ts, _IOFBF);

	if (f)
		stdout = f;  /* flushed by exit() like every open stream */
}

void cmd_term_stderr(void)
{
	static struct term_stream ts = { STDERR_FILENO, 0 };
	FILE *f;

	term_init();  /* once, before any thread could race to it */
	f = term_filter(stderr, &ts, _IONBF);
	if (f)
		stderr = f;  /* unbuffered, as stderr is */
}

void cmd_term_erase_line(void)
{
	fflush(stderr);
	write_all(STDERR_FILENO, "\r\033[K", 4);
}

char *cmd_one_line(const char *s, size_t max)
{
	size_t len = s ? strlen(s) : 0, cols = 0, i, n;
	char *clean = ab_xmalloc(len + 1), *out = ab_xmalloc(len + 4), *w = out;

	n = term_clean(clean, s ? s : "", len, 0, NULL);
	clean[n] = '\0';
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)clean[i];
		int starts = (c & 0xc0) != 0x80;

		if (starts && max && cols == max - 1 && cmd_text_width(clean + i) > 1) {
			memcpy(w, "…", strlen("…"));
			w += strlen("…");
			break;
		}
		cols += starts;
		*w++ = (char)c;
	}
	*w = '\0';
	free(clean);
	return out;
}

void cmd_put_padded(FILE *f, const char *s, size_t width)
{
	size_t n = cmd_text_width(s);

	fputs(s, f);
	for (; n < width; n++)
		fputc(' ', f);
}

const char *cmd_short_time(char *buf, size_t size, const char *iso)
{
	if (!iso || strlen(iso) < 16)
		snprintf(buf, size, "%s", iso ? iso : "-");
	else
		snprintf(buf, size, "%.10s %.5s", iso, iso + 11);
	return buf;
}

void cmd_print_host(const json_t *host)
{
	json_t *w = ab_env_warnings(host, -1), *x;
	size_t i;

	json_array_foreach(w, i, x)
		if (!strcmp(json_string_value(json_object_get(x, "level")), "warning"))
			cmd_warn("host: %s", json_string_value(json_object_get(x, "message")));
	json_decref(w);
}
