/* sequential.c - sequential plans: looks, spending functions, the joint
 * null of the signed-rank statistic at the looks (exact and simulated),
 * repeated intervals and repeated p-values (see sequential.h for the model
 * and the sources). */
#include "sequential.h"
#include "sequential_table.h"
#include "error.h"
#include "util.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Slack when comparing a probability from the dynamic program or the
 * simulation with the alpha spent: their sums carry rounding errors of
 * about 1e-16, which must not cost a count when the two are equal. */
#define SPEND_EPS 1e-12

/* The exact dynamic program's budget: at most EXACT_STATES states (two
 * arrays of doubles, 32 MiB) and EXACT_WORK state-steps (about a second
 * of CPU). Beyond, a look's count comes from simulated paths. */
#define EXACT_STATES ((size_t)1 << 21)
#define EXACT_WORK ((size_t)1 << 28)

_Static_assert(AB_SEQ_TABLE_LOOKS == AB_SEQ_MAX_LOOKS, "the table's entries hold a plan's looks");

/* ---- plans ----------------------------------------------------------- */

int ab_seq_plan_check(const struct ab_seq_plan *plan)
{
	size_t i;

	if (plan->nlooks == 0)
		return ab_error_set(AB_EINVALID, "a sequential plan needs at least one look");
	if (plan->nlooks > AB_SEQ_MAX_LOOKS)
		return ab_error_set(AB_EINVALID, "a sequential plan has %zu looks; at most %d are allowed",
				    plan->nlooks, AB_SEQ_MAX_LOOKS);
	for (i = 0; i < plan->nlooks; i++) {
		size_t n = plan->looks[i];

		if (n < AB_SEQ_MIN_PAIRS)
			return ab_error_set(AB_EINVALID,
					    "look %zu (%zu pairs) is below %d pairs, the fewest at which "
					    "a one-sided 5%% bound exists", i + 1, n, AB_SEQ_MIN_PAIRS);
		if (n % 2)
			return ab_error_set(AB_EINVALID,
					    "look %zu (%zu pairs) is odd: looks must be even so that the "
					    "AB|BA blocks balance", i + 1, n);
		if (i > 0 && n <= plan->looks[i - 1])
			return ab_error_set(AB_EINVALID,
					    "look %zu (%zu pairs) does not come after look %zu (%zu pairs): "
					    "looks must increase", i + 1, n, i, plan->looks[i - 1]);
		if (n > AB_SEQ_MAX_PAIRS)
			return ab_error_set(AB_EINVALID,
					    "look %zu (%zu pairs) is above %d pairs, the most a sequential "
					    "plan allows", i + 1, n, AB_SEQ_MAX_PAIRS);
	}
	if (!isfinite(ab_seq_spend(plan->spending, 0.05, 1)))
		return ab_error_set(AB_EINVALID, "unknown spending %d", (int)plan->spending);
	if (!(plan->alpha > 0 && plan->alpha < 0.5))
		return ab_error_set(AB_EINVALID, "the plan's alpha %g is not between 0 and 0.5",
				    plan->alpha);
	return 0;
}

static void plan_defaults(struct ab_seq_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
	plan->spending = AB_SEQ_SPENDING_DEFAULT;
	plan->alpha = AB_STATS_ALPHA;
}

static int check_end(const char *name, size_t n)
{
	if (n < AB_SEQ_MIN_PAIRS)
		return ab_error_set(AB_EINVALID,
				    "%s (%zu pairs) is below %d pairs, the fewest at which a one-sided "
				    "5%% bound exists", name, n, AB_SEQ_MIN_PAIRS);
	if (n % 2)
		return ab_error_set(AB_EINVALID,
				    "%s (%zu pairs) is odd: looks must be even so that the AB|BA "
				    "blocks balance", name, n);
	if (n > AB_SEQ_MAX_PAIRS)
		return ab_error_set(AB_EINVALID,
				    "%s (%zu pairs) is above %d pairs, the most a sequential plan allows",
				    name, n, AB_SEQ_MAX_PAIRS);
	return 0;
}

int ab_seq_plan_from_range(struct ab_seq_plan *plan, size_t min, size_t max)
{
	size_t n;
	int error;

	plan_defaults(plan);
	if ((error = check_end("min", min)) < 0 || (error = check_end("max", max)) < 0)
		return error;
	if (max < min)
		return ab_error_set(AB_EINVALID, "max (%zu pairs) is below min (%zu pairs)", max, min);
	/* min doubled while below max: 256 / 6 allows at most 6 doublings */
	for (n = min; n < max; n *= 2)
		plan->looks[plan->nlooks++] = n;
	plan->looks[plan->nlooks++] = max;
	return ab_seq_plan_check(plan);
}

