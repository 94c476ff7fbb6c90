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

/*
 * The workflow-command guard (docs/security.md, "Workflow commands"). A
 * CI runner reads abtool's stdout and stderr line by line, and GitHub's
 * takes a line that starts with "::" after leading white space for a
 * workflow command (::error, ::add-mask, ::stop-commands, ...), and one
 * that holds "##[" anywhere for the older form (actions/runner,
 * ActionCommand.TryParseV2 and TryParse). abtool's own text never begins
 * a line with "::" nor holds "##[" (its own annotations are written past
 * the guard, cmd_workflow_command), so each such place is data: a space
 * goes between the two colons (": :") and before the bracket ("## ["),
 * which a reader still reads and no runner acts on. The guard remembers
 * the last bytes, so a "::" split over two writes is caught too.
 */
struct line_guard {
	int bol;       /* only blanks, or bytes from 0x80 (a UTF-8 space such as
	                  U+00A0, which the runner trims too), since the line began */
	int colon;     /* the last byte was a ':' that began its line */
	int hashes;    /* the '#'s just before (at most 2) */
	int hash_bol;  /* ... and they began their line */
	int anywhere;  /* "##[" anywhere, not only at the start (text for people:
	                  a JSON or TSV field on stdout keeps its bytes) */
};

/* Copy n bytes from `in` to `out` (room for 2n) through the guard `g`;
 * return the bytes written. */
static size_t guard_lines(struct line_guard *g, char *out, const char *in, size_t n)
{
	size_t i, w = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)in[i];

		if ((c == ':' && g->colon) || (c == '[' && g->hashes >= 2 && (g->anywhere || g->hash_bol)))
			out[w++] = ' ';
		out[w++] = (char)c;
		g->colon = c == ':' && g->bol;
		if (c == '#' && g->hashes == 0)
			g->hash_bol = g->bol;
		g->hashes = c == '#' ? (g->hashes < 2 ? g->hashes + 1 : 2) : 0;
		if (c == '\n')
			g->bol = 1;
		else if (c != ' ' && c != '\t' && c < 0x80)
			g->bol = 0;
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

/* A filtered stream: the fd it writes to, whether control characters
 * are blanked (term_clean; else only the guard applies), a 0xC2 held
 * back from the last write (the first byte of what may be a C1 control),
 * and the workflow-command guard's state. */
struct term_stream {
	int fd, clean, held;
	struct line_guard guard;
};

/* The write function of the filtered streams: term_clean() (when
 * `clean`) and the guard on the way to the fd, in pieces of at most 4 KiB. */
static ssize_t term_write(void *cookie, const char *buf, size_t n)
{
	struct term_stream *ts = cookie;
	char in[4097], tmp[4097], out[2 * 4097];
	size_t done = 0, k, pre, w;

	while (done < n) {
		pre = ts->held ? 1 : 0;
		if (pre)
			in[0] = (char)0xC2;
		k = n - done < sizeof(in) - 1 ? n - done : sizeof(in) - 1;
		memcpy(in + pre, buf + done, k);
		w = ts->clean ? term_clean(tmp, in, pre + k, 1, &ts->held) : (memcpy(tmp, in, k), k);
		w = guard_lines(&ts->guard, out, tmp, w);
		if (write_all(ts->fd, out, w) < 0)
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

/* stdout's and stderr's filters: one state each for the process, also
 * when cmd_plain_stdout replaces the guard on stdout (the line it is in
 * goes on). */
static struct term_stream out_ts = { STDOUT_FILENO, 0, 0, { 1, 0, 0, 0, 0 } };
static struct term_stream err_ts = { STDERR_FILENO, 1, 0, { 1, 0, 0, 0, 1 } };

static FILE *out_filter;  /* stdout once it is filtered */

void cmd_guard_stdout(void)
{
	FILE *f = term_filter(stdout, &out_ts, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF);

	if (f)
		stdout = out_filter = f;  /* flushed by exit() like every open stream */
}

void cmd_stdout_for_people(void)
{
	fflush(stdout);
	out_ts.guard.anywhere = 1;
}

void cmd_plain_stdout(void)
{
	FILE *f;

	fflush(stdout);
	out_ts.clean = 1;
	out_ts.guard.anywhere = 1;
	if (stdout != out_filter && (f = term_filter(stdout, &out_ts, _IOFBF)))
		stdout = out_filter = f;
}

void cmd_term_stderr(void)
{
	FILE *f;

	term_init();  /* once, before any thread could race to it */
	f = term_filter(stderr, &err_ts, _IONBF);
	if (f)
		stderr = f;  /* unbuffered, as stderr is */
}

void cmd_term_erase_line(void)
{
	fflush(stderr);
	write_all(STDERR_FILENO, "\r\033[K", 4);
}

void cmd_workflow_command(const char *line)
{
	size_t n = strlen(line);
	char *clean = ab_xmalloc(n + 2);

	fflush(stderr);
	n = term_clean(clean, line, n, 0, NULL);  /* one line, no control character */
	clean[n++] = '\n';
	if (!err_ts.guard.bol || err_ts.guard.colon || err_ts.guard.hashes)
		write_all(STDERR_FILENO, "\n", 1);  /* at the start of a line of its own */
	write_all(STDERR_FILENO, clean, n);
	err_ts.guard = (struct line_guard){ 1, 0, 0, 0, 1 };
	free(clean);
}

char *cmd_one_line(const char *s, size_t max)
{
	size_t len = s ? strlen(s) : 0, cols = 0, i, n;
	char *raw = ab_xmalloc(len + 1), *clean = ab_xmalloc(2 * len + 1), *out = ab_xmalloc(2 * len + 4);
	char *w = out;
	/* a field may begin its line (history's first column, a wrapped line) */
	struct line_guard g = { 1, 0, 0, 0, 1 };

	n = term_clean(raw, s ? s : "", len, 0, NULL);
	n = guard_lines(&g, clean, raw, n);
	free(raw);
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
