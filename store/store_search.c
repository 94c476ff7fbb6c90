/* store_search.c - the searched text of a run's reasons (store_search.h).
 * The full-text search once read every reason whole, so that a word of
 * abtool's own explanations ("noise alone reaches 5 of 6 ...", in every
 * min_pair_wins finding) found every run. What is searched now is what
 * the user wrote (the rule's name, the row's parameters and metric) and
 * what failed, read from the reasons' grammar (abtool/verdict/rules.c:
 * rule_finish joins a rule's rows with "; ", each "LABEL: HEAD: FINDINGS:
 * OUTCOME", the findings joined worst first with ", " and marked
 * " [outcome]" when they differ). The text is computed here, in C, for
 * both engines alike, and kept in runs.search_text, which the search
 * index follows (migrations 0013). */
#include "store_search.h"
#include "store_core.h"
#include "util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* A growing string. */
struct text {
	char *s;
	size_t len, cap;
};

static void put(struct text *t, const char *p, size_t n)
{
	if (t->len + n + 2 > t->cap) {
		t->cap = 2 * (t->len + n + 2);
		t->s = ab_xrealloc(t->s, t->cap);
	}
	memcpy(t->s + t->len, p, n);
	t->len += n;
	t->s[t->len] = '\0';
}

/* A part on a line of its own, without the blanks around it. */
static void put_line(struct text *t, const char *p, size_t n)
{
	while (n && *p == ' ')
		p++, n--;
	while (n && p[n - 1] == ' ')
		n--;
	if (!n)
		return;
	if (t->len)
		put(t, "\n", 1);
	put(t, p, n);
}

/* The first occurrence of `needle` in s[0 .. n), or NULL. */
static const char *find(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;

	for (i = 0; k <= n && i <= n - k; i++)
		if (!memcmp(s + i, needle, k))
			return s + i;
	return NULL;
}

static const char *const outcomes[] = {"pass", "fail", "inconclusive", NULL};

/* When s[0 .. n) ends with ": OUTCOME", the outcome's name (static), and
 * *tail the length of ": OUTCOME"; else NULL. */
static const char *outcome_tail(const char *s, size_t n, size_t *tail)
{
	size_t i, k;

	for (i = 0; outcomes[i]; i++) {
		k = strlen(outcomes[i]) + 2;
		if (n >= k && !memcmp(s + n - k, ": ", 2) && !memcmp(s + n - k + 2, outcomes[i], k - 2)) {
			*tail = k;
			return outcomes[i];
		}
	}
	return NULL;
}

/* s[0 .. n) without its groups in parentheses and brackets (nested),
 * each with the blank before it: abtool's remarks on a value. New string. */
static char *strip_groups(const char *s, size_t n)
{
	char *out = ab_xmalloc(n + 1);
	size_t i, w = 0, depth = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '(' || s[i] == '[') {
			if (!depth && w && out[w - 1] == ' ')
				w--;
			depth++;
		} else if ((s[i] == ')' || s[i] == ']') && depth) {
			depth--;
		} else if (!depth) {
			out[w++] = s[i];
		}
	}
	out[w] = '\0';
	return out;
}

/* The clauses that explain a finding rather than state it: each runs to
 * the next ", " (the next finding) or the end. */
static const char *const explanations[] = {", but ", ", kept by ", ": they ", NULL};

/* A finding (or several, joined with ", ") as it states what it found:
 * without its remarks (strip_groups) and explanations. */
static void put_statement(struct text *t, const char *s, size_t n)
{
	char *plain = strip_groups(s, n), *p, *next, *end;
	size_t i;

	for (i = 0; explanations[i]; i++)
		while ((p = strstr(plain, explanations[i]))) {
			end = strstr(p + 2, ", ");
			next = end ? end : p + strlen(p);
			memmove(p, next, strlen(next) + 1);
		}
	put_line(t, plain, strlen(plain));
	free(plain);
}

/* The findings of a row whose outcome is `outcome`: those marked with it
 * when they are marked (" [fail]": the row's findings differ), else all. */
static void put_findings(struct text *t, const char *s, size_t n, const char *outcome)
{
	const char *p = s, *end = s + n;

	while (p < end) {
		const char *mark = NULL, *m;
		const char *name = NULL;
		size_t i;
		char tag[24];

		for (i = 0; outcomes[i]; i++) {
			snprintf(tag, sizeof(tag), " [%s]", outcomes[i]);
			if ((m = find(p, (size_t)(end - p), tag)) && (!mark || m < mark)) {
				mark = m;
				name = outcomes[i];
			}
		}
		if (!mark) {
			if (p == s)  /* not marked: every finding has the row's outcome */
				put_statement(t, p, (size_t)(end - p));
			return;
		}
		if (!strcmp(name, outcome))
			put_statement(t, p, (size_t)(mark - p));
		p = mark + strlen(name) + 3;
		if (end - p >= 2 && !memcmp(p, ", ", 2))
			p += 2;
	}
}

/* One row of a rule's reason, s[0 .. n): "LABEL: HEAD: FINDINGS: OUTCOME"
 * where HEAD ends "(w/n pair wins)" or "unavailable". Anything else
 * ("selects no row: inconclusive") is kept whole, but for its outcome. */
