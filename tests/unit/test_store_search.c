/* test_store_search.c - what the full-text search reads of a run's
 * reasons (store/store_search.c): the rules' names, the rows and the
 * findings that carry a row's outcome, without abtool's explanations, on
 * reasons as abtool writes them (and as older versions wrote them). */
#include "testutil.h"
#include "store_search.h"

#include <stdlib.h>
#include <string.h>

/* The search text of `reasons` (a JSON array) for the rules `rules`, as
 * one line with " | " between its parts. New string. */
static char *searched(const char *reasons, char *const *rules)
{
	char *text = ab_store_search_text(reasons, rules), *p;

	assert_non_null(text);
	for (p = text; (p = strchr(p, '\n'));)
		*p = '|';
	return text;
}

static void expect(const char *reasons, char *const *rules, const char *want)
{
	char *got = searched(reasons, rules);

	if (strcmp(got, want))
		fail_msg("reasons %s\n  searched '%s'\n  expected '%s'", reasons, got, want);
	free(got);
}

/* A failing bound beside a passing count of wins ("[fail]", "[pass]"):
 * the failing one, without its meaning, Holm's clause or the noise. */
static void test_marked_findings(void **state)
{
	char *rules[] = {"material gain", NULL};

	(void)state;
	expect("[\"material gain: load=heavy: ratio 0.990 [0.990, 0.990] (6/6 pair wins): lower bound 0.990 "
	       "above 0.909 = 1/1.1 (a gain below 10%), kept by Holm's adjustment over the verdict's 2 "
	       "refutations (one-sided adjusted p 0.0312) [fail], 6 pair wins, at least the 5 needed "
	       "(observed; noise alone reaches 5 of 6 with probability 10.9%) [pass]: fail\"]", rules,
	       "material gain|load=heavy: ratio 0.990|lower bound 0.990 above 0.909 = 1/1.1");
	/* in the older order (passing first), the same */
	expect("[\"material gain: all: ratio 0.990 [0.990, 0.990] (6/6 pair wins): 6 pair wins, at least the "
	       "5 needed (observed; noise alone reaches 5 of 6 with probability 10.9%) [pass], upper bound "
	       "0.990 above 0.909 = 1/1.1 (a gain below 10%) [fail]: fail\"]", rules,
	       "material gain|all: ratio 0.990|upper bound 0.990 above 0.909 = 1/1.1");
}

/* Findings that all carry the row's outcome (unmarked): each stated,
 * their explanations gone. */
static void test_unmarked_findings(void **state)
{
	char *rules[] = {"gain", "wins", NULL};

	(void)state;
	expect("[\"gain: all: v ratio 1.500 [1.500, 1.500] (0/6 pair wins): lower bound 1.500 above 0.909 = "
	       "1/1.1 (a gain below 10%), kept by Holm's adjustment over the verdict's 2 refutations "
	       "(one-sided adjusted p 0.0156), 0 pair wins, fewer than the 5 needed: they refute a share "
	       "of wins of 83.3% (one-sided binomial p 2.14e-05, 4.29e-05 after Holm's adjustment over the "
	       "verdict's 2 refutations): fail\"]", rules,
	       "gain|all: v ratio 1.500|lower bound 1.500 above 0.909 = 1/1.1, 0 pair wins, fewer than the 5 "
	       "needed");
	expect("[\"wins: all: ratio 0.866 [0.500, 1.500] (4/6 pair wins): 4 pair wins, fewer than the 5 "
	       "needed, but not fewer than noise allows: they do not refute a share of wins of 83.3% "
	       "(one-sided binomial p 0.263, above 0.05): inconclusive\"]", rules,
	       "wins|all: ratio 0.866|4 pair wins, fewer than the 5 needed");
	expect("[\"gain: lanes=1: ratio 1.000 [0.990, 1.010] (3/6 pair wins): cannot show a gain of 10% (the "
	       "interval contains 0.909): inconclusive\"]", rules,
	       "gain|lanes=1: ratio 1.000|cannot show a gain of 10%");
}

/* A rule's rows, joined with "; " (a "; " inside a remark is not a row's
 * end); a metric that was unavailable. */
static void test_rows(void **state)
{
	char *rules[] = {"same lanes", "wins", NULL};

	(void)state;
	expect("[\"same lanes: mode=plain lanes=1: lanes_seen ratio 1.000 [1.000, 1.000] (0/6 pair wins): "
	       "lower bound 1.000 above 0.990 = 1/1.01 (a cost below 1%), but not after Holm's adjustment "
	       "over 4 rows (p 0.0625): inconclusive; mode=plain lanes=2: lanes_seen ratio 1.000 [1.000, "
	       "1.000] (0/6 pair wins): 6 pair wins, at least the 5 needed (observed; noise alone reaches 5 "
	       "of 6 with probability 10.9%): inconclusive\"]", rules,
	       "same lanes|mode=plain lanes=1: lanes_seen ratio 1.000|lower bound 1.000 above 0.990 = 1/1.01|"
	       "mode=plain lanes=2: lanes_seen ratio 1.000|6 pair wins, at least the 5 needed");
	expect("[\"wins: all: idle unavailable: min_pair_wins: zero or negative values: ratios are undefined: "
	       "inconclusive\"]", rules,
	       "wins|all: idle unavailable|min_pair_wins: zero or negative values: ratios are undefined");
}

/* A rule's name is the user's: kept whole when the run's rules name it,
 * its remarks otherwise dropped with the row's. */
static void test_rule_names(void **state)
{
	char *rules[] = {"gain", "gain (4 lanes)", NULL};
	const char *reason = "[\"gain (4 lanes): lanes=4: ratio 1.100 [1.050, 1.150] (0/6 pair wins): lower "
			     "bound 1.050 above 0.909 = 1/1.1 (a gain below 10%): fail\"]";

	(void)state;
	expect(reason, rules, "gain (4 lanes)|lanes=4: ratio 1.100|lower bound 1.050 above 0.909 = 1/1.1");
	expect(reason, NULL, "gain: lanes=4: ratio 1.100|lower bound 1.050 above 0.909 = 1/1.1");
}

/* Other reasons whole; "no acceptance rules" without its advice; text
 * that is no JSON array as it is. */
static void test_other_reasons(void **state)
{
	char *text;

	(void)state;
	expect("[\"lanes=1: checksum mismatch: parent printed '7919' (1 sample), candidate printed '7920' (1 "
	       "sample)\", \"only 5 of 12 planned samples ran\"]", NULL,
	       "lanes=1: checksum mismatch: parent printed '7919' (1 sample), candidate printed '7920' (1 "
	       "sample)|only 5 of 12 planned samples ran");
	expect("[\"no acceptance rules: add an 'accept:' list to the experiment file (or give abtool analyze "
	       "--accept RULES.yaml)\"]", NULL, "no acceptance rules");
	expect("[\"environment.require: load 2.50 above 1 (require: {max_load: 1})\", \"without that, the rules "
	       "would have said: rejected\"]", NULL,
	       "environment.require: load 2.50 above 1 (require: {max_load: 1})|without that, the rules would "
	       "have said: rejected");
	expect("[\"gain: selects no row: inconclusive\"]", NULL, "gain: selects no row: inconclusive");
	expect("[]", NULL, "");
	expect("not json", NULL, "not json");
	text = ab_store_search_text(NULL, NULL);
	assert_null(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_marked_findings),
		cmocka_unit_test(test_unmarked_findings),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_rule_names),
		cmocka_unit_test(test_other_reasons),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
