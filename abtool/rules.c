/* rules.c - acceptance rules, their outcomes per row and the verdict
 * (docs/rules.md; docs/statistics.md).
 *
 * Inferential predicates decide on the decision interval [L, U] of the row
 * (exact one-sided 95% bounds): a predicate passes only when the bound
 * that must clear its threshold does, fails when the other bound refutes
 * it, and is inconclusive otherwise. A rule over several rows passes only
 * when every row passes (intersection–union, Berger 1982: a conjunction of
 * level-α tests is a level-α test, no adjustment needed), and a row's
 * refutation fails the rule only when it also survives Holm's step-down
 * adjustment across the rule's rows (Holm 1979), so that many noisy rows
 * cannot manufacture a rejection. Observational predicates (pair wins,
 * point-estimate ratios, per-side scaling) decide on observed values and
 * say so. Predicates in one rule combine by AND: fail > inconclusive >
 * pass; dispersion gates can turn a pass into inconclusive, never hide a
 * fail. */
#include "rules.h"
#include "predicates.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An inferential predicate of a rule: pass when the interval lies on one
 * side of a threshold θ (a ratio), fail when it lies on the other. */
struct inferential {
	const char *key;          /* the rule key, for messages */
	enum ab_pass_side kind;
	double theta;             /* threshold as a ratio, in the interval's own terms */
	char *threshold;          /* θ as shown: "1.020", "0.909 = 1/1.1" (new) */
	char *meaning;            /* what a pass shows: "no regression above 2%" (new) */
	char *refuted;            /* what a fail shows: "a regression above 2%" (new) */
	char *inconclusive;       /* "cannot exclude a regression above 2%" (new) */
	int on_scaling;           /* decides on the scaling change instead of the metric */
};

/* One row's evidence for an inferential predicate. */
struct interval {
	int available;
	const char *why;          /* when not available */
	double estimate, lower, upper;   /* ratios */
	const double *d;          /* log values the interval is made of */
	size_t n;
};

struct eval {
	enum ab_outcome outcome;
	double p_refute;          /* one-sided signed-rank p of the refutation */
	char *phrase;             /* new */
};

static char *pct(double fraction)
{
	return ab_xasprintf("%.4g%%", 100 * fraction);
}

static struct eval eval_interval(const struct inferential *pr, const struct interval *iv)
{
	struct eval e = {AB_INCONCLUSIVE, 1.0, NULL};
	struct ab_signed_rank sr;
	int pass, refutes;

	if (!iv->available) {
		e.phrase = ab_xasprintf("%s: %s", pr->key, iv->why);
		return e;
	}
	if (isnan(iv->lower)) {
		e.phrase = ab_xasprintf("%s: %zu pair%s too few for a one-sided 95%% bound", pr->key, iv->n,
					iv->n == 1 ? " is" : "s are");
		return e;
	}
	pass = pr->kind == AB_PASS_BELOW ? iv->upper < pr->theta : iv->lower > pr->theta;
	refutes = pr->kind == AB_PASS_BELOW ? iv->lower > pr->theta : iv->upper < pr->theta;
	ab_stats_signed_rank(&sr, iv->d, iv->n, log(pr->theta));
	e.p_refute = pr->kind == AB_PASS_BELOW ? sr.p_greater : sr.p_less;
	if (pass) {
		e.outcome = AB_PASS;
		e.phrase = ab_xasprintf("%s bound %.3f %s %s (%s)", pr->kind == AB_PASS_BELOW ? "upper" : "lower",
					pr->kind == AB_PASS_BELOW ? iv->upper : iv->lower,
					pr->kind == AB_PASS_BELOW ? "below" : "above", pr->threshold, pr->meaning);
	} else if (refutes) {
		e.outcome = AB_FAIL;
		e.phrase = ab_xasprintf("%s bound %.3f %s %s (%s)", pr->kind == AB_PASS_BELOW ? "lower" : "upper",
					pr->kind == AB_PASS_BELOW ? iv->lower : iv->upper,
					pr->kind == AB_PASS_BELOW ? "above" : "below", pr->threshold, pr->refuted);
	} else {
		e.phrase = ab_xasprintf("%s (the interval contains %s)", pr->inconclusive, pr->threshold);
	}
	return e;
}

struct ranked_p {
	double p;
	size_t i;
};