int ab_seq_plan_from_looks(struct ab_seq_plan *plan, const size_t *looks, size_t nlooks)
{
	plan_defaults(plan);
	if (nlooks > AB_SEQ_MAX_LOOKS)
		return ab_error_set(AB_EINVALID, "a sequential plan has %zu looks; at most %d are allowed",
				    nlooks, AB_SEQ_MAX_LOOKS);
	plan->nlooks = nlooks;
	if (nlooks)
		memcpy(plan->looks, looks, nlooks * sizeof(*looks));
	return ab_seq_plan_check(plan);
}

/* ---- spending functions ---------------------------------------------- */

static const char *const spending_names[] = {
	[AB_SEQ_POCOCK] = "pocock",
	[AB_SEQ_OBRIEN_FLEMING] = "obrien-fleming",
	[AB_SEQ_LINEAR] = "linear",
};

#define NSPENDING (sizeof(spending_names) / sizeof(spending_names[0]))

int ab_seq_spending_parse(const char *name, enum ab_seq_spending *out)
{
	size_t i;

	for (i = 0; i < NSPENDING; i++)
		if (strcmp(name, spending_names[i]) == 0) {
			*out = (enum ab_seq_spending)i;
			return 0;
		}
	return ab_error_set(AB_EINVALID,
			    "unknown spending '%s'; use pocock, obrien-fleming or linear", name);
}

const char *ab_seq_spending_name(enum ab_seq_spending spending)
{
	return (unsigned)spending < NSPENDING ? spending_names[spending] : "unknown";
}

double ab_seq_spend(enum ab_seq_spending spending, double alpha, double t)
{
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	switch (spending) {
	case AB_SEQ_POCOCK:
		return alpha * log1p((M_E - 1) * t);
	case AB_SEQ_OBRIEN_FLEMING:
		/* 2 (1 - Φ(z / sqrt t)) = erfc(z / sqrt(2 t)), z = Φ^-1(1 - α/2) */
		if (t == 0)
			return 0;
		return t == 1 ? alpha
			      : erfc(ab_stats_norm_upper_quantile(alpha / 2) / sqrt(2 * t));
	case AB_SEQ_LINEAR:
		return alpha * t;
	}
	return NAN;
}

/* ---- the exact joint null -------------------------------------------- */

/*
 * The dynamic program of the exact joint null (docs/statistics.md, "The
 * joint null"). Under the model the |d| of the n pairs of a look arrive in
 * a uniformly random order of their ranks and the signs are fair coins
 * independent of them. Taken in increasing order of |d|, the value of rank
 * t + 1 came with the pairs of segment g (the pairs that arrived after one
 * tracked look and up to the next) with probability (values of g not yet
 * taken) / (n - t): the segments of the ranks 1 .. n are a uniform
 * arrangement of the multiset. Its rank at a tracked look j is one more
 * than the values already taken from the segments up to j, so W_j grows by
 * that rank when its sign is positive. The state is how many values each
 * segment has given and each tracked look's partial W_j (which only grows:
 * kept up to the look's count c_j, which then means "at least c_j"), and
 * the partial W of the stage's own look below `cap` (a larger one never
 * falls below a count up to cap, so its mass is dropped). A look without a
 * bound (c_j = 0) is not tracked: its pairs join the next segment.
 */
struct stage {
	size_t n;                          /* pairs at the stage's look */
	size_t nseg;                       /* segments: one per tracked look, and the last */
	size_t seg[AB_SEQ_MAX_LOOKS];      /* pairs in each segment */
	size_t cnt[AB_SEQ_MAX_LOOKS];      /* the count c_j of the look that ends segment i */
	size_t radix[2 * AB_SEQ_MAX_LOOKS];  /* digits of the outer state: a_0, w_0, a_1, w_1, ... */
	size_t cap;                        /* the stage's W is kept below cap */
	size_t outer;                      /* outer states (segment counts, tracked W) */
	double states;                     /* outer * cap, as a double (no overflow) */
};

static void stage_init(struct stage *st, const size_t *looks, size_t k, const size_t *c, size_t cap)
{
	size_t j, prev = 0, i;

	memset(st, 0, sizeof(*st));
	st->n = looks[k];
	for (j = 0; j < k; j++)
		if (c[j] > 0) {
			st->seg[st->nseg] = looks[j] - prev;
			st->cnt[st->nseg++] = c[j];
			prev = looks[j];
		}
	st->seg[st->nseg++] = looks[k] - prev;
	st->cap = cap;
	st->states = (double)cap;
	for (i = 0; i + 1 < st->nseg; i++) {
		st->radix[2 * i] = st->seg[i] + 1;
		st->radix[2 * i + 1] = st->cnt[i] + 1;
		st->states *= (double)st->radix[2 * i] * (double)st->radix[2 * i + 1];
	}
	st->outer = st->states <= (double)SIZE_MAX ? (size_t)(st->states / (double)(cap ? cap : 1)) : 0;
}

