/* test_cmd_options.c - the option parser of the command layer
 * (cmd_parse_options, cli/cmd_options.c): a table of any length, integer
 * arguments within the option's bounds, and an option whose code its
 * group's handler does not know stopping abtool (an assert), not falling
 * into another option. */
#include "testutil.h"
#include "cmd.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* cmd_help (reached from the parser's --help) reads the command table of
 * main.c, which is not in a library: the tests' own. */
static const struct cmd_option no_options[] = {CMD_OPTIONS_END};
const struct ab_command_entry ab_commands[] = {
	{"t", NULL, "", "the tests' command", no_options},
	{NULL, NULL, NULL, NULL, NULL},
};

struct seen {
	int code;
	const char *arg;
};

static int own(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	struct seen *s = args->ctx;

	s->code = o->code;
	s->arg = arg;
	return CMD_GO_ON;
}

/* Parse `argv` (NULL-terminated, argv[0] the program) with `options`. */
static int parse(struct cmd_args *args, const struct cmd_option *options, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	return cmd_parse_options(args, options, argc, argv);
}

/* Tables once held at most 48 options, and the 49th and later were cut
 * without a word: the last of 64 must parse. */
static void test_long_table(void **state)
{
	struct cmd_option options[65];
	char names[64][8];
	struct seen seen = {-1, NULL};
	struct cmd_args args;
	char *argv[] = {"abtool t", "--o63", "value", "--o00", "first", NULL};
	char *last[] = {"abtool t", "--o63", "v", NULL};
	int i;

	(void)state;
	for (i = 0; i < 64; i++) {
		snprintf(names[i], sizeof(names[i]), "o%02d", i);
		options[i] = (struct cmd_option){names[i], 0, "X", "an option", NULL, CMD_OWN, i, 0, 0};
	}
	options[64] = (struct cmd_option)CMD_OPTIONS_END;
	cmd_args_init(&args, "t", own, &seen);
	assert_int_equal(parse(&args, options, last), CMD_GO_ON);
	assert_int_equal(seen.code, 63);
	assert_string_equal(seen.arg, "v");
	assert_int_equal(parse(&args, options, argv), CMD_GO_ON);
	assert_int_equal(seen.code, 0);
	assert_string_equal(seen.arg, "first");
	cmd_args_release(&args);
}

/* --pairs, --max-pairs and --warmup within their bounds, --seed from 0. */
static void test_bounds(void **state)
{
	static const struct cmd_option options[] = {
		CMD_PLAN_OPTIONS(1, "pairs per row", NULL), CMD_MAX_PAIRS_OPTION, CMD_OPTIONS_END,
	};
	char *good[] = {"abtool t", "--pairs", "5", "--max-pairs", "12", "--warmup", "3", "--seed", "7",
			NULL};
	char *pairs0[] = {"abtool t", "--pairs", "0", NULL};
	char *max_high[] = {"abtool t", "--max-pairs", "257", NULL};
	char *warmup_neg[] = {"abtool t", "--warmup", "-1", NULL};
	char *seed_neg[] = {"abtool t", "--seed", "-1", NULL};
	char *max_edge[] = {"abtool t", "--max-pairs", "256", "--pairs", "100000", NULL};
	struct cmd_args args;

	(void)state;
	cmd_args_init(&args, "t", NULL, NULL);
	assert_int_equal(parse(&args, options, good), CMD_GO_ON);
	assert_int_equal(args.run.pairs, 5);
	assert_int_equal(args.run.max_pairs, 12);
	assert_int_equal(args.run.have_warmup, 1);
	assert_int_equal(args.run.warmup, 3);
	assert_int_equal(args.run.have_seed, 1);
	assert_int_equal(args.run.seed, 7);
	assert_int_equal(parse(&args, options, max_edge), CMD_GO_ON);
	assert_int_equal(args.run.max_pairs, 256);
	assert_int_equal(args.run.pairs, 100000);
	assert_int_equal(parse(&args, options, pairs0), AB_EXIT_USAGE);
	assert_int_equal(parse(&args, options, max_high), AB_EXIT_USAGE);
	assert_int_equal(parse(&args, options, warmup_neg), AB_EXIT_USAGE);
	assert_int_equal(parse(&args, options, seed_neg), AB_EXIT_USAGE);
	cmd_args_release(&args);
}

/* An option of a shared group with a code the group's handler does not
 * know once fell into the group's last branch (--parent for any code of
 * CMD_REVISIONS): it is an assert now, in every build but Release. */
static void test_unknown_code_asserts(void **state)
{
	static const struct cmd_option options[] = {
		{"other", 0, "REV", "not a revision option", NULL, CMD_REVISIONS, 'z', 0, 0},
		CMD_OPTIONS_END,
	};
	char *argv[] = {"abtool t", "--other", "x", NULL};
	int status;
	pid_t pid;

	(void)state;
#ifdef NDEBUG
	skip();
#endif
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct cmd_args args;

		/* the assert's message is expected: keep it out of the test's output */
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		cmd_args_init(&args, "t", NULL, NULL);
		parse(&args, options, argv);
		_exit(args.run.parent ? 2 : 0);  /* reached only without the assert */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_table),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_unknown_code_asserts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
