/* experiment_rows.c - a subset of the matrix (--row NAME=VALUE) and the
 * base rows of the scaling predicates (experiment.h). The subset is a
 * flag per row of the experiment's own numbering, so that row indices in
 * the plan, the store and the reports stay the experiment's. */
#include "experiment.h"
#include "error.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

long ab_experiment_scaling_base(const struct ab_experiment *exp, size_t row)
{
	long sp = exp->scaling_param ? ab_experiment_param(exp, exp->scaling_param) : -1;
	size_t q, p, nrows = ab_experiment_nrows(exp);
	double best = INFINITY, v;
	long base = -1;

	if (sp < 0)
		return -1;
	for (q = 0; q < nrows; q++) {
		int other_differs = 0;

		for (p = 0; p < exp->nparams && !other_differs; p++)
			other_differs = (long)p != sp && ab_experiment_row_value_index(exp, q, p) !=
							  ab_experiment_row_value_index(exp, row, p);
		if (other_differs || ab_parse_double(&v, ab_experiment_row_value(exp, q, (size_t)sp)) < 0)
			continue;
		if (v < best) {
			best = v;
			base = (long)q;
		}
	}
	return base;
}

int ab_experiment_row_selected(const struct ab_experiment *exp, size_t row)
{
	return !exp->row_subset || exp->row_subset[row];
}

/* "a, b, c" of a parameter's values, or of the matrix's parameter names
 * (values NULL) (new string). */
static char *offered(const struct ab_experiment *exp, const struct ab_param *values)
{
	size_t i, n = values ? values->nvalues : exp->nparams;
	char *s = ab_xstrdup(""), *next;

	for (i = 0; i < n; i++) {
		next = ab_xasprintf("%s%s%s", s, i ? ", " : "",
				    values ? values->values[i] : exp->matrix[i].name);
		free(s);
		s = next;
	}
	return s;
}

/* Add the condition `value` of spec `spec` to the selector's term of
 * parameter `p` (one term per parameter: its values OR together). */
static void add_cond(struct ab_selector *sel, size_t p, const char *value)
{
	struct ab_where_term *t = NULL;
	size_t i;

	for (i = 0; i < sel->nterms; i++)
		if (sel->terms[i].param == p)
			t = &sel->terms[i];
	if (!t) {
		sel->terms = ab_xrealloc(sel->terms, (sel->nterms + 1) * sizeof(*sel->terms));
		t = &sel->terms[sel->nterms++];
		memset(t, 0, sizeof(*t));
		t->param = p;
	}
	t->conds = ab_xrealloc(t->conds, (t->nconds + 1) * sizeof(*t->conds));
	t->conds[t->nconds].op = AB_CMP_EQ;
	t->conds[t->nconds++].value = ab_xstrdup(value);
}

/* Parse the specs into `sel`: 0, or AB_EINVALID naming what is offered. */
static int parse_specs(struct ab_selector *sel, const struct ab_experiment *exp,
		       const char *const *specs, size_t n)
{
	size_t i, v;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		const char *eq = strchr(specs[i], '=');
		char *name = eq ? ab_xstrndup(specs[i], (size_t)(eq - specs[i])) : NULL, *list;
		long p = name ? ab_experiment_param(exp, name) : -1;

		if (!eq || p < 0) {
			list = offered(exp, NULL);
			err = ab_error_set(AB_EINVALID, "--row %s: %s; %s%s", specs[i],
					   eq ? "the matrix has no such parameter" : "expected NAME=VALUE",
					   exp->nparams ? "the matrix's parameters are: " : "the experiment has no matrix",
					   list);
			free(list);
		} else {
			for (v = 0; v < exp->matrix[p].nvalues; v++)
				if (ab_values_equal(exp->matrix[p].values[v], eq + 1))
					break;
			if (v == exp->matrix[p].nvalues) {
				list = offered(exp, &exp->matrix[p]);
				err = ab_error_set(AB_EINVALID, "--row %s: '%s' is not a value of %s; its values "
						   "are: %s", specs[i], eq + 1, name, list);
				free(list);
			} else {
				add_cond(sel, (size_t)p, eq + 1);
			}
		}
		free(name);
	}
	return err;
}

int ab_experiment_row_scales(const struct ab_experiment *exp, size_t row)
{
	size_t i;

	for (i = 0; i < exp->nrules; i++)
		if ((!isnan(exp->rules[i].min_scaling_parent) || !isnan(exp->rules[i].min_scaling_candidate) ||
		     !isnan(exp->rules[i].scaling_not_worse)) &&
		    ab_selector_match(&exp->rules[i].where, exp, row))
			return 1;
	return 0;
}

int ab_experiment_select_rows(struct ab_experiment *exp, const char *const *specs, size_t n)
{
	struct ab_selector sel = {NULL, 0};
	struct ab_rule holder;
	size_t nrows = ab_experiment_nrows(exp), r, i, p;
	uint8_t *mask;
	int err;

	if (n == 0)
		return 0;
	if ((err = parse_specs(&sel, exp, specs, n)) == 0) {
		mask = ab_xcalloc(nrows, 1);
		for (r = 0; r < nrows; r++)
			mask[r] = (uint8_t)ab_selector_match(&sel, exp, r);
		for (r = 0; r < nrows; r++) {
			long base = mask[r] == 1 && ab_experiment_row_scales(exp, r) ? ab_experiment_scaling_base(exp, r) : -1;
			char *label = ab_xstrdup(""), *next;

			if (base < 0 || mask[base]) {
				free(label);
				continue;
			}
			mask[base] = 2;  /* added: not selected by a spec */
			for (p = 0; p < exp->nparams; p++) {
				next = ab_xasprintf("%s%s%s=%s", label, p ? " " : "", exp->matrix[p].name,
						    ab_experiment_row_value(exp, (size_t)base, p));
				free(label);
				label = next;
			}
			ab_strv_push(&exp->subset_added, label);
		}
		for (r = 0; r < nrows; r++)
			mask[r] = mask[r] != 0;
		free(exp->row_subset);
		exp->row_subset = mask;
		for (i = 0; i < n; i++)
			ab_strv_push(&exp->subset_specs, ab_xstrdup(specs[i]));
	}
	/* the selector's terms are released as a rule's are */
	memset(&holder, 0, sizeof(holder));
	holder.where = sel;
	ab_rule_release(&holder);
	return err;
}
