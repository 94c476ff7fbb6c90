/* rules.c - acceptance rules, their outcomes per row and the verdict
 * (DESIGN.md "Statistics and verdict"; docs/rules.md).
 *
 * Inferential predicates decide on the decision interval [L, U] of the row
 * (exact one-sided 95% bounds): a predicate passes only when the bound
 * that must clear its threshold does, fails when the other bound refutes
 * it, and is inconclusive otherwise; equivalent_within is two such bounds
 * (TOST, Schuirmann 1987), and differs one bound at θ = 1 whose refutation
 * passes too (a difference either way, at most 2α under no change), which
 * is never refuted and so no member of the family below. A rule over
 * several rows passes only when
 * every row passes (intersection–union, Berger 1982: a conjunction of
 * level-α tests is a level-α test, no adjustment needed). A refutation
 * fails its rule only when it also survives Holm's step-down adjustment
 * (Holm 1979) over the verdict's family: the distinct (row, quantity,
 * refuted side) on which any rule can refute, each counted once and ranked
 * by its strongest refutation (docs/statistics.md, "Many rows, many
 * rules"), so that neither many noisy rows nor many rules can manufacture
 * a rejection, and a redundant looser rule changes nothing. Observational
 * predicates (pair wins, point-estimate ratios, per-side scaling) decide
 * on observed values, outside that claim, and say so. Predicates in one
 * rule combine by AND: fail > inconclusive > pass; dispersion gates can
 * turn a pass into inconclusive, never hide a fail. */
#include "rules.h"
#include "predicates.h"
#include "rules_text.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static char *pct(double fraction)
{
	return ab_xasprintf("%.4g%%", 100 * fraction);
}

/* The bounds of `iv` against component `pr`, and the one-sided p of its
 * refutation: the signed-rank test of d against ln θ, H0: ratio ≤ θ for a
 * component that passes below θ (its refutation is L > θ), ratio ≥ θ for
 * one that passes above (refuted by U < θ). */
static void judge(struct judged *j, const struct inferential *pr, const struct interval *iv)
{
	int below = pr->kind == AB_PASS_BELOW;
	struct ab_signed_rank sr;

	memset(j, 0, sizeof(*j));
	j->iv = *iv;
	j->raw = AB_INCONCLUSIVE;
	j->p = j->q = 1.0;
	j->member = NO_MEMBER;
	/* An empty intersection means that the looks' simultaneous coverage
	 * failed for this row: deciding on either bound would rest on that
	 * failure, so the component stays inconclusive and refutes nothing
	 * (docs/statistics.md, "An empty intersection"). */
	if (iv->available && !isnan(iv->lower) && !iv->empty) {
		if (below ? iv->upper < pr->theta : iv->lower > pr->theta)
			j->raw = AB_PASS;
		else if (below ? iv->lower > pr->theta : iv->upper < pr->theta)
			j->raw = AB_FAIL;
		if (pr->differs) {
			/* refutes nothing: no member of the family needs its p */
		} else if (iv->seq) {
			/* the repeated p-value: valid whichever look the row stopped at */
			if (ab_seq_repeated_p(iv->seq, iv->d, iv->n, log(pr->theta),
					      below ? AB_SEQ_GREATER : AB_SEQ_LESS, &j->p) < 0)
				j->p = 1;
		} else {
			ab_stats_signed_rank(&sr, iv->d, iv->n, log(pr->theta));
			j->p = below ? sr.p_greater : sr.p_less;
		}
	}
	j->outcome = j->raw;
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
		iv.seq = rr->seq;
		iv.empty = rm->st.ci_empty;
	}
	return iv;
}

/* The scaling change of a rule on another metric than the experiment's:
 * the analysis measures scaling on the experiment's metric only, so none. */
static struct interval scaling_elsewhere(void)
{
	struct interval iv;

	memset(&iv, 0, sizeof(iv));
	iv.why = "scaling is measured on the experiment's metric only, not on this rule's";
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
		iv.seq = rr->seq;
		iv.empty = iv.lower > iv.upper;
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
	struct judged e;
	char **w, *label;