/* Ascending p, ties in row order (a stable order). */
static int by_p(const void *pa, const void *pb)
{
	const struct ranked_p *a = pa, *b = pb;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/* Holm's step-down adjustment (Holm 1979) of p[0..m) into q. Sorted in
 * O(m log m): `abtool analyze` can give a rule thousands of rows. */
static void holm(double *q, const double *p, size_t m)
{
	struct ranked_p *r = ab_xmalloc((m ? m : 1) * sizeof(*r));
	double running = 0;
	size_t i;

	for (i = 0; i < m; i++) {
		r[i].p = p[i];
		r[i].i = i;
	}
	qsort(r, m, sizeof(*r), by_p);
	for (i = 0; i < m; i++) {
		double adj = fmin(1.0, (double)(m - i) * r[i].p);
		if (adj > running)
			running = adj;
		q[r[i].i] = running;
	}
	free(r);
}

/* One predicate's finding on a row. */
struct finding {
	enum ab_outcome outcome;
	char *phrase;             /* new */
};

/* Per-row state while a rule is evaluated. */
struct row_state {
	size_t row;
	enum ab_outcome outcome;  /* the worst finding's */
	struct finding *findings;
	size_t nfindings, cap;
};

static void add_phrase(struct row_state *rs, enum ab_outcome o, const char *phrase)
{
	if (o > rs->outcome)
		rs->outcome = o;
	if (rs->nfindings == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 4;
		rs->findings = ab_xrealloc(rs->findings, rs->cap * sizeof(*rs->findings));
	}
	rs->findings[rs->nfindings++] = (struct finding){o, ab_xstrdup(phrase)};
}

/* The findings joined by ", "; when they differ in outcome, each is
 * tagged with its own ("... [pass], ... [fail]") so the reader sees which
 * predicate decided the row. Frees the findings; returns new memory. */
static char *join_findings(struct row_state *rs)
{
	size_t i, len = 1;
	int mixed = 0;
	char *out, *end;

	for (i = 0; i < rs->nfindings; i++) {
		len += strlen(rs->findings[i].phrase) + 2 + 16;
		mixed |= rs->findings[i].outcome != rs->findings[0].outcome;
	}
	out = end = ab_xmalloc(len);
	*out = '\0';
	for (i = 0; i < rs->nfindings; i++) {
		if (i)
			end = stpcpy(end, ", ");
		end = stpcpy(end, rs->findings[i].phrase);
		if (mixed)
			end += sprintf(end, " [%s]", ab_outcome_name(rs->findings[i].outcome));
		free(rs->findings[i].phrase);
	}
	free(rs->findings);
	rs->findings = NULL;
	rs->nfindings = rs->cap = 0;
	return out;
}

static struct interval metric_interval(const struct ab_row_result *rr, size_t metric)
{
	const struct ab_row_metric *rm = &rr->metrics[metric];
	struct interval iv;

	memset(&iv, 0, sizeof(iv));
	iv.available = rm->available;
	iv.why = rm->unavailable;
	if (rm->available) {
		iv.estimate = rm->st.ratio;
		iv.lower = rm->st.ci_lower;
		iv.upper = rm->st.ci_upper;
		iv.d = rm->d;
		iv.n = rm->st.pairs;
	}
	return iv;
}

static struct interval scaling_interval(const struct ab_row_result *rr)
{
	const struct ab_scaling_change *sc = &rr->scaling_change;
	struct interval iv;

	memset(&iv, 0, sizeof(iv));
	iv.available = sc->available;
	iv.why = "no scaling change at the base row (or no aligned pairs)";
	if (sc->available) {
		iv.estimate = exp(sc->hl.estimate);
		iv.lower = sc->hl.k ? exp(sc->hl.lower) : NAN;
		iv.upper = sc->hl.k ? exp(sc->hl.upper) : NAN;
		iv.d = sc->e;
		iv.n = sc->n;
	}
	return iv;
}

/* 1 when x is within 15% of 1.0. */
static int near_one(double x)
{
	return x > 0.85 && x < 1.15;
}

/*
 * A single-threaded row (both sides' median CPU occupancy near 1) left
 * inconclusive on wall time while samples were contended, whose CPU time
 * decides the same predicate: one line (once per run) suggesting
 * `metric: cpu_ns` for the next experiment, and why switching after
 * seeing the data is not evidence (choosing the metric that decides is a
 * forking path: the error rates hold only for a metric fixed in advance).
 */
static void suggest_cpu_ns(struct ab_analysis *a, const struct ab_row_result *rr, size_t metric,
			   const struct inferential *pr, const char *rule_name)
{
	const struct ab_experiment *exp = a->exp;
	const struct ab_metric *cpu = ab_experiment_metric(exp, "cpu_ns");
	struct interval iv;
	struct eval e;
	char **w, *label;

	if (!cpu || pr->on_scaling || strcmp(exp->metrics[metric].name, "wall_ns") || !rr->flagged ||
	    !near_one(rr->quality[0].occupancy) || !near_one(rr->quality[1].occupancy))
		return;
	for (w = a->rule_warnings; w && *w; w++)
		if (strstr(*w, "'metric: cpu_ns'"))
			return;
	iv = metric_interval(rr, (size_t)(cpu - exp->metrics));
	e = eval_interval(pr, &iv);
	if (e.outcome != AB_INCONCLUSIVE) {
		label = ab_row_label(exp, rr->row);
		ab_strv_push(&a->rule_warnings, ab_xasprintf("%s: '%s' (%s) is inconclusive on wall time "
			"while %zu sample(s) were contended, but the row is single-threaded (CPU occupancy "
			"%.2f) and its CPU time decides it (cpu_ns ratio %.3f [%.3f, %.3f]: %s); consider "
			"'metric: cpu_ns' for the next experiment, which other processes disturb less; "
			"switching this run's metric after seeing the data is not evidence (a metric chosen "
			"because it decides voids the error rates, which hold for one fixed in advance)",
			label, rule_name, pr->key, rr->flagged, rr->quality[1].occupancy, iv.estimate, iv.lower,
			iv.upper, e.outcome == AB_PASS ? "pass" : "fail"));
		free(label);
	}
	free(e.phrase);
}

/* Evaluate one inferential predicate over the rule's rows with the Holm
 * step on its refutations. */
static void run_inferential(struct row_state *rows, size_t m, const struct inferential *pr,
			    struct ab_analysis *a, size_t metric, const char *rule_name)
{
	struct eval *ev = ab_xcalloc(m ? m : 1, sizeof(*ev));
	double *p = ab_xmalloc((m ? m : 1) * sizeof(double)), *q = ab_xmalloc((m ? m : 1) * sizeof(double));
	size_t i;

	for (i = 0; i < m; i++) {
		const struct ab_row_result *rr = &a->rows[rows[i].row];
		struct interval iv = pr->on_scaling ? scaling_interval(rr) : metric_interval(rr, metric);
		ev[i] = eval_interval(pr, &iv);
		p[i] = ev[i].p_refute;
		if (ev[i].outcome == AB_INCONCLUSIVE)
			suggest_cpu_ns(a, rr, metric, pr, rule_name);
		if (ev[i].outcome == AB_INCONCLUSIVE && iv.available && !isnan(iv.lower) && pr->theta != 1 &&
		    log(iv.upper / iv.lower) > fabs(log(pr->theta))) {
			/* The width shrinks about as 1/sqrt(n). */
			double w = log(iv.upper / iv.lower), margin = fabs(log(pr->theta));
			char *label = ab_row_label(a->exp, rr->row);
			ab_strv_push(&a->rule_warnings, ab_xasprintf("%s: the 90%% interval is %.2f%% wide, wider "
				"than the %.2f%% margin of '%s' (%s): it can hardly be decided; about %.0f pairs would "
				"narrow it to the margin", label, 100 * expm1(w), 100 * expm1(margin), rule_name, pr->key,
				ceil((double)iv.n * (w / margin) * (w / margin))));
			free(label);
		}
	}
	holm(q, p, m);
	for (i = 0; i < m; i++) {
		if (ev[i].outcome == AB_FAIL && m > 1 && q[i] > AB_STATS_ALPHA) {
			char *phrase = ab_xasprintf("%s, but not after Holm's adjustment over %zu rows "
						    "(one-sided adjusted p %.3g)", ev[i].phrase, m, q[i]);
			free(ev[i].phrase);
			ev[i].phrase = phrase;
			ev[i].outcome = AB_INCONCLUSIVE;
		}
		add_phrase(&rows[i], ev[i].outcome, ev[i].phrase);
		free(ev[i].phrase);
	}
	free(ev);
	free(p);
	free(q);
}

/* A threshold as shown: "1.020", or "0.909 = 1/1.1" when it is the
 * reciprocal of a margin, so that "faster by 10%" is recognisable. */
static char *threshold_text(double theta, double margin, int reciprocal)
{
	return reciprocal ? ab_xasprintf("%.3f = 1/%.4g", theta, 1 + margin) : ab_xasprintf("%.3f", theta);
}

/* The inferential predicates a rule declares, in the table's order. For
 * a higher-is-better metric the thresholds are the reciprocals. */
static size_t inferentials(struct inferential *out, const struct ab_rule *rule, enum ab_better better)
{
	const struct ab_predicate *p;
	size_t n = 0;

	for (p = ab_predicates; p->name; p++) {
		double x, theta;
		char *shown;
		int reciprocal;

		if (p->decide != AB_DECIDE_BOUND || !ab_predicate_is_set(p, rule))
			continue;
		x = ab_predicate_value(p, rule);
		theta = ab_predicate_theta(p, x, better, &out[n].kind, &reciprocal);
		shown = p->arg == AB_ARG_PERCENT ? pct(x) : ab_xasprintf("%.4g", x);
		out[n].key = p->name;
		out[n].theta = theta;
		out[n].threshold = threshold_text(theta, x, reciprocal);
		out[n].meaning = ab_xasprintf(p->meaning, shown);
		out[n].refuted = ab_xasprintf(p->refuted, shown);
		out[n].inconclusive = ab_xasprintf(p->inconclusive, shown);
		out[n].on_scaling = p->on_scaling;
		n++;
		free(shown);
	}
	return n;
}

static void release_predicate(struct inferential *pr)
{
	free(pr->threshold);
	free(pr->meaning);
	free(pr->refuted);
	free(pr->inconclusive);
}

/* The decide functions of the observational predicates (enum ab_decide):
 * each adds its finding on the row. */
typedef void decide_fn(struct row_state *rs, const struct ab_predicate *pr, const struct ab_rule *rule,
		       const struct ab_row_result *rr, const struct ab_row_metric *rm);

static void decide_pair_wins(struct row_state *rs, const struct ab_predicate *pr,
			     const struct ab_rule *rule, const struct ab_row_result *rr,
			     const struct ab_row_metric *rm)
{
	size_t need = ab_predicate_pairs_needed(pr, rule, rr->planned_pairs);
	char *p;

	if (!rm->available) {
		p = ab_xasprintf("%s: %s", pr->name, rm->unavailable);
		add_phrase(rs, AB_INCONCLUSIVE, p);
	} else {
		int ok = rm->st.wins >= need;
		/* Under no change each untied pair is a win with
		 * probability 1/2: P(X >= need), X ~ Binomial(n, 1/2), is
		 * how often noise alone passes (the exact one-sided sign
		 * test p), so the reader can weigh an observed count. */
		size_t untied = rm->st.wins + rm->st.losses;
		double by_noise = 0, two_sided;
		char *chance;

		if (need <= untied)
			ab_stats_sign_test(untied, need, &by_noise, &two_sided);
		chance = ab_xasprintf("observed; noise alone reaches %zu of %zu%s with probability %.3g%%",
				      need, untied, rm->st.ties ? " untied pairs" : "", 100 * by_noise);
		p = ok ? ab_xasprintf("%zu pair wins, at least the %zu needed (%s)", rm->st.wins, need, chance)
		       : ab_xasprintf("%zu pair wins, fewer than the %zu needed (%s)", rm->st.wins, need, chance);
		free(chance);
		add_phrase(rs, ok ? AB_PASS : AB_FAIL, p);
	}
	free(p);
}

static void decide_estimate(struct row_state *rs, const struct ab_predicate *pr,
			    const struct ab_rule *rule, const struct ab_row_result *rr,
			    const struct ab_row_metric *rm)
{
	int max = pr->side == AB_PASS_BELOW;
	double limit = ab_predicate_value(pr, rule);
	char *p;

	(void)rr;
	/* As before the table: with both estimates set, only max_ratio's decides. */
	if (!max && ab_predicate_is_set(ab_predicate_find("max_ratio", "estimate"), rule))
		return;
	if (!rm->available) {
		p = ab_xasprintf("%s: %s", pr->name, rm->unavailable);
		add_phrase(rs, AB_INCONCLUSIVE, p);
	} else {
		int ok = max ? rm->st.ratio <= limit : rm->st.ratio >= limit;
		p = ab_xasprintf("point estimate %.3f %s %.4g (%s, no interval)", rm->st.ratio,
				 ok ? (max ? "at most" : "at least") : (max ? "above" : "below"), limit,
				 pr->name);
		add_phrase(rs, ok ? AB_PASS : AB_FAIL, p);
	}
	free(p);
}

static void decide_scaling(struct row_state *rs, const struct ab_predicate *pr,
			   const struct ab_rule *rule, const struct ab_row_result *rr,
			   const struct ab_row_metric *rm)
{
	enum ab_side side = strcmp(pr->form, "candidate") ? AB_PARENT : AB_CANDIDATE;
	double limit = ab_predicate_value(pr, rule), s = rr->scaling[side];
	char *p;

	(void)rm;
	if (isnan(s)) {
		p = ab_xasprintf("%s scaling unavailable", ab_side_name(side));
		add_phrase(rs, AB_INCONCLUSIVE, p);
	} else {
		int ok = s >= limit;
		p = ab_xasprintf("%s scaling %.2fx %s %.2fx (%s, no interval)", ab_side_name(side), s,
				 ok ? "at least" : "below", limit, pr->name);
		add_phrase(rs, ok ? AB_PASS : AB_FAIL, p);
	}
	free(p);
}

static decide_fn *const observed_deciders[] = {
	[AB_DECIDE_PAIR_WINS] = decide_pair_wins,
	[AB_DECIDE_ESTIMATE] = decide_estimate,
	[AB_DECIDE_SCALING] = decide_scaling,
};

/* The observational predicates of `rule` on row rs->row, in the table's order */
static void observational(struct row_state *rs, const struct ab_rule *rule, const struct ab_analysis *a,
			  size_t metric)
{
	const struct ab_row_result *rr = &a->rows[rs->row];
	const struct ab_predicate *p;

	for (p = ab_predicates; p->name; p++)
		if (p->kind == AB_PREDICATE_OBSERVATIONAL && ab_predicate_is_set(p, rule))
			observed_deciders[p->decide](rs, p, rule, rr, &rr->metrics[metric]);
}

/* Dispersion gates turn a pass into inconclusive; they never hide a fail. */
static void dispersion(struct row_state *rs, const struct ab_rule *rule, const struct ab_analysis *a,
		       size_t metric, int only_gates)
{
	const struct ab_row_metric *rm = &a->rows[rs->row].metrics[metric];
	char *p = NULL;

	if (rule->max_flagged_samples >= 0 &&
	    a->rows[rs->row].flagged > (size_t)rule->max_flagged_samples) {
		p = ab_xasprintf("%zu flagged sample(s), more than max_flagged_samples %lld",
				 a->rows[rs->row].flagged, (long long)rule->max_flagged_samples);
		add_phrase(rs, AB_INCONCLUSIVE, p);
		free(p);
		p = NULL;
	} else if (rule->max_flagged_samples >= 0 && only_gates && isnan(rule->max_rsd) &&
		   isnan(rule->max_ci_width)) {
		add_phrase(rs, AB_PASS, "no more flagged samples than allowed");
	}
	if (isnan(rule->max_rsd) && isnan(rule->max_ci_width))
		return;
	if (!rm->available) {
		p = ab_xasprintf("dispersion: %s", rm->unavailable);
		add_phrase(rs, AB_INCONCLUSIVE, p);
		free(p);
		return;
	}
	if (!isnan(rule->max_rsd) && (rm->st.parent.rsd > rule->max_rsd || rm->st.candidate.rsd > rule->max_rsd))
		p = ab_xasprintf("RSD parent %.2f%%, candidate %.2f%% above max_rsd %.4g%%",
				 100 * rm->st.parent.rsd, 100 * rm->st.candidate.rsd, 100 * rule->max_rsd);
	else if (!isnan(rule->max_ci_width) && rm->st.ci_k > 0 &&
		 rm->st.ci_upper / rm->st.ci_lower - 1 > rule->max_ci_width)
		p = ab_xasprintf("interval width %.2f%% above max_ci_width %.4g%%",
				 100 * (rm->st.ci_upper / rm->st.ci_lower - 1), 100 * rule->max_ci_width);
	else if (!isnan(rule->max_ci_width) && rm->st.ci_k == 0)
		p = ab_xasprintf("too few pairs for an interval (max_ci_width)");
	if (p) {
		add_phrase(rs, AB_INCONCLUSIVE, p);
	} else if (only_gates) {
		add_phrase(rs, AB_PASS, "dispersion within the gates");
	}
	free(p);
}

static size_t metric_index(const struct ab_experiment *exp, const char *name)
{
	size_t i;

	for (i = 0; i < exp->nmetrics; i++)
		if (!strcmp(exp->metrics[i].name, name))
			return i;
	return 0;
}

/* "lanes=2: ratio 1.041 [1.027, 1.058] (1/8 pair wins)" */
static char *row_head(const struct ab_analysis *a, size_t row, size_t metric)
{
	const struct ab_row_metric *rm = &a->rows[row].metrics[metric];
	char *label = ab_row_label(a->exp, row), *out;
	const char *name = metric == a->primary ? "" : a->exp->metrics[metric].name;

	if (!rm->available)
		out = ab_xasprintf("%s: %s%s%s unavailable", label, name, *name ? " " : "", *name ? "" : "metric");
	else if (rm->st.ci_k)
		out = ab_xasprintf("%s: %s%sratio %.3f [%.3f, %.3f] (%zu/%zu pair wins)", label, name,
				   *name ? " " : "", rm->st.ratio, rm->st.ci_lower, rm->st.ci_upper, rm->st.wins,
				   rm->st.pairs);
	else
		out = ab_xasprintf("%s: %s%sratio %.3f (%zu/%zu pair wins)", label, name, *name ? " " : "",
				   rm->st.ratio, rm->st.wins, rm->st.pairs);
	free(label);
	return out;
}

static void evaluate_rule(struct ab_rule_result *res, const struct ab_rule *rule,
			  struct ab_analysis *a)
{
	const struct ab_experiment *exp = a->exp;
	size_t metric = metric_index(exp, rule->metric ? rule->metric : exp->metric), r, n = 0, i, np, len;
	struct inferential preds[16];   /* more than the table's bound predicates */
	const struct ab_predicate *p;
	struct row_state *rows = ab_xcalloc(a->nrows ? a->nrows : 1, sizeof(*rows));
	enum ab_outcome worst = AB_PASS;
	int has_decider;

	/* Rows never measured (absent from an analyze input) are not judged. */
	for (r = 0; r < a->nrows; r++)
		if (ab_selector_match(&rule->where, exp, r) && a->rows[r].samples)
			rows[n++].row = r;
	np = inferentials(preds, rule, exp->metrics[metric].better);
	for (i = 0; i < np; i++) {
		run_inferential(rows, n, &preds[i], a, metric, rule->name);
		release_predicate(&preds[i]);
	}
	for (p = ab_predicates, has_decider = 0; p->name; p++)
		has_decider |= (p->kind == AB_PREDICATE_INFERENTIAL || p->kind == AB_PREDICATE_OBSERVATIONAL) &&
			       ab_predicate_is_set(p, rule);
	for (i = 0; i < n; i++) {
		observational(&rows[i], rule, a, metric);
		dispersion(&rows[i], rule, a, metric, !has_decider);
		if (!rows[i].nfindings)  /* integrity-only rule */
			add_phrase(&rows[i], AB_PASS, "integrity settings only");
	}

	res->rows = ab_xcalloc(n ? n : 1, sizeof(*res->rows));
	res->nrows = n;
	for (i = 0; i < n; i++) {
		char *head = row_head(a, rows[i].row, metric), *phrases = join_findings(&rows[i]);
		res->rows[i].row = rows[i].row;
		res->rows[i].outcome = rows[i].outcome;
		res->rows[i].detail = ab_xasprintf("%s: %s: %s", head, phrases, ab_outcome_name(rows[i].outcome));
		if (rows[i].outcome > worst)
			worst = rows[i].outcome;
		free(head);
		free(phrases);
	}
	res->outcome = n ? worst : AB_INCONCLUSIVE;
	/* The worst rows' details joined by "; ", measured first: joining
	 * one by one would copy O(rows^2) bytes. */
	for (i = 0, len = 0; i < n; i++)
		if (res->rows[i].outcome == worst)
			len += strlen(res->rows[i].detail) + 2;
	if (n) {
		char *end = res->detail = ab_xmalloc(len + 1);
		for (i = 0; i < n; i++) {
			if (res->rows[i].outcome != worst)
				continue;
			if (end != res->detail)
				end = stpcpy(end, "; ");
			end = stpcpy(end, res->rows[i].detail);
		}
	} else {
		res->detail = ab_xstrdup("selects no row: inconclusive");
	}
	free(rows);
}

void ab_rules_evaluate(struct ab_analysis *a, char *const *integrity, char *const *unmet)
{
	const struct ab_experiment *exp = a->exp;
	char *const *reason;
	size_t i, r;
	int invalid = 0, failed = 0, inconclusive = 0;

	/* Integrity first: no speed claim is made from a wrong or broken side. */
	for (reason = integrity; reason && *reason; reason++, invalid = 1)
		ab_strv_push(&a->reasons, ab_xstrdup(*reason));
	for (r = 0; r < a->nrows; r++) {
		const struct ab_row_result *rr = &a->rows[r];
		char *label = ab_row_label(exp, r);

		if (rr->failed) {
			ab_strv_push(&a->reasons, ab_xasprintf("%s: %zu failed sample(s), first: %s", label,
							       rr->failed, rr->failure));
			invalid = 1;
		}
		if (!rr->checksum_ok) {
			char *values = ab_xstrdup(""), *next;
			size_t k;
			json_t *v;
			json_array_foreach(rr->checksum_values, k, v) {
				next = ab_xasprintf("%s%s%s printed '%s' (%lld sample%s)", values, k ? ", " : "",
						    json_string_value(json_object_get(v, "side")),
						    json_string_value(json_object_get(v, "value")),
						    (long long)json_integer_value(json_object_get(v, "samples")),
						    json_integer_value(json_object_get(v, "samples")) == 1 ? "" : "s");
				free(values);
				values = next;
			}
			ab_strv_push(&a->reasons, ab_xasprintf("%s: checksum mismatch%s: %s", label,
				rr->policy.checksum_may_change ? " within a side" : "", values));
			free(values);
			invalid = 1;
		}
		free(label);
	}
	if (!invalid && a->samples_done < a->samples_planned) {
		ab_strv_push(&a->reasons, ab_xasprintf("only %zu of %zu planned samples ran",
						       a->samples_done, a->samples_planned));
		invalid = 1;
	}

	a->rules = ab_xcalloc(exp->nrules ? exp->nrules : 1, sizeof(*a->rules));
	for (i = 0; i < exp->nrules; i++) {
		evaluate_rule(&a->rules[i], &exp->rules[i], a);
		failed |= a->rules[i].outcome == AB_FAIL;
		inconclusive |= a->rules[i].outcome == AB_INCONCLUSIVE;
	}
	if (!invalid) {
		for (i = 0; i < exp->nrules; i++)
			if (a->rules[i].outcome == (failed ? AB_FAIL : AB_INCONCLUSIVE))
				ab_strv_push(&a->reasons, ab_xasprintf("%s: %s", exp->rules[i].name,
								       a->rules[i].detail));
		if (!exp->nrules) {
			ab_strv_push(&a->reasons, ab_xstrdup("no acceptance rules: add an 'accept:' list to the "
							     "experiment file (or give abtool analyze --accept RULES.yaml)"));
			inconclusive = 1;
		}
	}
	a->verdict = invalid ? AB_INVALID : failed ? AB_REJECTED
				: inconclusive ? AB_INCONCLUSIVE_VERDICT : AB_ACCEPTED;
	if (!invalid && unmet && *unmet) {
		/* The host did not meet the experiment's conditions: its numbers
		 * are shown, but they decide nothing. */
		char **rules_said = a->reasons;
		a->reasons = NULL;
		for (reason = unmet; *reason; reason++)
			ab_strv_push(&a->reasons, ab_xasprintf("environment.require: %s", *reason));
		if (a->verdict != AB_INCONCLUSIVE_VERDICT)
			ab_strv_push(&a->reasons, ab_xasprintf("without that, the rules would have said: %s",
							       ab_verdict_name(a->verdict)));
		for (reason = rules_said; reason && *reason; reason++)
			ab_strv_push(&a->reasons, ab_xstrdup(*reason));
		ab_strv_free(rules_said);
		a->verdict = AB_INCONCLUSIVE_VERDICT;
	}
}
