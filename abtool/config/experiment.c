/* experiment.c - a loaded experiment's run-time queries and release
 * (experiment.h). */
#include "experiment.h"
#include "error.h"
#include "util.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A growable string */
struct buf {
	char *s;
	size_t len, alloc;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	AB_GROW(b->s, b->alloc, b->len + n + 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* The buffer's string (new; "" when nothing was added) */
static char *buf_detach(struct buf *b)
{
	char *s = b->s ? b->s : ab_xstrdup("");

	b->s = NULL;
	b->len = b->alloc = 0;
	return s;
}

int ab_is_identifier(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') ||
			s[0] == '_'))
		return 0;
	for (i = 1; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

int ab_values_equal(const char *a, const char *b)
{
	double x, y;

	if (!strcmp(a, b))
		return 1;
	return !ab_parse_double(&x, a) && !ab_parse_double(&y, b) && x == y;
}

/* Placeholders: "{name}" is a matrix parameter, "{{" and "}}" are braces,
 * anything else is copied as is. */

static long find_param_n(const struct ab_experiment *exp, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < exp->nparams; i++)
		if (exp->matrix[i].name && strlen(exp->matrix[i].name) == n &&
		    !memcmp(exp->matrix[i].name, name, n))
			return (long)i;
	return -1;
}

/*
 * Expand `tmpl` for `row` into `out` (NULL: only check the names).
 * Returns 0, or -1 with *bad and *badlen naming the unknown placeholder.
 */
static int expand_template(struct buf *out, const char *tmpl, const struct ab_experiment *exp,
			   size_t row, const char **bad, size_t *badlen)
{
	const char *s = tmpl, *name;
	size_t n;
	long p;

	while (*s) {
		if ((s[0] == '{' && s[1] == '{') || (s[0] == '}' && s[1] == '}')) {
			if (out)
				buf_add(out, s, 1);
			s += 2;
			continue;
		}
		if (s[0] == '{') {
			name = s + 1;
			for (n = 0; name[n] && name[n] != '}' && name[n] != '{'; n++)
				;
			if (name[n] == '}' && ab_is_identifier(name, n)) {
				p = find_param_n(exp, name, n);
				if (p < 0) {
					*bad = name;
					*badlen = n;
					return -1;
				}
				if (out)
					buf_puts(out, ab_experiment_row_value(exp, row, (size_t)p));
				s = name + n + 1;
				continue;
			}
		}
		if (out)
			buf_add(out, s, 1);
		s++;
	}
	return 0;
}

int ab_template_check(const char *tmpl, const struct ab_experiment *exp,
		      const char **bad, size_t *badlen)
{
	return expand_template(NULL, tmpl, exp, 0, bad, badlen);
}

static void selector_release(struct ab_selector *sel)
{
	size_t j, k;

	for (j = 0; j < sel->nterms; j++) {
		for (k = 0; k < sel->terms[j].nconds; k++)
			free(sel->terms[j].conds[k].value);
		free(sel->terms[j].conds);
	}
	free(sel->terms);
}

void ab_rule_release(struct ab_rule *r)
{
	selector_release(&r->where);
	free(r->name);
	free(r->metric);
}

const struct ab_command *ab_experiment_side_command(const struct ab_experiment *exp, int side)
{
	assert(side == 0 || side == 1);
	return exp->has_sides ? &exp->sides[side].command : &exp->benchmark;
}

void ab_experiment_release(struct ab_experiment *exp)
{
	size_t i, j;

	free(exp->path);
	free(exp->dir);
	free(exp->text);
	free(exp->name);
	free(exp->design);
	free(exp->hypothesis);
	free(exp->project);
	free(exp->repo);
	free(exp->candidate);
	free(exp->parent);
	ab_command_release(&exp->build);
	ab_strv_free(exp->artifacts);
	ab_command_release(&exp->benchmark);
	for (i = 0; i < 2; i++) {
		free(exp->sides[i].name);
		ab_command_release(&exp->sides[i].command);
	}
	ab_command_release(&exp->prepare);
	ab_command_release(&exp->cleanup);
	ab_strv_free(exp->inputs);
	free(exp->row_subset);
	ab_strv_free(exp->subset_specs);
	ab_strv_free(exp->subset_added);
	free(exp->workdir);
	ab_strv_free(exp->env);
	free(exp->checksum.arg);
	for (i = 0; i < exp->nparams; i++) {
		for (j = 0; j < exp->matrix[i].nvalues; j++)
			free(exp->matrix[i].values[j]);
		free(exp->matrix[i].values);
		free(exp->matrix[i].name);
	}
	free(exp->matrix);
	free(exp->metric);
	free(exp->step.metric);
	for (i = 0; i < exp->nmetrics; i++) {
		free(exp->metrics[i].name);
		free(exp->metrics[i].unit);
		free(exp->metrics[i].pattern);
	}
	free(exp->metrics);
	free(exp->scaling_param);
	for (i = 0; i < exp->nrules; i++)
		ab_rule_release(&exp->rules[i]);
	free(exp->rules);
	json_decref(exp->environment_require);
	ab_strv_free(exp->environment_commands);
	ab_strv_free(exp->env_keep);
	ab_strv_free(exp->overlay_paths);
	free(exp->affinity_cpus);
	free(exp->affinity_per_lane);
	selector_release(&exp->profile_rows);
	free(exp->profile_event);
	free(exp->overlay_from);
	for (i = 0; i < exp->ndependencies; i++) {
		struct ab_dependency *d = &exp->dependencies[i];
		free(d->name);
		free(d->repo);
		free(d->candidate);
		free(d->parent);
		free(d->path);
		free(d->env);
	}
	free(exp->dependencies);
	memset(exp, 0, sizeof(*exp));
}

size_t ab_experiment_nrows(const struct ab_experiment *exp)
{
	size_t rows = 1, i;

	for (i = 0; i < exp->nparams; i++)
		rows *= exp->matrix[i].nvalues;
	return rows;
}

size_t ab_experiment_row_value_index(const struct ab_experiment *exp, size_t row, size_t param)
{
	size_t stride = 1, i;

	for (i = param + 1; i < exp->nparams; i++)
		stride *= exp->matrix[i].nvalues;
	return row / stride % exp->matrix[param].nvalues;
}

const char *ab_experiment_row_value(const struct ab_experiment *exp, size_t row, size_t param)
{
	return exp->matrix[param].values[ab_experiment_row_value_index(exp, row, param)];
}

static int cond_holds(const struct ab_cond *cond, const char *value)
{
	double a, b;

	if (cond->op == AB_CMP_EQ)
		return ab_values_equal(value, cond->value);
	if (ab_parse_double(&a, value) || ab_parse_double(&b, cond->value))
		return 0;
	switch (cond->op) {
	case AB_CMP_LT:
		return a < b;
	case AB_CMP_LE:
		return a <= b;
	case AB_CMP_GT:
		return a > b;
	case AB_CMP_GE:
		return a >= b;
	default:
		return 0;
	}
}

int ab_selector_match(const struct ab_selector *sel, const struct ab_experiment *exp, size_t row)
{
	size_t i, j;

	for (i = 0; i < sel->nterms; i++) {
		const struct ab_where_term *t = &sel->terms[i];
		const char *value = ab_experiment_row_value(exp, row, t->param);

		for (j = 0; j < t->nconds; j++)
			if (cond_holds(&t->conds[j], value))
				break;
		if (j == t->nconds)
			return 0;
	}
	return 1;
}

void ab_experiment_row_policy(const struct ab_experiment *exp, size_t row,
			      struct ab_row_policy *out)
{
	size_t i;