/* Whether a stage fits the exact computation's budget (EXACT_STATES
 * doubles twice, EXACT_WORK state-steps). */
static int stage_feasible(const struct stage *st)
{
	return st->states <= (double)EXACT_STATES && st->states * (double)st->n <= (double)EXACT_WORK;
}

/* One value, of rank t + 1, into `next` from the outer state o (digits
 * `dig`), whose row of the stage's W is cur[o * cap ..]. */
static void stage_place(const struct stage *st, size_t t, size_t o, const size_t *dig, const size_t *stride,
			const double *cur, double *next)
{
	size_t m = st->nseg - 1, i, g, w, limit, A[AB_SEQ_MAX_LOOKS], taken = 0, ng = 0;
	size_t neg[AB_SEQ_MAX_LOOKS], pos[AB_SEQ_MAX_LOOKS];
	double p[AB_SEQ_MAX_LOOKS];
	const double *row = cur + o * st->cap;

	for (i = 0; i < m; i++)
		A[i] = taken += dig[2 * i];
	if (taken > t || t - taken > st->seg[m])
		return;  /* not a state of step t */
	for (g = 0; g <= m; g++) {
		size_t avail = st->seg[g] - (g < m ? dig[2 * g] : t - taken), off;

		if (!avail)
			continue;
		p[ng] = 0.5 * (double)avail / (double)(st->n - t);
		neg[ng] = o + (g < m ? stride[2 * g] : 0);
		off = neg[ng];
		for (i = g; i < m; i++) {
			size_t w0 = dig[2 * i + 1], w1 = w0 + A[i] + 1;

			off += ((w1 < st->cnt[i] ? w1 : st->cnt[i]) - w0) * stride[2 * i + 1];
		}
		pos[ng++] = off;
	}
	/* W of the stage's look is at most t (t + 1) / 2 before this value */
	limit = t * (t + 1) / 2 + 1 < st->cap ? t * (t + 1) / 2 + 1 : st->cap;
	for (w = 0; w < limit; w++) {
		double mass = row[w];

		if (mass == 0)
			continue;
		for (g = 0; g < ng; g++) {
			next[neg[g] * st->cap + w] += p[g] * mass;
			if (w + t + 1 < st->cap)
				next[pos[g] * st->cap + w + t + 1] += p[g] * mass;
		}
	}
}

/*
 * h[w] = P(W_j >= c_j at every look j < k, and W_k = w) for w < cap
 * (caller-owned, cap doubles), by the dynamic program above. Returns 0, or
 * -1 (nothing written) when the stage is beyond the budget.
 */
static int stage_run(const size_t *looks, size_t k, const size_t *c, size_t cap, double *h)
{
	struct stage st;
	size_t stride[2 * AB_SEQ_MAX_LOOKS], dig[2 * AB_SEQ_MAX_LOOKS], nd, i, o, t, final = 0;
	double *cur, *next;

	if (cap == 0)
		return 0;
	stage_init(&st, looks, k, c, cap);
	if (!stage_feasible(&st))
		return -1;
	nd = 2 * (st.nseg - 1);
	for (i = 0, o = 1; i < nd; i++) {
		stride[i] = o;
		o *= st.radix[i];
	}
	cur = ab_xcalloc(st.outer * cap, sizeof(*cur));
	next = ab_xcalloc(st.outer * cap, sizeof(*next));
	cur[0] = 1;
	for (t = 0; t < st.n; t++) {
		memset(next, 0, st.outer * cap * sizeof(*next));
		memset(dig, 0, sizeof(dig));
		for (o = 0; o < st.outer; o++) {
			stage_place(&st, t, o, dig, stride, cur, next);
			for (i = 0; i < nd && ++dig[i] == st.radix[i]; i++)
				dig[i] = 0;  /* the next outer state's digits */
		}
		{
			double *x = cur;
			cur = next;
			next = x;
		}
	}
	/* every segment spent, every tracked look at least its count */
	for (i = 0; i + 1 < st.nseg; i++)
		final += st.seg[i] * stride[2 * i] + st.cnt[i] * stride[2 * i + 1];
	memcpy(h, cur + final * cap, cap * sizeof(*h));
	free(next);
	free(cur);
	return 0;
}

static int check_looks(const size_t *looks, size_t nlooks, size_t max)
{
	size_t k;

	if (nlooks == 0 || nlooks > AB_SEQ_MAX_LOOKS)
		return ab_error_set(AB_EINVALID, "%zu looks: give 1 to %d", nlooks, AB_SEQ_MAX_LOOKS);
	for (k = 0; k < nlooks; k++)
		if (looks[k] == 0 || (k > 0 && looks[k] <= looks[k - 1]) || looks[k] > max)
			return ab_error_set(AB_EINVALID,
					    "look %zu (%zu pairs): looks must increase from 1 to %zu pairs",
					    k + 1, looks[k], max);
	return 0;
}