static void put_row(struct text *t, const char *s, size_t n)
{
	size_t tail = 0;
	const char *outcome = outcome_tail(s, n, &tail), *head;
	char *plain;

	if (!outcome) {
		put_line(t, s, n);
		return;
	}
	n -= tail;
	if ((head = find(s, n, "pair wins): ")))
		head += strlen("pair wins)");
	else if ((head = find(s, n, "unavailable: ")))
		head += strlen("unavailable");
	else {
		put_line(t, s, n);
		return;
	}
	/* the label, the metric and "ratio X": the user's words are there */
	plain = strip_groups(s, (size_t)(head - s));
	put_line(t, plain, strlen(plain));
	free(plain);
	put_findings(t, head + 2, n - (size_t)(head + 2 - s), outcome);
}

/* Whether `reason` begins with a rule's reason: a row that ends with an
 * outcome, its head ending in "pair wins)" or "unavailable". */
static int is_rule_reason(const char *reason)
{
	const char *semi = strstr(reason, "; ");
	size_t n = semi ? (size_t)(semi - reason) : strlen(reason), tail;

	while (semi && !outcome_tail(reason, n, &tail)) {
		semi = strstr(semi + 2, "; ");
		n = semi ? (size_t)(semi - reason) : strlen(reason);
	}
	return outcome_tail(reason, n, &tail) &&
	       (find(reason, n, "pair wins): ") || find(reason, n, "unavailable: "));
}

/* The reason of a rule: its name (the longest of `rules` it begins with,
 * kept whole), then each row, the rows split at the "; " after an
 * outcome. */
static void put_rule_reason(struct text *t, const char *reason, char *const *rules)
{
	const char *p = reason, *best = NULL, *semi;
	size_t tail, len;

	for (; rules && *rules; rules++) {
		len = strlen(*rules);
		if (!strncmp(reason, *rules, len) && !strncmp(reason + len, ": ", 2) &&
		    (!best || len > strlen(best)))
			best = *rules;
	}
	if (best) {
		put_line(t, best, strlen(best));
		p += strlen(best) + 2;
	}
	while (*p) {
		semi = p;
		while ((semi = strstr(semi, "; ")) && !outcome_tail(p, (size_t)(semi - p), &tail))
			semi += 2;
		len = semi ? (size_t)(semi - p) : strlen(p);
		put_row(t, p, len);
		p += len + (semi ? 2 : 0);
	}
}

/* Reasons whose words after the first ": " are advice, the same in
 * every run that has them. */
static const char *const advised[] = {"no acceptance rules", NULL};

char *ab_store_search_text(const char *reasons, char *const *rules)
{
	struct text t = {NULL, 0, 0};
	json_t *list, *r;
	size_t i, k;

	if (!reasons)
		return NULL;
	put(&t, "", 0);
	if (!(list = json_loads(reasons, 0, NULL)) || !json_is_array(list)) {
		json_decref(list);
		put(&t, reasons, strlen(reasons));
		return t.s;
	}
	json_array_foreach(list, i, r) {
		const char *s = json_string_value(r);

		if (!s)
			continue;
		for (k = 0; advised[k] && strncmp(s, advised[k], strlen(advised[k])); k++)
			;
		if (advised[k])
			put_line(&t, s, strlen(advised[k]));
		else if (is_rule_reason(s))
			put_rule_reason(&t, s, rules);
		else
			put_line(&t, s, strlen(s));
	}
	json_decref(list);
	return t.s;
}

int ab_store_search_derive(struct ab_store *store, int64_t run_id)
{
	struct ab_db_stmt *st;
	char *reasons = NULL, **rules = NULL, *text;
	int err, rc;

	if ((err = ab_db_prepare(store, &st, "SELECT reasons FROM runs WHERE id = ?1")) < 0)
		return err;
	ab_db_bind_int64(st, 1, run_id);
	if ((rc = ab_db_step(st)) == AB_DB_ROW)
		reasons = ab_xstrdup(ab_db_column_text(st, 0));
	ab_db_finalize(st);
	if (rc < 0)
		return ab_db_error(store, "reading the run's reasons");
	if ((err = ab_db_prepare(store, &st, "SELECT name FROM rule_results WHERE run_id = ?1 ORDER BY idx")) < 0)
		goto out;
	ab_db_bind_int64(st, 1, run_id);
	while ((rc = ab_db_step(st)) == AB_DB_ROW)
		ab_strv_push(&rules, ab_xstrdup(ab_db_column_text(st, 0)));
	ab_db_finalize(st);
	if (rc < 0) {
		err = ab_db_error(store, "reading the run's rules");
		goto out;
	}
	text = ab_store_search_text(reasons, rules);
	if ((err = ab_db_prepare(store, &st, "UPDATE runs SET search_text = ?2 WHERE id = ?1")) == 0) {
		ab_db_bind_int64(st, 1, run_id);
		ab_db_bind_text(st, 2, text);
		err = ab_db_step_done(store, st, "storing the run's search text");
		ab_db_finalize(st);
	}
	free(text);
out:
	free(reasons);
	ab_strv_free(rules);
	return err;
}

int ab_store_search_backfill(struct ab_store *store)
{
	struct ab_db_stmt *st;
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0, i;
	int err = 0, rc;

	/* the ids first: the engine may hold the rows of a query open */
	if ((err = ab_db_prepare(store, &st, "SELECT id FROM runs WHERE reasons IS NOT NULL ORDER BY id")) < 0)
		return err;
	while ((rc = ab_db_step(st)) == AB_DB_ROW) {
		ab_grow(&ids, &alloc, n + 1, sizeof(*ids));
		ids[n++] = ab_db_column_int64(st, 0);
	}
	ab_db_finalize(st);
	if (rc < 0)
		err = ab_db_error(store, "reading the runs to index");
	for (i = 0; i < n && !err; i++)
		err = ab_store_search_derive(store, ids[i]);
	free(ids);
	return err;
}
