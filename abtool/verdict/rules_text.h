/* rules_text.h - the findings of rules.c in words, private to rules*.c:
 * the structs a rule's evaluation shares (its inferential components, a
 * row's interval, a component judged on a row, a row's findings) and the
 * phrases made of them (rules_text.c): a bound against its threshold,
 * equivalence, the findings of a row joined, and the row's head line. */
#ifndef AB_RULES_TEXT_H
#define AB_RULES_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "predicates.h"

/* One one-sided component of an inferential predicate of a rule: pass
 * when the interval lies on one side of a threshold θ (a ratio), refuted
 * when it lies on the other. A bound predicate has one component;
 * equivalent_within has two, its upper (pass when U < 1+δ) and, next to
 * it, its lower (pass when L > 1/(1+δ)). */
struct inferential {
	const char *key;          /* the rule key, for messages */
	enum ab_pass_side kind;
	double theta;             /* threshold as a ratio, in the interval's own terms */
	double margin;            /* the predicate's value (θ = 1/(1 + margin) when reciprocal) */
	int reciprocal;
	char *meaning;            /* what a pass shows: "no regression above 2%" (new) */
	char *refuted;            /* what a fail shows: "a regression above 2%" (new) */
	char *inconclusive;       /* "cannot exclude a regression above 2%" (new) */
	int on_scaling;           /* decides on the scaling change instead of the metric */
	int tost;                 /* 1: equivalent_within's upper component, 2: its lower; 0: a bound */
	int differs;              /* differs: θ = 1, passing below; its refutation (L > 1) is a
	                             difference too, so both decided sides pass and it is no
	                             member of the verdict's family */
};

/* One row's evidence for an inferential predicate. */
struct interval {
	int available;
	const char *why;          /* when not available */
	double estimate, lower, upper;   /* ratios */
	const double *d;          /* log values the interval is made of */
	size_t n;
	const struct ab_seq_plan *seq;  /* a sequential plan's (the bounds are repeated ones), or NULL */
	int empty;                /* the looks' repeated intervals do not intersect (lower > upper):
	                             nothing is decided on it */
};

#define NO_MEMBER SIZE_MAX

/* One component judged on one row. */
struct judged {
	struct interval iv;
	enum ab_outcome raw;      /* on the bounds alone */
	double p;                 /* one-sided signed-rank p of the refutation; 1 without a bound */
	size_t member;            /* its member of the verdict's family, or NO_MEMBER (no bound) */
	double q;                 /* p after the family's Holm adjustment */
	enum ab_outcome outcome;  /* after the adjustment: a refutation that does not survive it
	                             is inconclusive */
};

/* One predicate's finding on a row. */
struct finding {
	enum ab_outcome outcome;
	char *phrase;             /* new */
};

/* Per-row state while a rule is evaluated. */
struct row_state {
	size_t row;
	const struct judged *count; /* the rule's pair-wins count on the row, or NULL */
	size_t family;            /* members of the verdict's family (family_adjust) */
	enum ab_outcome outcome;  /* the worst finding's */
	int inferential;          /* an interval predicate judged the row */
	enum ab_outcome decided;  /* the worst of the interval predicates' findings */
	struct finding *findings;
	size_t nfindings, cap;
};

/*
 * A component's finding on a row, after the family's adjustment over m
 * members: "lower bound 1.027 above 1.020 (a regression above 2%), kept
 * by Holm's adjustment over the verdict's 3 refutations (p 0.0117)".
 * Returns new memory.
 */
char *rules_bound_phrase(const struct inferential *pr, const struct judged *j, size_t m);

/*
 * equivalent_within on a row from its upper (`up`, U < 1+δ) and lower
 * (`lo`, L > 1/(1+δ)) components: pass when both pass, fail when the
 * interval lies wholly outside [1/(1+δ), 1+δ] (one component refuted, and
 * the refutation kept by the family's adjustment), inconclusive otherwise.
 * Returns new memory; *o receives the outcome.
 */
char *rules_equivalence_phrase(const struct inferential *up, const struct judged *ju,
			       const struct inferential *lo, const struct judged *jl, size_t m,
			       enum ab_outcome *o);

/* Add the finding `phrase` (copied) with outcome o to the row, whose
 * outcome becomes the worst of its findings'. */
void rules_add_phrase(struct row_state *rs, enum ab_outcome o, const char *phrase);

/*
 * The findings joined by ", ", the worst outcome first (a stable order:
 * the failing part leads, so that a view cut to its width keeps it);
 * when they differ in outcome, each is tagged with its own ("... [fail],
 * ... [pass]") so the reader sees which predicate decided the row. Frees
 * the findings; returns new memory.
 */
char *rules_join_findings(struct row_state *rs);

/* The head of a row's line for `metric`: "lanes=2: ratio 1.041 [1.027,
 * 1.058] (1/8 pair wins)". Returns new memory. */
char *rules_row_head(const struct ab_analysis *a, size_t row, size_t metric);

#endif