	out->checksum_may_change = 0;
	out->allow_failed_pairs = 0;
	for (i = 0; i < exp->nrules; i++) {
		const struct ab_rule *r = &exp->rules[i];
		if (!ab_selector_match(&r->where, exp, row))
			continue;
		if (r->checksum_may_change > 0)
			out->checksum_may_change = 1;
		if (r->allow_failed_pairs > 0 && (size_t)r->allow_failed_pairs > out->allow_failed_pairs)
			out->allow_failed_pairs = (size_t)r->allow_failed_pairs;
	}
}

const struct ab_metric *ab_experiment_metric(const struct ab_experiment *exp, const char *name)
{
	size_t i;

	for (i = 0; i < exp->nmetrics; i++)
		if (!strcmp(exp->metrics[i].name, name))
			return &exp->metrics[i];
	return NULL;
}

const char *ab_experiment_stdout_reads(const struct ab_experiment *exp)
{
	int checksums = exp->checksum.kind == AB_CHECKSUM_REGEX || exp->checksum.kind == AB_CHECKSUM_JSON;
	int metrics = 0;
	size_t i;

	for (i = 0; i < exp->nmetrics; i++)
		if (exp->metrics[i].source == AB_METRIC_REGEX || exp->metrics[i].source == AB_METRIC_JSON)
			metrics = 1;
	if (checksums && metrics)
		return "checksums and metrics";
	return checksums ? "checksums" : metrics ? "metrics" : NULL;
}

long ab_experiment_param(const struct ab_experiment *exp, const char *name)
{
	return find_param_n(exp, name, strlen(name));
}

static int expand_one(char **out, const char *tmpl, const struct ab_experiment *exp, size_t row)
{
	struct buf b = { 0 };
	const char *bad;
	size_t n;

	if (expand_template(&b, tmpl, exp, row, &bad, &n)) {
		free(b.s);
		return ab_error_set(AB_EINVALID, "unknown placeholder '{%.*s}' in '%s': "
				    "no matrix parameter has that name", (int)n, bad, tmpl);
	}
	*out = buf_detach(&b);
	return 0;
}

int ab_command_expand(struct ab_command *out, const struct ab_command *cmd,
		      const struct ab_experiment *exp, size_t row)
{
	size_t i;
	int err = 0;

	memset(out, 0, sizeof(*out));
	if (row >= ab_experiment_nrows(exp))
		return ab_error_set(AB_EINVALID, "row %zu is out of range (the matrix has %zu)",
				    row, ab_experiment_nrows(exp));
	if (cmd->shell)
		return expand_one(&out->shell, cmd->shell, exp, row);
	if (!cmd->argv)
		return 0;
	out->argv = ab_xcalloc(cmd->argc + 1, sizeof(*out->argv));
	for (i = 0; i < cmd->argc && !err; i++) {
		err = expand_one(&out->argv[i], cmd->argv[i], exp, row);
		if (!err)
			out->argc++;
	}
	if (err)
		ab_command_release(out);
	return err;
}

void ab_command_release(struct ab_command *cmd)
{
	free(cmd->shell);
	ab_strv_free(cmd->argv);
	memset(cmd, 0, sizeof(*cmd));
}

char *ab_command_display(const struct ab_command *cmd)
{
	struct buf b = { 0 };
	size_t i;

	if (cmd->shell)
		return ab_xstrdup(cmd->shell);
	for (i = 0; i < cmd->argc; i++) {
		char *word = ab_shell_quote(cmd->argv[i], 0);

		if (i)
			buf_puts(&b, " ");
		buf_puts(&b, word);
		free(word);
	}
	return buf_detach(&b);
}
