/* test_shellwords.c - a command line split into words as hyperfine -N and
 * a shell split it (ab_shellwords_split), checked against the words
 * /bin/sh itself makes of the same text; and which commands need a shell
 * (ab_shellwords_need_shell), as abtool compare decides by default. */
#include "testutil.h"
#include "error.h"
#include "shellwords.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A command line and its words joined by '|' ("" for none). */
struct split_case {
	const char *line;
	const char *words;
};

static const struct split_case splits[] = {
	{"sleep 0.01", "sleep|0.01"},
	{"  sleep\t 0.01 \n", "sleep|0.01"},
	{"", ""},
	{" \t", ""},
	{"./bench --size=10 -j2", "./bench|--size=10|-j2"},
	{"grep 'a b' file", "grep|a b|file"},
	{"echo \"a  b\" c", "echo|a  b|c"},
	{"echo a\"b c\"'d e'f", "echo|ab cd ef"},
	{"echo '' \"\" x", "echo|||x"},
	{"echo 'a|b;c' \"<x>\"", "echo|a|b;c|<x>"},
	{"echo \"it's\" 'say \"hi\"'", "echo|it's|say \"hi\""},
	{"echo a\\ b \\'c", "echo|a b|'c"},
	{"echo \"a\\\"b\" \"c\\d\" \"e\\\\f\"", "echo|a\"b|c\\d|e\\f"},
	{"echo 'a\\b'", "echo|a\\b"},
	{"echo a\\\nb", "echo|ab"},
	{"echo \"x\\\ny\"", "echo|xy"},
	{"echo 'x\ny'", "echo|x\ny"},
	{"\\ ", " "},
};

/* The words /bin/sh makes of `line` (printf '%s\0' LINE), joined by
 * '|'. New string. */
static char *sh_words(const char *line)
{
	char *cmd = ab_xasprintf("printf '%%s\\0' %s", line), *argv_sh = NULL, *out = ab_xstrdup("");
	char buf[4096];
	size_t n, i;
	FILE *f;
	int first = 1;

	/* the command line is the script: sh -c reads it whole */
	argv_sh = ab_shell_quote(cmd, 1);
	free(cmd);
	cmd = ab_xasprintf("/bin/sh -c %s", argv_sh);
	f = popen(cmd, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	assert_int_equal(pclose(f), 0);
	for (i = 0; i < n; i += strlen(buf + i) + 1) {
		char *next = ab_xasprintf("%s%s%s", out, first ? "" : "|", buf + i);
		free(out);
		out = next;
		first = 0;
	}
	free(argv_sh);
	free(cmd);
	return out;
}

/* The words of ab_shellwords_split joined by '|' (new string). */
static char *joined(char **words)
{
	char *out = ab_xstrdup(""), **w;

	for (w = words; w && *w; w++) {
		char *next = ab_xasprintf("%s%s%s", out, w == words ? "" : "|", *w);
		free(out);
		out = next;
	}
	return out;
}

static void test_split(void **state)
{
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(splits) / sizeof(splits[0]); i++) {
		char **words = (char **)1, *got, *sh;

		assert_int_equal(ab_shellwords_split(&words, &n, splits[i].line), 0);
		got = joined(words);
		if (strcmp(got, splits[i].words))
			fail_msg("'%s': got '%s', want '%s'", splits[i].line, got, splits[i].words);
		assert_int_equal(n, ab_strv_len(words));
		assert_true(n > 0 || words == NULL);
		/* the shell splits it alike (printf prints an empty line for no word) */
		if (n > 0) {
			sh = sh_words(splits[i].line);
			if (strcmp(got, sh))
				fail_msg("'%s': split '%s', /bin/sh '%s'", splits[i].line, got, sh);
			free(sh);
		}
		free(got);
		ab_strv_free(words);
	}
}

static void test_unbalanced(void **state)
{
	char **words = (char **)1;
	size_t n = 9;

	(void)state;
	assert_int_equal(ab_shellwords_split(&words, &n, "echo 'a b"), AB_EINVALID);
	assert_null(words);
	assert_int_equal(n, 0);
	assert_non_null(strstr(ab_error_last(), "unbalanced ' (opened at character 6)"));
	assert_int_equal(ab_shellwords_split(&words, NULL, "echo \"a 'b'"), AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), "unbalanced \" (opened at character 6)"));
	assert_int_equal(ab_shellwords_split(&words, NULL, "echo \"a\\\""), AB_EINVALID);
	assert_int_equal(ab_shellwords_split(&words, NULL, "echo a\\"), AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), "backslash at the end"));
	assert_null(words);
}

/* A command line and whether it needs a shell (NULL: no; else a word of
 * the reason). */
struct shell_case {
	const char *line;
	const char *why;
};

static const struct shell_case shells[] = {
	{"sleep 0.01", NULL},
	{"./bench --size=10 --name x.y+z -j2 @args %d ^x {lanes}", NULL},
	{"grep 'a|b;c>d$e`f\\g*h' file", NULL},
	{"echo \"a b | c\" 'it''s'", NULL},
	{"echo !x {a} 1,2 -- a:b", NULL},
	{"/usr/bin/time -v ./x", NULL},
	{"true", NULL},
	{"a | b", "'|'"},
	{"a && b", "'&'"},
	{"a &", "'&'"},
	{"a; b", "';'"},
	{"a < in", "'<'"},
	{"a > out", "'>'"},
	{"a 2>&1", "'>'"},
	{"(a)", "'('"},
	{"a $HOME", "'$'"},
	{"a `b`", "'`'"},
	{"a \\ b", "'\\'"},
	{"ls *.c", "'*'"},
	{"ls a?c", "'?'"},
	{"ls [ab]", "'['"},
	{"ls ~/x", "'~'"},
	{"a # comment", "'#'"},
	{"a\nb", "newline"},
	{"echo \"$HOME\"", "double quotes"},
	{"echo \"`id`\"", "double quotes"},
	{"echo \"a\\b\"", "double quotes"},
	{"echo 'a b", "unbalanced"},
	{"echo \"a b", "unbalanced"},
	{"", "no command"},
	{"   ", "no command"},
	{"''", NULL},
	{"A=1 ./bench", "assignment"},
	{"LC_ALL=C sort f", "assignment"},
	{"cd /tmp", "built-in"},
	{"exec ./x", "built-in"},
	{"export A=1", "built-in"},
	{". ./env.sh", "built-in"},
	{"! ./x", "reserved word"},
	{"{ ./x", "reserved word"},
	{"if", "reserved word"},
	{"time ./x", "reserved word"},
	{"ulimit -s 100", "built-in"},
};

static void test_need_shell(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(shells) / sizeof(shells[0]); i++) {
		const char *why = ab_shellwords_need_shell(shells[i].line);

		if (!shells[i].why && why)
			fail_msg("'%s' needs no shell, got '%s'", shells[i].line, why);
		if (shells[i].why && (!why || !strstr(why, shells[i].why)))
			fail_msg("'%s': want a reason with '%s', got '%s'", shells[i].line, shells[i].why,
				 why ? why : "none");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_unbalanced),
		cmocka_unit_test(test_need_shell),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
