/* predicates.h - the predicates of acceptance rules as data (docs/rules.md
 * "Predicates"): one table, ab_predicates[], says for each predicate its
 * rule key, its kind, its argument, where a rule keeps its value, how it
 * decides and the words of its reasons. The parser (config_rules.c) reads
 * the keys it lists, rules.c evaluates them, `abtool check` warns about
 * rules that decide on observed values only, and a unit test checks the
 * table against docs/rules.md.
 *
 * Adding a predicate: a field in struct ab_rule (experiment.h), an entry
 * in ab_predicates[] (predicates.c) and, when it decides in a new way, a
 * member of enum ab_decide and its decide function in rules.c. */
#ifndef AB_PREDICATES_H
#define AB_PREDICATES_H

#include <stddef.h>
#include <stdint.h>

#include "experiment.h"

enum ab_predicate_kind {
	AB_PREDICATE_INFERENTIAL = 0, /* decides on the decision interval [L, U] */
	AB_PREDICATE_OBSERVATIONAL,   /* decides on observed values, and says so */
	AB_PREDICATE_GATE,            /* dispersion gate: can turn a pass into inconclusive */
	AB_PREDICATE_INTEGRITY,       /* a row's integrity policy (ab_experiment_row_policy) */
};

/* The argument of the rule key, and how the parser reads it. */
enum ab_predicate_arg {
	AB_ARG_PERCENT = 0, /* a margin like 5% (0.05) */
	AB_ARG_RATIO,       /* r, {bound: r} or {estimate: r}: a positive ratio */
	AB_ARG_PAIR_WINS,   /* a count of pairs like 7, or a share of them like 90% */
	AB_ARG_SCALING,     /* s (the candidate) or {candidate: s, parent: t}: positive */
	AB_ARG_CHECKSUM,    /* must_match or may_change */
	AB_ARG_PAIRS,       /* a count of pairs from 0 to 100000 */
	AB_ARG_SAMPLES,     /* a count of samples from 0 to 1000000 */
	AB_ARG_TRUE,        /* `true`, its only value (stored as 1) */
};

/* The type of the value's field in struct ab_rule, and its unset value. */
enum ab_predicate_store {
	AB_STORE_DOUBLE = 0, /* double, NAN unset */
	AB_STORE_INT64,      /* int64_t, -1 unset */
	AB_STORE_INT,        /* int, -1 unset */
};

/* How a predicate decides on a row (rules.c keeps a decide function for each). */
enum ab_decide {
	AB_DECIDE_NONE = 0,    /* integrity: decides nothing itself */
	AB_DECIDE_BOUND,       /* a bound of the interval against a threshold θ */
	AB_DECIDE_EQUIVALENCE, /* both bounds inside [1/θ, θ], θ = 1+δ: two one-sided
	                          tests (TOST, Schuirmann 1987); rules.c decides it as two
	                          bounds, U < θ and L > 1/θ */
	AB_DECIDE_DIFFERS,     /* two-sided: passes when the interval excludes 1 on either
	                          side (U < 1 or L > 1), inconclusive otherwise, never
	                          refuted; rules.c decides it as one bound at θ = 1 whose
	                          refutation counts as its pass, outside the verdict's family
	                          (docs/statistics.md, "A difference either way") */
	AB_DECIDE_PAIR_WINS,   /* the pairs the candidate wins against a count */
	AB_DECIDE_ESTIMATE,    /* the point estimate against a ratio */
	AB_DECIDE_SCALING,     /* one side's scaling at the row against a floor */
	AB_DECIDE_GATES,       /* the dispersion gates, together */
};

/* Where a predicate passes: a ratio below its threshold, or above it. */
enum ab_pass_side {
	AB_PASS_BELOW = 0,     /* pass when U < θ, refuted when L > θ; estimate: at most */
	AB_PASS_ABOVE,         /* pass when L > θ, refuted when U < θ; estimate: at least */
};