int ab_seq_crossing_exact(const size_t *looks, size_t nlooks, const size_t *c, double *crossing)
{
	double *h, before = 0;
	size_t k, w;
	int error;

	if ((error = check_looks(looks, nlooks, AB_SEQ_MAX_PAIRS)) < 0)
		return error;
	for (k = 0; k < nlooks; k++) {
		size_t top = looks[k] * (looks[k] + 1) / 2 + 1, cap = c[k] < top ? c[k] : top;

		h = ab_xcalloc(cap ? cap : 1, sizeof(*h));
		if (stage_run(looks, k, c, cap, h) < 0) {
			free(h);
			return ab_error_set(AB_EINVALID, "look %zu (%zu pairs) with these counts is beyond the "
					    "exact computation's budget", k + 1, looks[k]);
		}
		for (w = 0; w < cap; w++)
			before += h[w];
		crossing[k] = before;
		free(h);
	}
	return 0;
}

/* ---- the simulated joint null ---------------------------------------- */

/* Uniform on 0 .. bound-1 (Lemire's multiply-shift; a bias of bound /
 * 2^64 at most, and the same result on every machine). */
static inline size_t draw_below(uint64_t *rng, size_t bound)
{
	return (size_t)(((unsigned __int128)ab_stats_splitmix64(rng) * bound) >> 64);
}

/*
 * `rows` null paths of the model over looks[0 .. K), seeded by `seed`. For
 * looks k >= first, w[r * (K - first) + k - first] receives W_k of path r;
 * crossed[r] (may be NULL) is 1 when W_j < c[j] at a look j < first. A
 * path is the segment of each rank (a uniform shuffle of the multiset,
 * Fisher–Yates) and a fair sign per rank; taken in increasing rank, a
 * value of segment g has rank A_j + 1 at every look j >= g, A_j the values
 * taken from the segments up to j, as in the dynamic program.
 */
static void simulate_paths(const size_t *looks, size_t K, const size_t *c, size_t first, size_t rows,
			   uint64_t seed, uint16_t *w, unsigned char *crossed)
{
	size_t n = looks[K - 1], t, j, r, g = 0, keep = K - first;
	uint8_t lab[AB_SEQ_MAX_PAIRS], x;
	unsigned A[AB_SEQ_MAX_LOOKS], W[AB_SEQ_MAX_LOOKS];
	uint64_t rng = seed, bits = 0;

	for (t = 0; t < n; t++) {
		while (t >= looks[g])
			g++;
		lab[t] = (uint8_t)g;
	}
	for (r = 0; r < rows; r++) {
		for (t = n - 1; t > 0; t--) {
			j = draw_below(&rng, t + 1);
			x = lab[t];
			lab[t] = lab[j];
			lab[j] = x;
		}
		memset(A, 0, sizeof(A));
		memset(W, 0, sizeof(W));
		/* without branches: the sign and the segment are coin flips, which
		 * a branch predictor would miss half of the time */
		for (t = 0; t < n; t++) {
			unsigned sign;

			if (t % 64 == 0)
				bits = ab_stats_splitmix64(&rng);
			sign = -(unsigned)(bits & 1);
			for (j = 0; j < K; j++) {
				unsigned in = -(unsigned)(j >= lab[t]);

				A[j] += in & 1;
				W[j] += A[j] & in & sign;
			}
			bits >>= 1;
		}
		if (crossed) {
			crossed[r] = 0;
			for (j = 0; j < first; j++)
				crossed[r] |= W[j] < c[j];
		}
		for (j = first; j < K; j++)
			w[r * keep + j - first] = (uint16_t)W[j];
	}
}

int ab_seq_crossing_simulated(const size_t *looks, size_t nlooks, const size_t *c, size_t rows,
			      uint64_t seed, double *crossing, double *se)
{
	uint16_t *w;
	size_t *hits, r, k;
	int error;

	if ((error = check_looks(looks, nlooks, AB_SEQ_MAX_PAIRS)) < 0)
		return error;
	if (rows == 0)
		return ab_error_set(AB_EINVALID, "no rows to simulate");
	w = ab_xmalloc(rows * nlooks * sizeof(*w));
	hits = ab_xcalloc(nlooks, sizeof(*hits));
	simulate_paths(looks, nlooks, c, 0, rows, seed, w, NULL);
	for (r = 0; r < rows; r++)
		for (k = 0; k < nlooks; k++)
			if (w[r * nlooks + k] < c[k]) {
				/* crossed at look k: counts for k and every later look */
				for (; k < nlooks; k++)
					hits[k]++;
				break;
			}
	for (k = 0; k < nlooks; k++) {
		crossing[k] = (double)hits[k] / (double)rows;
		if (se)
			se[k] = sqrt(crossing[k] * (1 - crossing[k]) / (double)rows);
	}
	free(hits);
	free(w);
	return 0;
}