	if (!cpu || pr->on_scaling || pr->tost || strcmp(exp->metrics[metric].name, "wall_ns") || !rr->flagged ||
	    !near_one(rr->quality[0].occupancy) || !near_one(rr->quality[1].occupancy))
		return;
	for (w = a->rule_warnings; w && *w; w++)
		if (strstr(*w, "'metric: cpu_ns'"))
			return;
	iv = metric_interval(rr, (size_t)(cpu - exp->metrics));
	judge(&e, pr, &iv);
	if (e.raw != AB_INCONCLUSIVE) {
		label = ab_row_label(exp, rr->row);
		ab_strv_push(&a->rule_warnings, ab_xasprintf("%s: '%s' (%s) is inconclusive on wall time "
			"while %zu sample(s) were contended, but the row is single-threaded (CPU occupancy "
			"%.2f) and its CPU time decides it (cpu_ns ratio %.3f [%.3f, %.3f]: %s); consider "
			"'metric: cpu_ns' for the next experiment, which other processes disturb less; "
			"switching this run's metric after seeing the data is not evidence (a metric chosen "
			"because it decides voids the error rates, which hold for one fixed in advance)",
			label, rule_name, pr->key, rr->flagged, rr->quality[1].occupancy, iv.estimate, iv.lower,
			iv.upper, e.raw == AB_PASS || pr->differs ? "pass" : "fail"));
		free(label);
	}
}

/* The decide functions of the observational predicates (enum ab_decide):
 * each adds its finding on the row. */
typedef void decide_fn(struct row_state *rs, const struct ab_predicate *pr, const struct ab_rule *rule,
		       const struct ab_row_result *rr, const struct ab_row_metric *rm);

/* The share of pairs a count predicate claims the candidate wins, and the
 * wins it needs on `rr`'s pairs: a share as set, a count k as k of the
 * planned pairs (of the first look, for a sequential plan: the plan
 * counts looks from there). */
static double claimed_share(const struct ab_predicate *pr, const struct ab_rule *rule,
			    const struct ab_row_result *rr, size_t *need)
{
	double share;

	if (pr->store == AB_STORE_DOUBLE)
		share = ab_predicate_value(pr, rule);
	else
		share = (double)ab_predicate_count(pr, rule) /
			(double)(rr->seq ? rr->seq->looks[0] : rr->planned_pairs);
	*need = rr->seq || pr->store == AB_STORE_DOUBLE ? (size_t)ceil(share * (double)rr->pairs - 1e-9)
							: ab_predicate_pairs_needed(pr, rule, rr->planned_pairs);
	return share;
}

