/* shellwords.h - a command line as the words of one simple command, split
 * as a POSIX shell splits them when nothing is expanded (what hyperfine -N
 * does), and whether a command needs a shell at all: `abtool compare`
 * runs a command without /bin/sh when the shell would do nothing but
 * split it (docs/cli.md, "compare"). Pure: no process, no environment. */
#ifndef AB_SHELLWORDS_H
#define AB_SHELLWORDS_H

#include <stddef.h>

/*
 * Split `s` into words (POSIX.1-2017 XCU 2.2 and 2.6.5 without the
 * expansions): blanks (space, tab, newline) separate words; inside '...'
 * every character is literal; inside "..." every character but a
 * backslash before " \ $ ` or a newline is literal; outside quotes a
 * backslash keeps the next character (a backslash-newline is removed).
 * Quoted and unquoted parts next to each other make one word ("a"'b'c is
 * abc), and '' or "" alone is an empty word. *out: a new NULL-terminated
 * array (ab_strv_free), NULL for a blank `s`; *n its words (may be NULL).
 * AB_EINVALID, with the message set ("an unbalanced ' (opened at
 * character 7)", "a backslash at the end"), and *out NULL, otherwise 0.
 */
int ab_shellwords_split(char ***out, size_t *n, const char *s);

/*
 * Why `s` needs /bin/sh -c, as a short phrase for a message (static), or
 * NULL when running the words of ab_shellwords_split directly runs what
 * the shell would: no character the shell treats specially outside
 * single quotes (| & ; < > ( ) $ ` \ * ? [ ] ~ # and a newline; inside
 * "...", only $ ` and \ are), no assignment before the command (a first
 * word with = in it), no reserved word or built-in-only command first
 * (if, !, {, cd, export, exec, ...: POSIX.1-2017 XCU 2.4 and 2.14, and
 * dash's and bash's built-ins that have no program), no unbalanced quote,
 * and at least one word. Conservative: what it cannot tell goes to the
 * shell.
 */
const char *ab_shellwords_need_shell(const char *s);

#endif