/* ---- the boundaries -------------------------------------------------- */

/* The largest count c <= top with P(W <= c - 1) <= level, from the null
 * distribution function f of one look. */
static size_t fixed_count(const double *f, size_t top, double level)
{
	size_t c = 0;

	while (c < top && f[c] <= level + SPEND_EPS)
		c++;
	return c;
}

/* The null distribution function of each look alone (Wilcoxon 1945):
 * cdf[k][w] = P(W_k <= w), w = 0 .. M_k (new arrays). */
static void null_cdfs(const struct ab_seq_plan *plan, double **cdf)
{
	size_t k, w;

	for (k = 0; k < plan->nlooks; k++) {
		size_t n = plan->looks[k], top = n * (n + 1) / 2;
		double *f = ab_xmalloc((top + 1) * sizeof(*f));

		ab_stats_signed_rank_null(f, n);
		for (w = 1; w <= top; w++)
			f[w] += f[w - 1];
		cdf[k] = f;
	}
}

/* The exact looks: from the first on, while the dynamic program fits its
 * budget and for at most `limit` looks, c_k the largest count whose exact
 * crossing stays within spent[k]. Sets b->exact_looks. */
static void exact_looks(struct ab_seq_boundaries *b, double *const *cdf, size_t limit)
{
	size_t k, w, c;

	for (k = 0; k < b->nlooks && k < limit; k++) {
		size_t top = b->looks[k] * (b->looks[k] + 1) / 2;
		size_t cap = fixed_count(cdf[k], top, b->spent[k]);
		double before = k ? b->crossing[k - 1] : 0, *h;

		if (k == 0 || cap == 0) {
			/* one look alone is the fixed-n null; no count fits even alone */
			b->c[k] = cap;
			b->crossing[k] = before + (cap ? cdf[k][cap - 1] : 0);
			b->exact_looks = k + 1;
			continue;
		}
		h = ab_xmalloc(cap * sizeof(*h));
		if (stage_run(b->looks, k, b->c, cap, h) < 0) {
			free(h);
			return;
		}
		for (c = 0, w = 0; w < cap && before + h[w] <= b->spent[k] + SPEND_EPS; w++, c++)
			before += h[w];
		b->c[k] = c;
		b->crossing[k] = before;
		b->exact_looks = k + 1;
		free(h);
	}
}

/*
 * The looks after the exact ones, from N paths seeded by `seed`. The
 * crossing probability by look k with count c is P(W_k <= c - 1), exact,
 * plus q = P(crossed before k, W_k >= c), estimated in two parts: the
 * paths that crossed at an exact look (probability P_e, known exactly)
 * give P_e times the share of them with W_k >= c (a ratio estimator, whose
 * variance is P_e^2 r (1 - r) / M over their M paths), and the others the
 * fraction of all paths that crossed at an earlier simulated look and
 * have W_k >= c. c_k is the largest count whose estimate plus
 * AB_SEQ_MARGIN_SE standard errors stays within spent[k].
 */
static void simulated_looks(struct ab_seq_boundaries *b, double *const *cdf, size_t N, uint64_t seed)
{
	size_t K = b->nlooks, e = b->exact_looks, keep = K - e, k, r, c, M = 0;
	uint16_t *w = ab_xmalloc(N * keep * sizeof(*w));
	unsigned char *crossed = ab_xmalloc(N), *late = ab_xcalloc(N, 1);
	double Pe = e ? b->crossing[e - 1] : 0;

	b->rows = N;
	simulate_paths(b->looks, K, b->c, e, N, seed, w, crossed);
	for (r = 0; r < N; r++)
		M += crossed[r];
	for (k = e; k < K; k++) {
		size_t top = b->looks[k] * (b->looks[k] + 1) / 2, X = M, Y = 0;
		size_t *gx = ab_xcalloc(top + 1, sizeof(*gx)), *gy = ab_xcalloc(top + 1, sizeof(*gy));

		for (r = 0; r < N; r++) {
			if (crossed[r])
				gx[w[r * keep + k - e]]++;
			else if (late[r]) {
				gy[w[r * keep + k - e]]++;
				Y++;
			}
		}
		/* c = 0: no bound at this look, the crossing of the looks before */
		b->c[k] = 0;
		b->crossing[k] = k ? b->crossing[k - 1] : 0;
		b->crossing_se[k] = k ? b->crossing_se[k - 1] : 0;
		for (c = 1; c <= top; c++) {
			double ratio, y, est, se;

			X -= gx[c - 1];
			Y -= gy[c - 1];
			ratio = M ? (double)X / (double)M : 0;
			y = (double)Y / (double)N;
			est = cdf[k][c - 1] + Pe * ratio + y;
			se = sqrt((M ? Pe * Pe * ratio * (1 - ratio) / (double)M : 0) + y * (1 - y) / (double)N);
			if (est + AB_SEQ_MARGIN_SE * se > b->spent[k] + SPEND_EPS)
				break;
			b->c[k] = c;
			b->crossing[k] = est;
			b->crossing_se[k] = se;
		}
		for (r = 0; r < N; r++)
			if (!crossed[r] && w[r * keep + k - e] < b->c[k])
				late[r] = 1;
		free(gx);
		free(gy);
	}
	free(late);
	free(crossed);
	free(w);
}