struct ab_predicate {
	const char *name;          /* the rule key */
	const char *form;          /* the form of the key that sets this value: "bound",
	                              "estimate", "count", "share", "parent", "candidate";
	                              NULL when the key has one */
	enum ab_predicate_kind kind;
	enum ab_predicate_arg arg;
	enum ab_predicate_store store;
	size_t offset;             /* of the value in struct ab_rule */
	enum ab_decide decide;
	enum ab_pass_side side;    /* for a lower-is-better metric */
	int margin_up;             /* AB_ARG_PERCENT: θ = 1+δ (1) or 1/(1+δ) (0), for a
	                              lower-is-better metric */
	int follows_better;        /* mirrored (θ and side) for a higher-is-better metric */
	int on_scaling;            /* decides on the scaling change, not on the metric */
	int needs_scaling;         /* the experiment must have `scaling:` */
	/* Reasons, printf formats of one %s, the value as shown ("5%", "1.01"): */
	const char *meaning;       /* what a pass shows */
	const char *refuted;       /* what a fail shows */
	const char *inconclusive;  /* what cannot be shown */
	const char *json;          /* its key in the report's rule object, or NULL */
};

/* What `abtool compare` decides when given no rule (docs/cli.md,
 * "compare"): whether the two commands differ, either way, as an item of
 * `accept:` (a YAML flow mapping), on a sequential plan from MIN to MAX
 * pairs per row (`pairs: {min, max}`; docs/statistics.md, "A difference
 * either way"). */
#define AB_COMPARE_DEFAULT_RULE "{name: differs, differs: true}"
#define AB_COMPARE_DEFAULT_MIN_PAIRS 8
#define AB_COMPARE_DEFAULT_MAX_PAIRS 64

/* The predicates, ended by an entry whose name is NULL. Their order is
 * the order in which the parser reads the keys (a file's first error) and
 * in which a rule's findings are listed. */
extern const struct ab_predicate ab_predicates[];

/* 1 when rule `r` sets predicate `p`. */
int ab_predicate_is_set(const struct ab_predicate *p, const struct ab_rule *r);

/* The value of `p` in `r` as a double (a count converted). */
double ab_predicate_value(const struct ab_predicate *p, const struct ab_rule *r);

/* The value of a count or policy predicate (AB_STORE_INT64, AB_STORE_INT)
 * exactly; -1 when unset. */
int64_t ab_predicate_count(const struct ab_predicate *p, const struct ab_rule *r);

/* Set every predicate of `r` unset. */
void ab_predicates_clear(struct ab_rule *r);

/* The entry for key `name` in `form` (NULL: the key's first entry), or NULL. */
const struct ab_predicate *ab_predicate_find(const char *name, const char *form);

/*
 * The threshold θ of a bound predicate with value `value`, as a ratio in
 * the interval's own terms, for a metric where `better`; *side is where
 * it passes and *reciprocal is 1 when θ = 1/(1+δ) (shown so). A percent
 * margin δ gives 1+δ or 1/(1+δ) (docs/rules.md, "Inferential"); a ratio
 * is θ itself.
 */
double ab_predicate_theta(const struct ab_predicate *p, double value, enum ab_better better,
			  enum ab_pass_side *side, int *reciprocal);

/* The pair wins a row of `planned` pairs needs for a pair-wins predicate:
 * the count, or ⌈share × planned⌉. */
size_t ab_predicate_pairs_needed(const struct ab_predicate *p, const struct ab_rule *r,
				 size_t planned);

/* Why an observational predicate of `r` decides on observed values, for
 * `abtool check` (new string), with `pairs` planned pairs per row: e.g.
 * "noise alone passes min_pair_wins: 7 of 10 pairs with probability
 * 17.2%". Under no change each untied pair is a win with probability 1/2,
 * so that is the exact one-sided sign test's p. */
char *ab_predicate_observed_note(const struct ab_predicate *p, const struct ab_rule *r, int pairs);

#endif
