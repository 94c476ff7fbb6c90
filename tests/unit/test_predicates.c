/* Unit tests of the table of rule predicates (predicates.h): it agrees
 * with docs/rules.md, and its entries are consistent. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "predicates.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The docs' sections of "## Predicates" and the kind each documents */
static const struct {
	const char *heading;
	enum ab_predicate_kind kind;
} sections[] = {
	{ "### Inferential", AB_PREDICATE_INFERENTIAL },
	{ "### Observational", AB_PREDICATE_OBSERVATIONAL },
	{ "### Dispersion gates", AB_PREDICATE_GATE },
	{ "### Integrity", AB_PREDICATE_INTEGRITY },
};

#define MAX_DOCUMENTED 64

struct documented {
	char name[64];
	enum ab_predicate_kind kind;
};

/* The predicates docs/rules.md documents: the key at the start of the
 * first cell of each table row ("| `faster_by: δ` | ...") in the sections
 * of "## Predicates", with the section's kind. */
static size_t read_docs(struct documented *out)
{
	const char *src = getenv("ABTOOL_TEST_SRC");
	char *path, line[4096];
	FILE *f;
	size_t n = 0, i;
	int in_predicates = 0, kind = -1;

	assert_non_null(src);
	path = ab_path_join(src, "docs/rules.md");
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		size_t len;

		if (!strncmp(line, "## ", 3)) {
			in_predicates = !strncmp(line, "## Predicates", 13);
			kind = -1;
			continue;
		}
		if (!in_predicates)
			continue;
		for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
			if (!strncmp(line, sections[i].heading, strlen(sections[i].heading)))
				kind = (int)sections[i].kind;
		if (kind < 0 || strncmp(line, "| `", 3))
			continue;
		len = strspn(line + 3, "abcdefghijklmnopqrstuvwxyz_");
		assert_true(len > 0 && len < sizeof(out->name));
		assert_true(n < MAX_DOCUMENTED);
		memcpy(out[n].name, line + 3, len);
		out[n].name[len] = '\0';
		out[n].kind = (enum ab_predicate_kind)kind;
		n++;
	}
	fclose(f);
	free(path);
	return n;
}

/* Every predicate of the table is documented in its kind's section, and
 * the docs document none that the table lacks. */
static void test_table_matches_docs(void **state)
{
	struct documented docs[MAX_DOCUMENTED];
	const struct ab_predicate *p;
	size_t n, i;

	(void)state;
	n = read_docs(docs);
	assert_true(n >= 10);
	for (p = ab_predicates; p->name; p++) {
		for (i = 0; i < n; i++)
			if (!strcmp(docs[i].name, p->name) && docs[i].kind == p->kind)
				break;
		if (i == n)
			fail_msg("predicate '%s' (%s%s) is not documented in its section of docs/rules.md",
				 p->name, p->form ? "form " : "", p->form ? p->form : "");
	}
	for (i = 0; i < n; i++) {
		for (p = ab_predicates; p->name; p++)
			if (!strcmp(docs[i].name, p->name) && docs[i].kind == p->kind)
				break;
		if (!p->name)
			fail_msg("docs/rules.md documents '%s', which the table of predicates lacks "
				 "(or has with another kind)", docs[i].name);
	}
}

/* Entries that decide on the interval have their reasons; a key with
 * several entries names each form; clearing unsets every entry. */
static void test_table_is_consistent(void **state)
{
	const struct ab_predicate *p, *q;
	struct ab_rule r;

	(void)state;
	memset(&r, 0, sizeof(r));
	ab_predicates_clear(&r);
	for (p = ab_predicates; p->name; p++) {
		assert_false(ab_predicate_is_set(p, &r));
		assert_true(p->offset + sizeof(int) <= sizeof(struct ab_rule));
		if (p->decide == AB_DECIDE_BOUND || p->decide == AB_DECIDE_EQUIVALENCE) {
			assert_int_equal(p->kind, AB_PREDICATE_INFERENTIAL);
			assert_non_null(p->meaning);
			assert_non_null(p->refuted);
			assert_non_null(p->inconclusive);
		}
		for (q = ab_predicates; q->name; q++)
			if (q != p && !strcmp(q->name, p->name)) {
				assert_non_null(p->form);
				assert_true(q->arg == p->arg);
				assert_true(q->offset != p->offset);
			}
		assert_ptr_equal(ab_predicate_find(p->name, p->form), p);
	}
	assert_null(ab_predicate_find("no_such_predicate", NULL));
}

/* θ for a lower- and a higher-is-better metric (docs/rules.md) */
static void test_theta(void **state)
{
	const struct ab_predicate *p = ab_predicate_find("faster_by", NULL);
	enum ab_pass_side side;
	int reciprocal;
	double theta;

	(void)state;
	theta = ab_predicate_theta(p, 0.05, AB_LOWER_IS_BETTER, &side, &reciprocal);
	assert_true(fabs(theta - 1 / 1.05) < 1e-12);
	assert_int_equal(side, AB_PASS_BELOW);
	assert_int_equal(reciprocal, 1);
	theta = ab_predicate_theta(p, 0.05, AB_HIGHER_IS_BETTER, &side, &reciprocal);
	assert_true(fabs(theta - 1.05) < 1e-12);
	assert_int_equal(side, AB_PASS_ABOVE);
	assert_int_equal(reciprocal, 0);
	p = ab_predicate_find("min_ratio", "bound");
	theta = ab_predicate_theta(p, 1.1, AB_HIGHER_IS_BETTER, &side, &reciprocal);
	assert_true(theta == 1.1);
	assert_int_equal(side, AB_PASS_ABOVE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_matches_docs),
		cmocka_unit_test(test_table_is_consistent),
		cmocka_unit_test(test_theta),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