/* The seed of a plan's simulations: FNV-1a over what defines the plan. */
static uint64_t plan_seed(const struct ab_seq_plan *plan)
{
	uint64_t h = 0xcbf29ce484222325u, alpha;
	size_t k;

	memcpy(&alpha, &plan->alpha, sizeof(alpha));
	for (k = 0; k < plan->nlooks; k++)
		h = (h ^ plan->looks[k]) * 0x100000001b3u;
	h = (h ^ (uint64_t)plan->spending) * 0x100000001b3u;
	return (h ^ alpha) * 0x100000001b3u;
}

/* What every way of getting the boundaries shares: the plan's looks and
 * spending, and from the counts the nominal levels, the attained level
 * and the coverage. */
static void boundaries_start(struct ab_seq_boundaries *b, const struct ab_seq_plan *plan)
{
	size_t K = plan->nlooks, k;

	memset(b, 0, sizeof(*b));
	b->nlooks = K;
	b->margin_se = AB_SEQ_MARGIN_SE;
	memcpy(b->looks, plan->looks, K * sizeof(*b->looks));
	for (k = 0; k < K; k++)
		b->spent[k] = ab_seq_spend(plan->spending, plan->alpha,
					   (double)plan->looks[k] / (double)plan->looks[K - 1]);
}

static void boundaries_finish(struct ab_seq_boundaries *b, double *const *cdf)
{
	size_t K = b->nlooks, k;

	for (k = 0; k < K; k++)
		b->nominal[k] = b->c[k] ? cdf[k][b->c[k] - 1] : 0;
	b->alpha = b->crossing[K - 1];
	b->se = b->exact_looks == K ? 0 : b->crossing_se[K - 1];
	b->alpha_bound = b->alpha + b->margin_se * b->se;
	b->coverage = 1 - 2 * b->alpha_bound;
}

static void free_cdfs(double **cdf, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		free(cdf[k]);
}

/* The counts of `plan` into b: exact looks while the dynamic program fits
 * (at most `limit` of them), simulated ones after from `rows` paths. */
static void compute(struct ab_seq_boundaries *b, const struct ab_seq_plan *plan, double *const *cdf,
		    size_t limit, size_t rows, uint64_t seed)
{
	boundaries_start(b, plan);
	exact_looks(b, cdf, limit);
	if (b->exact_looks < b->nlooks)
		simulated_looks(b, cdf, rows, seed);
}

/* The seed of a plan's boundary paths (its repeated p-values' paths have
 * plan_seed itself). */
static uint64_t boundary_seed(const struct ab_seq_plan *plan)
{
	return plan_seed(plan) ^ 0x6a09e667f3bcc908u;
}

int ab_seq_boundaries_simulate(const struct ab_seq_plan *plan, size_t exact_looks, size_t rows,
			       uint64_t seed, struct ab_seq_boundaries *out)
{
	double *cdf[AB_SEQ_MAX_LOOKS];
	int error;

	if ((error = ab_seq_plan_check(plan)) < 0)
		return error;
	if (rows == 0)
		return ab_error_set(AB_EINVALID, "no paths to simulate");
	null_cdfs(plan, cdf);
	compute(out, plan, cdf, exact_looks, rows, seed);
	boundaries_finish(out, cdf);
	free_cdfs(cdf, plan->nlooks);
	return 0;
}

int ab_seq_boundaries_compute(const struct ab_seq_plan *plan, struct ab_seq_boundaries *out)
{
	return ab_seq_boundaries_simulate(plan, AB_SEQ_MAX_LOOKS, AB_SEQ_BOUNDARY_PATHS, boundary_seed(plan),
					  out);
}

/* The boundaries of `plan` from the precomputed table, when it has them
 * (sequential_table.c, made by bench/seq-boundaries.sh with
 * ab_seq_boundaries_compute: the same numbers, without the wait).
 * Returns 1 and fills b (nominal levels aside), or 0. */
