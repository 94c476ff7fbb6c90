/* cmd_text.c - text for the terminal: its width, display widths, one-line
 * and padded text, short times, and the filter that keeps control
 * characters off stdout (see cmd.h). */
#include "cmd.h"
#include "util.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int cmd_terminal_columns(void)
{
	struct winsize ws;

	if (!isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) < 0 || ws.ws_col == 0)
		return 0;
	return ws.ws_col;
}

size_t cmd_text_width(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The write function of cmd_plain_stdout's stream: control characters
 * other than newline and tab become spaces on their way to fd 1. */
static ssize_t plain_write(void *cookie, const char *buf, size_t n)
{
	char tmp[4096];
	size_t done = 0, k, i;

	(void)cookie;
	while (done < n) {
		k = n - done < sizeof(tmp) ? n - done : sizeof(tmp);
		for (i = 0; i < k; i++) {
			unsigned char c = (unsigned char)buf[done + i];
			tmp[i] = (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ? ' ' : (char)c;
		}
		for (i = 0; i < k;) {
			ssize_t w = write(STDOUT_FILENO, tmp + i, k - i);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return done ? (ssize_t)done : -1;
			i += (size_t)w;
		}
		done += k;
	}
	return (ssize_t)n;
}

void cmd_plain_stdout(void)
{
	static const cookie_io_functions_t io = { .write = plain_write };
	FILE *f;

	fflush(stdout);
	if ((f = fopencookie(NULL, "w", io))) {
		setvbuf(f, NULL, _IOFBF, 8192);
		stdout = f;  /* flushed by exit() like every open stream */
	}
}

char *cmd_one_line(const char *s, size_t max)
{
	size_t len = s ? strlen(s) : 0, cols = 0, i;
	char *out = ab_xmalloc(len + 4), *w = out;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		int starts = (c & 0xc0) != 0x80;

		if (starts && max && cols == max - 1 && cmd_text_width(s + i) > 1) {
			memcpy(w, "…", strlen("…"));
			w += strlen("…");
			break;
		}
		cols += starts;
		*w++ = c < 0x20 || c == 0x7f ? ' ' : (char)c;
	}
	*w = '\0';
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