static void decide_pair_wins(struct row_state *rs, const struct ab_predicate *pr,
			     const struct ab_rule *rule, const struct ab_row_result *rr,
			     const struct ab_row_metric *rm)
{
	size_t need;
	double share = claimed_share(pr, rule, rr, &need);
	char *p;

	/* A sequential row is judged once, at its last look, on the pairs it
	 * used: a share of those, and a count k as the share k / the first
	 * look's pairs (docs/statistics.md, "Sequential plans"). */
	if (!rm->available) {
		p = ab_xasprintf("%s: %s", pr->name, rm->unavailable);
		rules_add_phrase(rs, AB_INCONCLUSIVE, p);
	} else if (rm->st.wins >= need) {
		/* Under no change each untied pair is a win with
		 * probability 1/2: P(X >= need), X ~ Binomial(n, 1/2), is
		 * how often noise alone passes (the exact one-sided sign
		 * test p), so the reader can weigh an observed count. */
		size_t untied = rm->st.wins + rm->st.losses;
		double by_noise = 0, two_sided;

		if (need <= untied)
			ab_stats_sign_test(untied, need, &by_noise, &two_sided);
		p = ab_xasprintf("%zu pair wins, at least the %zu needed (observed; noise alone reaches %zu of "
				 "%zu%s with probability %.3g%%)", rm->st.wins, need, need, untied,
				 rm->st.ties ? " untied pairs" : "", 100 * by_noise);
		rules_add_phrase(rs, AB_PASS, p);
	} else {
		/* Fewer wins than claimed: a fail only when the claimed share
		 * is refuted in the verdict's family (count_judge). */
		const struct judged *j = rs->count;
		enum ab_outcome o = j ? j->outcome : AB_FAIL;
		char *adjusted = j && rs->family > 1 ? ab_xasprintf(", %.3g after Holm's adjustment over the "
								   "verdict's %zu refutations", j->q, rs->family)
						     : ab_xstrdup("");

		p = o == AB_FAIL
		    ? ab_xasprintf("%zu pair wins, fewer than the %zu needed: they refute a share of wins of "
				   "%.3g%% (one-sided binomial p %.3g%s)", rm->st.wins, need, 100 * share,
				   j ? j->p : 0, adjusted)
		    : ab_xasprintf("%zu pair wins, fewer than the %zu needed, but not fewer than noise allows: "
				   "they do not refute a share of wins of %.3g%% (one-sided binomial p %.3g%s, "
				   "above 0.05)", rm->st.wins, need, 100 * share, j ? j->p : 1, adjusted);
		free(adjusted);
		rules_add_phrase(rs, o, p);
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
		rules_add_phrase(rs, AB_INCONCLUSIVE, p);
	} else {
		int ok = max ? rm->st.ratio <= limit : rm->st.ratio >= limit;
		p = ab_xasprintf("point estimate %.3f %s %.4g (%s, no interval)", rm->st.ratio,
				 ok ? (max ? "at most" : "at least") : (max ? "above" : "below"), limit,
				 pr->name);
		rules_add_phrase(rs, ok ? AB_PASS : AB_FAIL, p);
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
		rules_add_phrase(rs, AB_INCONCLUSIVE, p);
	} else {
		int ok = s >= limit;
		p = ab_xasprintf("%s scaling %.2fx %s %.2fx (%s, no interval)", ab_side_name(side), s,
				 ok ? "at least" : "below", limit, pr->name);
		rules_add_phrase(rs, ok ? AB_PASS : AB_FAIL, p);
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

	for (p = ab_predicates; p->name; p++) {
		if (p->kind != AB_PREDICATE_OBSERVATIONAL || !ab_predicate_is_set(p, rule))
			continue;
		if (p->decide == AB_DECIDE_SCALING && metric != a->primary)  /* as scaling_elsewhere */
			rules_add_phrase(rs, AB_INCONCLUSIVE, "scaling unavailable: it is measured on the "
					 "experiment's metric only, not on this rule's");
		else
			observed_deciders[p->decide](rs, p, rule, rr, &rr->metrics[metric]);
	}
}

/* Dispersion gates turn a pass into inconclusive; they never hide a fail. */
static void dispersion(struct row_state *rs, const struct ab_rule *rule, const struct ab_analysis *a,
		       size_t metric, int only_gates)
{
	const struct ab_row_metric *rm = &a->rows[rs->row].metrics[metric];
	char *p = NULL;

	if (a->exp->contention.exhausted == AB_CONTENTION_INCONCLUSIVE && a->rows[rs->row].contended_pairs) {
		p = ab_xasprintf("%zu pair(s) delayed by other processes kept after %zu re-run(s) "
				 "(contention.when_exhausted: inconclusive)", a->rows[rs->row].contended_pairs,
				 a->rows[rs->row].reruns);
		rules_add_phrase(rs, AB_INCONCLUSIVE, p);
		free(p);
		p = NULL;
	}
	if (rule->max_flagged_samples >= 0 &&
	    a->rows[rs->row].flagged > (size_t)rule->max_flagged_samples) {
		p = ab_xasprintf("%zu flagged sample(s), more than max_flagged_samples %lld",
				 a->rows[rs->row].flagged, (long long)rule->max_flagged_samples);
		rules_add_phrase(rs, AB_INCONCLUSIVE, p);
		free(p);
		p = NULL;
	} else if (rule->max_flagged_samples >= 0 && only_gates && isnan(rule->max_rsd) &&
		   isnan(rule->max_ci_width)) {
		rules_add_phrase(rs, AB_PASS, "no more flagged samples than allowed");
	}
	if (isnan(rule->max_rsd) && isnan(rule->max_ci_width))
		return;
	if (!rm->available) {
		p = ab_xasprintf("dispersion: %s", rm->unavailable);
		rules_add_phrase(rs, AB_INCONCLUSIVE, p);
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
		rules_add_phrase(rs, AB_INCONCLUSIVE, p);
	} else if (only_gates) {
		rules_add_phrase(rs, AB_PASS, "dispersion within the gates");
	}
	free(p);
}

/* Index of metric `name` in exp->metrics (ab_experiment_metric), or 0. */
static size_t metric_index(const struct ab_experiment *exp, const char *name)
{
	const struct ab_metric *m = ab_experiment_metric(exp, name);

	return m ? (size_t)(m - exp->metrics) : 0;
}

/* Component out[n] of predicate `p` with value x, threshold θ on `side`. */
static void component(struct inferential *out, const struct ab_predicate *p, double x, double theta,
		      enum ab_pass_side side, int reciprocal, int tost)
{
	char *shown = p->arg == AB_ARG_PERCENT ? pct(x) : ab_xasprintf("%.4g", x);

	out->key = p->name;
	out->kind = side;
	out->theta = theta;
	out->margin = x;
	out->reciprocal = reciprocal;
	out->meaning = ab_xasprintf(p->meaning, shown);
	out->refuted = ab_xasprintf(p->refuted, shown);
	out->inconclusive = ab_xasprintf(p->inconclusive, shown);
	out->on_scaling = p->on_scaling;
	out->tost = tost;
	free(shown);
}

/* differs as one component at θ = 1 passing below, whose pass (U < 1)
 * and refutation (L > 1) both say which side the difference favours: B
 * when its values are lower on a lower-is-better metric, else A. The
 * sides by their names when the experiment declares `sides:`. */
static void differs_component(struct inferential *out, const struct ab_predicate *p,
			      const struct ab_experiment *exp, enum ab_better better)
{
	const char *a = exp->has_sides ? exp->sides[0].name : "the parent";
	const char *b = exp->has_sides ? exp->sides[1].name : "the candidate";
	int low_wins = better != AB_HIGHER_IS_BETTER;

	component(out, p, 1, 1, AB_PASS_BELOW, 0, 0);
	free(out->meaning);
	free(out->refuted);
	out->meaning = ab_xasprintf("%s, in favour of %s", p->meaning, low_wins ? b : a);
	out->refuted = ab_xasprintf("%s, in favour of %s", p->meaning, low_wins ? a : b);
	out->differs = 1;
}

/* The components of the inferential predicates a rule declares, in the
 * table's order. For a higher-is-better metric the bound predicates'
 * thresholds are the reciprocals; equivalence is symmetric. */
static size_t inferentials(struct inferential *out, const struct ab_rule *rule,
			   const struct ab_experiment *exp, enum ab_better better)
{
	const struct ab_predicate *p;
	enum ab_pass_side side;
	size_t n = 0;
	int reciprocal;

	for (p = ab_predicates; p->name; p++) {
		double x, theta;

		if ((p->decide != AB_DECIDE_BOUND && p->decide != AB_DECIDE_EQUIVALENCE &&
		     p->decide != AB_DECIDE_DIFFERS) || !ab_predicate_is_set(p, rule))
			continue;
		if (p->decide == AB_DECIDE_DIFFERS) {
			differs_component(&out[n++], p, exp, better);
			continue;
		}
		x = ab_predicate_value(p, rule);
		theta = ab_predicate_theta(p, x, better, &side, &reciprocal);
		if (p->decide == AB_DECIDE_BOUND) {
			component(&out[n++], p, x, theta, side, reciprocal, 0);
			continue;
		}
		component(&out[n++], p, x, 1 + x, AB_PASS_BELOW, 0, 1);
		component(&out[n++], p, x, 1 / (1 + x), AB_PASS_ABOVE, 1, 2);
	}
	return n;
}

static void release_predicate(struct inferential *pr)
{
	free(pr->meaning);
	free(pr->refuted);
	free(pr->inconclusive);
}

/* A rule while it is evaluated: its rows, its inferential components and
 * their judgements, which the verdict's family adjusts before the rule's
 * findings are written. */
struct rule_work {
	size_t metric;
	struct row_state *rows;
	size_t n;
	struct inferential comps[16];  /* more than the table's bound predicates, equivalence twice */
	size_t ncomps;
	struct judged *j;              /* [c * n + i]: component c on row i */
	struct judged *count;          /* [i]: min_pair_wins on row i (count_pairs_judge), or NULL */
};

/* The warning for an interval too wide to decide component c on a row:
 * wider than the margin |ln θ| of a bound, or than the range 2 ln(1+δ)
 * of an equivalence, which it must fit in. The width shrinks about as
 * 1/sqrt(n). */
/* What a fixed plan of `need` pairs asks of limits.samples (experiment.h,
 * AB_LIMIT_SAMPLES): "" when the measured rows' samples at that many
 * pairs fit the experiment's limit, else the clause that says to raise it
 * and what the limit bounds (new string). */
static char *samples_limit(const struct ab_experiment *exp, double need)
{
	size_t nrows = ab_experiment_nrows(exp), r, rows = 0;
	double samples;

	for (r = 0; r < nrows; r++)
		rows += ab_experiment_row_selected(exp, r) != 0;
	samples = (double)rows * 2 * (need + exp->warmup);
	if (!exp->limit_samples || samples <= (double)exp->limit_samples)
		return ab_xstrdup("");
	if (samples > AB_LIMIT_MAX_SAMPLES)
		return ab_xasprintf("; that plan's %.0f samples are more than limits.samples can allow (%d, "
				    "which bounds a plan's memory and the store's rows): fewer rows (--row)",
				    samples, AB_LIMIT_MAX_SAMPLES);
	return ab_xasprintf("; that plan's %.0f samples need limits: {samples: %.0f} in the experiment "
			    "file (now %zu; the limit bounds a plan's memory and the store's rows)", samples,
			    samples, exp->limit_samples);
}

static void width_warning(struct ab_analysis *a, const struct rule_work *w, size_t c, size_t i,
			  const char *rule_name)
{
	const struct inferential *pr = &w->comps[c];
	const struct judged *j = &w->j[c * w->n + i];
	const struct interval *iv = &j->iv;
	double wlog, margin, need;
	char *label, *how;

	if (!iv->available || isnan(iv->lower) || pr->theta == 1 || pr->tost == 2)
		return;
	if (pr->tost ? j->raw == AB_FAIL || w->j[(c + 1) * w->n + i].raw == AB_FAIL
		     : j->raw != AB_INCONCLUSIVE)
		return;
	wlog = log(iv->upper / iv->lower);
	margin = pr->tost ? 2 * log(pr->theta) : fabs(log(pr->theta));
	if (wlog <= margin)
		return;
	label = ab_row_label(a->exp, w->rows[i].row);
	need = ceil((double)iv->n * (wlog / margin) * (wlog / margin));
	/* Advice within the limits: a sequential plan stops at
	 * AB_SEQ_MAX_PAIRS pairs (what bounds the simulation of its
	 * boundaries), an experiment at AB_EXPERIMENT_MAX_PAIRS. */
	if (iv->seq && need <= AB_SEQ_MAX_PAIRS)
		how = ab_xstrdup(" (a larger pairs.max, or --max-pairs, up to 256)");
	else if (iv->seq && need <= AB_EXPERIMENT_MAX_PAIRS)
		how = ab_xasprintf(", more than the %d a sequential plan allows (its boundaries are "
				   "computed to %d pairs): a fixed plan of that many pairs, a wider margin or "
				   "less noise", AB_SEQ_MAX_PAIRS, AB_SEQ_MAX_PAIRS);
	else if (need > AB_EXPERIMENT_MAX_PAIRS)
		how = ab_xasprintf(", more than the %d pairs an experiment allows: a wider margin or less "
				   "noise", AB_EXPERIMENT_MAX_PAIRS);
	else
		how = ab_xstrdup("");
	if (!(iv->seq && need <= AB_SEQ_MAX_PAIRS) && need <= AB_EXPERIMENT_MAX_PAIRS) {
		char *lim = samples_limit(a->exp, need), *both = ab_xasprintf("%s%s", how, lim);

		free(how);
		free(lim);
		how = both;
	}
	ab_strv_push(&a->rule_warnings, ab_xasprintf("%s: the %s interval is %.2f%% wide, wider than the "
		"%.2f%% %s of '%s' (%s): it can hardly be decided; about %.0f pairs would narrow it to the %s%s",
		label, iv->seq ? "repeated" : "90%", 100 * expm1(wlog), 100 * expm1(margin),
		pr->tost ? "range" : "margin", rule_name, pr->key, need, pr->tost ? "range" : "margin", how));
	free(how);
	free(label);
}

/* Select the rule's rows and judge its inferential components on them. */
/*
 * The count predicate (min_pair_wins) as a refutation: the claim is that
 * the candidate wins a pair with probability at least q, the share the
 * count states. The row passes when the wins reach the count; it fails
 * only when the claim is refuted: P(X <= wins) for X ~ Binomial(pairs,
 * q), the exact one-sided binomial (sign) test, is small enough in the
 * verdict's family (it is a member, adjusted with the interval
 * refutations by family_adjust); otherwise fewer wins than the count are
 * what noise can do, and the row is inconclusive. A tie is not a win.
 */
static void count_judge(struct rule_work *w, const struct ab_rule *rule, const struct ab_analysis *a)
{
	const struct ab_predicate *pr;
	size_t i;

	for (pr = ab_predicates; pr->name; pr++)
		if (pr->decide == AB_DECIDE_PAIR_WINS && ab_predicate_is_set(pr, rule))
			break;
	if (!pr->name || !w->n)
		return;
	w->count = ab_xcalloc(w->n, sizeof(*w->count));
	for (i = 0; i < w->n; i++) {
		const struct ab_row_result *rr = &a->rows[w->rows[i].row];
		const struct ab_row_metric *rm = &rr->metrics[w->metric];
		struct judged *j = &w->count[i];
		size_t need;
		double share = claimed_share(pr, rule, rr, &need);

		j->member = NO_MEMBER;
		j->p = 1;
		j->q = 1;
		j->iv.available = rm->available && rr->pairs > 0;
		if (!j->iv.available) {
			j->raw = j->outcome = AB_INCONCLUSIVE;
			continue;
		}
		j->iv.lower = share;  /* the claimed share, for the reason */
		j->iv.estimate = (double)rm->st.wins;
		j->raw = rm->st.wins >= need ? AB_PASS : AB_FAIL;
		j->p = ab_stats_binomial_cdf(rm->st.wins, rr->pairs, share > 1 ? 1 : share);
		j->outcome = j->raw;
	}
}

static void rule_start(struct rule_work *w, const struct ab_rule *rule, struct ab_analysis *a)
{
	const struct ab_experiment *exp = a->exp;
	size_t r, c, i;

	memset(w, 0, sizeof(*w));
	w->metric = metric_index(exp, rule->metric ? rule->metric : exp->metric);
	w->rows = ab_xcalloc(a->nrows ? a->nrows : 1, sizeof(*w->rows));
	/* Rows never measured (absent from an analyze input) are not judged. */
	for (r = 0; r < a->nrows; r++)
		if (ab_selector_match(&rule->where, exp, r) && a->rows[r].samples)
			w->rows[w->n++].row = r;
	w->ncomps = inferentials(w->comps, rule, exp, exp->metrics[w->metric].better);
	w->j = ab_xcalloc(w->ncomps * w->n + 1, sizeof(*w->j));
	for (c = 0; c < w->ncomps; c++)
		for (i = 0; i < w->n; i++) {
			const struct ab_row_result *rr = &a->rows[w->rows[i].row];
			struct interval iv = !w->comps[c].on_scaling ? metric_interval(rr, w->metric)
					     : w->metric == a->primary ? scaling_interval(rr)
					     : scaling_elsewhere();
			judge(&w->j[c * w->n + i], &w->comps[c], &iv);
			if (w->j[c * w->n + i].raw == AB_INCONCLUSIVE)
				suggest_cpu_ns(a, rr, w->metric, &w->comps[c], rule->name);
		}
	for (c = 0; c < w->ncomps; c++)
		for (i = 0; i < w->n; i++)
			width_warning(a, w, c, i, rule->name);
	count_judge(w, rule, a);
}

/* A judgement with a bound, keyed by its member of the family. */
struct member_ref {
	size_t row, quantity;     /* quantity: a metric's index, or nmetrics for the scaling change */
	int side;                 /* enum ab_pass_side of the component (the refuted side opposite) */
	struct judged *j;
};

static int by_member(const void *pa, const void *pb)
{
	const struct member_ref *a = pa, *b = pb;

	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	if (a->quantity != b->quantity)
		return a->quantity < b->quantity ? -1 : 1;
	return (a->side > b->side) - (a->side < b->side);
}

/*
 * The verdict's family (docs/statistics.md, "Many rows, many rules"): its
 * members are the distinct (row, quantity, side) that some rule's
 * component can refute on, whatever the rules' thresholds; each counts
 * once in m. A member's p is that of its strongest refutation, the
 * smallest p of its components, and Holm's step-down over the members'
 * p gives each member its rank r. A refutation at p on a member of rank r
 * is kept when q = max(q of the member ranked r-1, min(1, (m-r) p)) ≤ α:
 * judged at the level α/(m-r) of its member's rank once the members
 * ranked before it are rejected. A looser threshold on the same member
 * has a larger p, so it changes neither m, nor the member's p, nor any
 * rank: it changes no other outcome. With m = 1 the bound decides alone,
 * as before. Returns m.
 */
static size_t family_adjust(struct rule_work *w, size_t nrules, const struct ab_analysis *a)
{
	struct member_ref *refs;
	size_t nrefs = 0, k, c, i, m = 0, *rank, *by_rank;
	double *pm, *qm;

	for (k = 0; k < nrules; k++)
		nrefs += (w[k].ncomps + 1) * w[k].n;
	refs = ab_xmalloc((nrefs + 1) * sizeof(*refs));
	nrefs = 0;
	for (k = 0; k < nrules; k++) {
		for (c = 0; c < w[k].ncomps; c++)
			for (i = 0; i < w[k].n; i++) {
				struct judged *j = &w[k].j[c * w[k].n + i];
				if (!j->iv.available || isnan(j->iv.lower) || w[k].comps[c].differs)
					continue;
				refs[nrefs++] = (struct member_ref){ w[k].rows[i].row,
					w[k].comps[c].on_scaling ? a->exp->nmetrics : w[k].metric,
					(int)w[k].comps[c].kind, j };
			}
		/* a count's refutation is a member of its own: the row's pair wins */
		for (i = 0; w[k].count && i < w[k].n; i++)
			if (w[k].count[i].iv.available)
				refs[nrefs++] = (struct member_ref){ w[k].rows[i].row, a->exp->nmetrics + 1, 0,
								     &w[k].count[i] };
	}
	qsort(refs, nrefs, sizeof(*refs), by_member);
	pm = ab_xmalloc((nrefs + 1) * sizeof(*pm));
	for (i = 0; i < nrefs; i++) {
		if (i == 0 || by_member(&refs[i - 1], &refs[i]))
			pm[m++] = refs[i].j->p;
		refs[i].j->member = m - 1;
		pm[m - 1] = fmin(pm[m - 1], refs[i].j->p);
	}
	qm = ab_xmalloc((m + 1) * sizeof(*qm));
	rank = ab_xmalloc((m + 1) * sizeof(*rank));
	by_rank = ab_xmalloc((m + 1) * sizeof(*by_rank));
	ab_stats_holm(qm, rank, pm, m);
	for (k = 0; k < m; k++)
		by_rank[rank[k]] = k;
	for (i = 0; i < nrefs; i++) {
		struct judged *j = refs[i].j;
		size_t r = rank[j->member];
		double before = r ? qm[by_rank[r - 1]] : 0;

		j->q = fmax(before, fmin(1.0, (double)(m - r) * j->p));
		if (j->raw == AB_FAIL && m > 1 && j->q > AB_STATS_ALPHA)
			j->outcome = AB_INCONCLUSIVE;
	}
	/* a count below its claim fails only when refuted (no bound has
	 * decided it at α already, even alone in the family) */
	for (k = 0; k < nrules; k++)
		for (i = 0; w[k].count && i < w[k].n; i++) {
			struct judged *j = &w[k].count[i];
			if (j->iv.available && j->raw == AB_FAIL)
				j->outcome = j->q <= AB_STATS_ALPHA ? AB_FAIL : AB_INCONCLUSIVE;
		}
	free(refs);
	free(pm);
	free(qm);
	free(rank);
	free(by_rank);
	return m;
}

/* The components' findings on the rule's rows, after the adjustment. */
static void inferential_findings(struct rule_work *w, size_t m)
{
	size_t c, i;

	for (c = 0; c < w->ncomps; c++) {
		if (w->comps[c].tost == 2)
			continue;
		for (i = 0; i < w->n; i++) {
			const struct judged *j = &w->j[c * w->n + i];
			enum ab_outcome o = j->outcome;
			char *phrase = w->comps[c].tost
				? rules_equivalence_phrase(&w->comps[c], j, &w->comps[c + 1],
							   &w->j[(c + 1) * w->n + i], m, &o)
				: rules_bound_phrase(&w->comps[c], j, w->comps[c].differs ? 1 : m);

			if (w->comps[c].differs && o == AB_FAIL)
				o = AB_PASS;  /* L > 1: a difference, the other way */
			rules_add_phrase(&w->rows[i], o, phrase);
			w->rows[i].inferential = 1;
			if (o > w->rows[i].decided)
				w->rows[i].decided = o;
			free(phrase);
		}
	}
	for (c = 0; c < w->ncomps; c++)
		release_predicate(&w->comps[c]);
	free(w->j);
	w->j = NULL;
}

/* Whether a rule selects rows of the matrix, all of them outside the run's subset. */
static int selects_outside_subset(const struct ab_rule *rule, const struct ab_experiment *exp)
{
	size_t r, nrows = ab_experiment_nrows(exp), n = 0;

	for (r = 0; r < nrows; r++) {
		if (!ab_selector_match(&rule->where, exp, r))
			continue;
		if (ab_experiment_row_selected(exp, r))
			return 0;
		n++;
	}
	return n > 0;
}

/* The rule's findings on its rows (the inferential ones adjusted over the
 * verdict's m refutations), its outcome and its detail. Frees w. */
static void rule_finish(struct ab_rule_result *res, struct rule_work *w, const struct ab_rule *rule,
			struct ab_analysis *a, size_t m)
{
	struct row_state *rows = w->rows;
	size_t n = w->n, i, len;
	const struct ab_predicate *p;
	enum ab_outcome worst = AB_PASS;
	int has_decider;

	inferential_findings(w, m);
	for (p = ab_predicates, has_decider = 0; p->name; p++)
		has_decider |= (p->kind == AB_PREDICATE_INFERENTIAL || p->kind == AB_PREDICATE_OBSERVATIONAL) &&
			       ab_predicate_is_set(p, rule);
	for (i = 0; i < n; i++) {
		rows[i].count = w->count ? &w->count[i] : NULL;
		rows[i].family = m;
		observational(&rows[i], rule, a, w->metric);
		dispersion(&rows[i], rule, a, w->metric, !has_decider);
		if (!rows[i].nfindings)  /* integrity-only rule */
			rules_add_phrase(&rows[i], AB_PASS, "integrity settings only");
	}

	res->rows = ab_xcalloc(n ? n : 1, sizeof(*res->rows));
	res->nrows = n;
	for (i = 0; i < n; i++) {
		char *head = rules_row_head(a, rows[i].row, w->metric);
		char *phrases = rules_join_findings(&rows[i]);
		res->rows[i].row = rows[i].row;
		res->rows[i].outcome = rows[i].outcome;
		res->rows[i].inferential = rows[i].inferential;
		res->rows[i].decided = rows[i].decided;
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
	} else if (a->exp->row_subset && selects_outside_subset(rule, a->exp)) {
		res->not_evaluated = 1;
		res->detail = ab_xstrdup("not evaluated: every row it selects is outside the subset (--row)");
	} else {
		res->detail = ab_xstrdup("selects no row: inconclusive");
	}
	free(rows);
	free(w->count);  /* read by the rows' count findings above */
	w->rows = NULL;
	w->count = NULL;
}

void ab_rules_evaluate(struct ab_analysis *a, char *const *integrity, char *const *unmet)
{
	const struct ab_experiment *exp = a->exp;
	struct rule_work *work;
	char *const *reason;
	size_t i, r;
	int invalid = 0, failed = 0, inconclusive = 0;
	size_t evaluated = 0;

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
	work = ab_xcalloc(exp->nrules ? exp->nrules : 1, sizeof(*work));
	for (i = 0; i < exp->nrules; i++)
		rule_start(&work[i], &exp->rules[i], a);
	a->refutations = family_adjust(work, exp->nrules, a);
	for (i = 0; i < exp->nrules; i++) {
		rule_finish(&a->rules[i], &work[i], &exp->rules[i], a, a->refutations);
		if (a->rules[i].not_evaluated)
			continue;  /* a subset run decides on the rules it measured */
		evaluated++;
		failed |= a->rules[i].outcome == AB_FAIL;
		inconclusive |= a->rules[i].outcome == AB_INCONCLUSIVE;
	}
	free(work);
	if (!invalid) {
		for (i = 0; i < exp->nrules; i++)
			if (!a->rules[i].not_evaluated &&
			    a->rules[i].outcome == (failed ? AB_FAIL : AB_INCONCLUSIVE))
				ab_strv_push(&a->reasons, ab_xasprintf("%s: %s", exp->rules[i].name,
								       a->rules[i].detail));
		if (!exp->nrules) {
			ab_strv_push(&a->reasons, ab_xstrdup("no acceptance rules: add an 'accept:' list to the "
							     "experiment file (or give abtool analyze --accept RULES.yaml)"));
			inconclusive = 1;
		} else if (!evaluated) {
			ab_strv_push(&a->reasons, ab_xstrdup("no rule selects a row of the subset (--row): "
							     "nothing was evaluated"));
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