static int from_table(struct ab_seq_boundaries *b, const struct ab_seq_plan *plan)
{
	size_t i, k;

	for (i = 0; i < ab_seq_table_len; i++) {
		const struct ab_seq_table_entry *t = &ab_seq_table[i];

		if (t->spending != (int)plan->spending || t->alpha != plan->alpha ||
		    t->nlooks != plan->nlooks)
			continue;
		for (k = 0; k < t->nlooks && t->looks[k] == plan->looks[k]; k++)
			;
		if (k < t->nlooks)
			continue;
		boundaries_start(b, plan);
		for (k = 0; k < t->nlooks; k++) {
			b->c[k] = t->c[k];
			b->crossing[k] = t->crossing[k];
			b->crossing_se[k] = t->crossing_se[k];
		}
		b->exact_looks = t->exact_looks;
		b->rows = t->exact_looks < t->nlooks ? AB_SEQ_BOUNDARY_PATHS : 0;
		b->tabled = 1;
		return 1;
	}
	return 0;
}

/* ---- a computed plan ------------------------------------------------- */

/* Everything computed for one plan: the boundaries, per look the null
 * distribution function of W_k and the score table of the repeated
 * p-values, and per simulated path the largest score before the last look
 * and the score at it. */
struct design {
	struct ab_seq_plan plan;
	struct ab_seq_boundaries b;
	double *cdf[AB_SEQ_MAX_LOOKS];    /* P(W_k <= w), w = 0 .. M_k */
	double *score[AB_SEQ_MAX_LOOKS];  /* Φ^-1(1 - P(W_k <= w)) / z_k; -INF without a bound */
	/* The paths whose largest score before the last look, hi, exceeds
	 * the one at it, lo: both sorted ascending, nspan of them. */
	double *lo, *hi;
	size_t nspan, rows;
};

static void design_free(struct design *d)
{
	size_t k;

	if (!d)
		return;
	for (k = 0; k < AB_SEQ_MAX_LOOKS; k++) {
		free(d->cdf[k]);
		free(d->score[k]);
	}
	free(d->lo);
	free(d->hi);
	free(d);
}

