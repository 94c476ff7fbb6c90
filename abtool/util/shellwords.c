/* shellwords.c - a command line split into words as a shell splits a
 * simple command without expansions, and whether it needs a shell (see
 * shellwords.h). */
#include "shellwords.h"
#include "error.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* The characters /bin/sh treats specially outside quotes (POSIX.1-2017
 * XCU 2.2, 2.3, 2.6, 2.9, 2.13; `~` and `#` only at a word's start or
 * after `=`/`:`, taken anywhere to be safe), each with its phrase. */
static const char specials[] = "|&;<>()$`\\*?[]~#";
static const char *const special_why[] = {
	"'|'", "'&'", "';'", "'<'", "'>'", "'('", "')'", "'$'", "'`'", "'\\'", "'*'", "'?'", "'['", "']'",
	"'~'", "'#'",
};

/* First words that mean something else to a shell than a program of that
 * name: reserved words (XCU 2.4, and bash's), and the built-ins that have
 * no program or act on the shell itself (XCU 2.14 and the regular
 * built-ins of dash and bash). A program named as a built-in that also
 * exists as one (echo, printf, test, true, kill, pwd) runs that program. */
static const char *const shell_only[] = {
	"!", "{", "}", "[[", "]]", "case", "do", "done", "elif", "else", "esac", "fi", "for", "function",
	"if", "in", "select", "then", "time", "until", "while",
	".", ":", "alias", "bg", "break", "cd", "command", "continue", "eval", "exec", "exit", "export",
	"fc", "fg", "getopts", "hash", "jobs", "local", "read", "readonly", "return", "set", "shift",
	"source", "times", "trap", "type", "ulimit", "umask", "unalias", "unset", "wait",
	NULL,
};

/* Append the word `word` (`len` bytes) to *words. */
static void push_word(char ***words, size_t *count, const char *word, size_t len)
{
	ab_strv_push(words, ab_xstrndup(word, len));
	(*count)++;
}

int ab_shellwords_split(char ***out, size_t *n, const char *s)
{
	char *word = ab_xmalloc(strlen(s) + 1), **words = NULL;
	size_t len = 0, count = 0;
	const char *p, *open;
	int in = 0, err = 0;

	for (p = s; *p && !err; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			if (in)
				push_word(&words, &count, word, len);
			in = 0;
			len = 0;
		} else if (*p == '\'' || *p == '"') {
			in = 1;
			for (open = p++; *p && *p != *open; p++) {
				/* in "...", a backslash quotes only " \ $ ` and a newline */
				if (*open == '"' && *p == '\\' && p[1] && strchr("\"\\$`\n", p[1])) {
					p++;
					if (*p == '\n')  /* a backslash-newline joins two lines */
						continue;
				}
				word[len++] = *p;
			}
			if (!*p) {
				err = ab_error_set(AB_EINVALID, "an unbalanced %c (opened at character %zu): close "
						   "it, or quote it with the other quote", *open,
						   (size_t)(open - s) + 1);
				p--;  /* the loop's p++ must not step past the end */
			}
		} else if (*p == '\\' && !p[1]) {
			err = ab_error_set(AB_EINVALID, "a backslash at the end: remove it, or write '\\' "
					   "for a backslash");
		} else if (*p == '\\') {
			if (*++p != '\n') {  /* a backslash-newline joins two lines */
				in = 1;
				word[len++] = *p;
			}
		} else {
			in = 1;
			word[len++] = *p;
		}
	}
	if (!err && in)
		push_word(&words, &count, word, len);
	free(word);
	if (err) {
		ab_strv_free(words);
		words = NULL;
		count = 0;
	}
	*out = words;
	if (n)
		*n = count;
	return err;
}

const char *ab_shellwords_need_shell(const char *s)
{
	const char *p, *hit, *why = NULL;
	const char *const *w;
	char quote = 0, **words = NULL;
	size_t n = 0;

	for (p = s; *p; p++) {
		if (*p == '\n')
			return "a newline";
		if (quote == '\'') {
			quote = *p == '\'' ? 0 : quote;
		} else if (quote == '"') {
			if (*p == '$' || *p == '`' || *p == '\\')
				return "'$', '`' or '\\' in double quotes";
			quote = *p == '"' ? 0 : quote;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
		} else if ((hit = strchr(specials, *p))) {
			return special_why[hit - specials];
		}
	}
	if (quote || ab_shellwords_split(&words, &n, s) < 0)
		return "an unbalanced quote";
	if (n == 0)
		why = "no command";
	else if (strchr(words[0], '='))
		why = "an assignment before the command";
	for (w = shell_only; !why && n && *w; w++)
		if (!strcmp(words[0], *w))
			why = "a shell's reserved word or built-in first";
	ab_strv_free(words);
	return why;
}