/* How many of x[0 .. n) (ascending) are below t. */
static size_t count_below(const double *x, size_t n, double t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Score tables and each path's scores for the repeated p-values, from
 * AB_SEQ_SIM_ROWS paths of their own: a path reaches a score t before the
 * last look but not at it when lo < t <= hi. */
static void design_scores(struct design *d)
{
	struct ab_seq_boundaries *b = &d->b;
	size_t K = b->nlooks, k, r, v;
	uint16_t *w = ab_xmalloc(AB_SEQ_SIM_ROWS * K * sizeof(*w));

	d->rows = AB_SEQ_SIM_ROWS;
	simulate_paths(b->looks, K, b->c, 0, d->rows, plan_seed(&d->plan), w, NULL);
	for (k = 0; k < K; k++) {
		size_t top = b->looks[k] * (b->looks[k] + 1) / 2;
		double z = ab_stats_norm_upper_quantile(b->nominal[k]);

		d->score[k] = ab_xmalloc((top + 1) * sizeof(*d->score[k]));
		for (v = 0; v <= top; v++)
			d->score[k][v] = b->c[k] == 0 ? -INFINITY
				       : ab_stats_norm_upper_quantile(d->cdf[k][v]) / z;
	}
	d->lo = ab_xmalloc(d->rows * sizeof(*d->lo));
	d->hi = ab_xmalloc(d->rows * sizeof(*d->hi));
	for (r = 0; r < d->rows; r++) {
		double before = -INFINITY, last = d->score[K - 1][w[r * K + K - 1]];

		for (k = 0; k + 1 < K; k++)
			before = fmax(before, d->score[k][w[r * K + k]]);
		if (before > last) {
			d->lo[d->nspan] = last;
			d->hi[d->nspan++] = before;
		}
	}
	qsort(d->lo, d->nspan, sizeof(*d->lo), ab_stats_cmp_double);
	qsort(d->hi, d->nspan, sizeof(*d->hi), ab_stats_cmp_double);
	free(w);
}

static struct design *design_new(const struct ab_seq_plan *plan)
{
	struct design *d = ab_xcalloc(1, sizeof(*d));

	d->plan = *plan;
	null_cdfs(plan, d->cdf);
	if (!from_table(&d->b, plan))
		compute(&d->b, plan, d->cdf, AB_SEQ_MAX_LOOKS, AB_SEQ_BOUNDARY_PATHS, boundary_seed(plan));
	boundaries_finish(&d->b, d->cdf);
	design_scores(d);
	return d;
}

/* ---- the cache of computed plans ------------------------------------- */

#define CACHE_SLOTS 4

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct design *cache[CACHE_SLOTS];
static size_t cache_next;

static int same_plan(const struct ab_seq_plan *x, const struct ab_seq_plan *y)
{
	return x->nlooks == y->nlooks && x->spending == y->spending && x->alpha == y->alpha &&
	       memcmp(x->looks, y->looks, x->nlooks * sizeof(*x->looks)) == 0;
}

/* The computed plan, from the cache or new; call with cache_lock held. */
static const struct design *design_get(const struct ab_seq_plan *plan)
{
	size_t i;

	for (i = 0; i < CACHE_SLOTS; i++)
		if (cache[i] && same_plan(&cache[i]->plan, plan))
			return cache[i];
	design_free(cache[cache_next]);
	cache[cache_next] = design_new(plan);
	i = cache_next;
	cache_next = (cache_next + 1) % CACHE_SLOTS;
	return cache[i];
}

void ab_seq_cache_clear(void)
{
	size_t i;

	pthread_mutex_lock(&cache_lock);
	for (i = 0; i < CACHE_SLOTS; i++) {
		design_free(cache[i]);
		cache[i] = NULL;
	}
	cache_next = 0;
	pthread_mutex_unlock(&cache_lock);
}

int ab_seq_boundaries(const struct ab_seq_plan *plan, struct ab_seq_boundaries *out)
{
	int error;

	if ((error = ab_seq_plan_check(plan)) < 0)
		return error;
	pthread_mutex_lock(&cache_lock);
	*out = design_get(plan)->b;
	pthread_mutex_unlock(&cache_lock);
	return 0;
}

/* ---- a row ----------------------------------------------------------- */

void ab_seq_interval(struct ab_hl *out, const double *d, size_t n, size_t c)
{
	ab_stats_hodges_lehmann_k(out, d, n, c);
}

int ab_seq_row_interval(const struct ab_seq_plan *plan, const double *d, size_t n, struct ab_hl *out,
			size_t *look)
{
	struct ab_seq_boundaries b;
	struct ab_hl at;
	double lower = -INFINITY, upper = INFINITY;
	size_t k;
	int err, any = 0;

	*look = 0;
	ab_stats_hodges_lehmann_k(out, d, n, 0);
	if ((err = ab_seq_boundaries(plan, &b)) < 0)
		return err;
	out->coverage = b.coverage;
	for (k = 0; k < b.nlooks && b.looks[k] <= n; k++) {
		*look = k + 1;
		out->k = b.c[k];
		if (b.c[k] == 0)
			continue;
		ab_seq_interval(&at, d, b.looks[k], b.c[k]);
		lower = fmax(lower, at.lower);
		upper = fmin(upper, at.upper);
		any = 1;
	}
	out->lower = any ? lower : NAN;
	out->upper = any ? upper : NAN;
	return 0;
}

/* P(T_all >= t) under the null: the last look's term exactly (its score
 * falls with w), the paths for the part that only earlier looks reach:
 * #{lo < t <= hi} = #{lo < t} - #{hi < t}, as lo < hi. */
static double null_tail(const struct design *d, double t)
{
	size_t K = d->b.nlooks, top = d->b.looks[K - 1] * (d->b.looks[K - 1] + 1) / 2, w, extra;
	double p = 0;

	for (w = 0; w <= top && d->score[K - 1][w] >= t; w++)
		p = d->cdf[K - 1][w];
	extra = count_below(d->lo, d->nspan, t) - count_below(d->hi, d->nspan, t);
	return p + (double)extra / (double)d->rows;
}

int ab_seq_repeated_p(const struct ab_seq_plan *plan, const double *d, size_t n, double shift,
		      enum ab_seq_side side, double *p)
{
	const struct design *des;
	size_t i, j, k = 0, count = 0;
	double t = -INFINITY, tail = 1;
	int error, refuted = 0;

	*p = 1;
	if ((error = ab_seq_plan_check(plan)) < 0)
		return error;
	for (i = 0; i < n; i++)
		if (!isfinite(d[i]))
			return ab_error_set(AB_EINVALID, "pair %zu: log ratio %g is not finite", i + 1,
					    d[i]);
	if (!isfinite(shift))
		return ab_error_set(AB_EINVALID, "tested value %g is not finite", shift);
	if (n < plan->looks[0])
		return 0;
	pthread_mutex_lock(&cache_lock);
	des = design_get(plan);
	/* The count of Walsh averages on the wrong side of shift, pair by
	 * pair, read at each look the row reached. */
	for (i = 0; i < n && k < plan->nlooks; i++) {
		for (j = 0; j <= i; j++) {
			double avg = 0.5 * (d[j] + d[i]);

			count += side == AB_SEQ_LESS ? avg >= shift : avg <= shift;
		}
		if (i + 1 == plan->looks[k]) {
			refuted |= count < des->b.c[k];
			t = fmax(t, des->score[k][count]);
			/* The estimate of P(T_all >= t) need not fall with t
			 * (its simulated part may rise where the exact part
			 * falls); the smallest so far keeps p from rising. */
			tail = fmin(tail, null_tail(des, t));
			k++;
		}
	}
	if (refuted)
		*p = fmin(tail, des->b.alpha);
	else
		*p = fmin(1, fmax(tail, nextafter(plan->alpha, 1)));
	pthread_mutex_unlock(&cache_lock);
	return 0;
}
