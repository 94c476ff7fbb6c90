/* sequential.c - sequential plans: looks, spending functions, the joint
 * null of the signed-rank statistic at the looks (exact and simulated),
 * repeated intervals and repeated p-values (see sequential.h for the model
 * and the sources). */
#include "sequential.h"
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

/* W+ of a sign pattern ordered by rank: bit i set = rank i + 1 positive. */
static size_t pattern_w(uint64_t s)
{
	size_t w = 0;

	while (s) {
		w += (size_t)__builtin_ctzll(s) + 1;
		s &= s - 1;
	}
	return w;
}

/* One more pair: its rank among m + 1 is uniform on 1 .. m + 1 (it enters
 * at bit position pos, the higher bits shift up) and its sign a fair
 * coin. cur holds 2^m probabilities, next receives 2^(m+1). */
static void dp_grow(const double *cur, double *next, size_t m)
{
	uint64_t states = (uint64_t)1 << m, s;
	double share = 0.5 / (double)(m + 1);
	size_t pos;

	memset(next, 0, 2 * states * sizeof(*next));
	for (s = 0; s < states; s++) {
		double v = cur[s] * share;

		if (v == 0)
			continue;
		for (pos = 0; pos <= m; pos++) {
			uint64_t low = s & (((uint64_t)1 << pos) - 1);
			uint64_t ns = low | (s >> pos) << (pos + 1);

			next[ns] += v;
			next[ns | (uint64_t)1 << pos] += v;
		}
	}
}

/*
 * The dynamic program behind ab_seq_crossing_exact. With target == NULL
 * c[] is given; otherwise c[k] is chosen as the largest count whose
 * crossing stays within target[k]. Mass that crossed is removed, so the
 * mass left is P(no crossing yet, pattern s).
 */
static void dp_crossing(const size_t *looks, size_t nlooks, size_t *c, const double *target,
			double *crossing)
{
	size_t nmax = looks[nlooks - 1], m = 0, k, w;
	double *cur = ab_xcalloc((size_t)1 << nmax, sizeof(*cur));
	double *next = ab_xcalloc((size_t)1 << nmax, sizeof(*next));
	double *h = ab_xmalloc((nmax * (nmax + 1) / 2 + 1) * sizeof(*h));
	double crossed = 0;

	cur[0] = 1;
	for (k = 0; k < nlooks; k++) {
		size_t top = looks[k] * (looks[k] + 1) / 2;
		uint64_t s;

		for (; m < looks[k]; m++) {
			double *t = cur;

			dp_grow(cur, next, m);
			cur = next;
			next = t;
		}
		memset(h, 0, (top + 1) * sizeof(*h));
		for (s = 0; s < (uint64_t)1 << m; s++)
			if (cur[s] != 0)
				h[pattern_w(s)] += cur[s];
		if (target) {
			for (w = 0; w < top && crossed + h[w] <= target[k] + SPEND_EPS; w++)
				crossed += h[w];
			c[k] = w;
		} else {
			for (w = 0; w < c[k] && w <= top; w++)
				crossed += h[w];
		}
		crossing[k] = crossed;
		for (s = 0; s < (uint64_t)1 << m; s++)
			if (cur[s] != 0 && pattern_w(s) < c[k])
				cur[s] = 0;
	}
	free(h);
	free(next);
	free(cur);
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
	size_t cc[AB_SEQ_MAX_LOOKS];
	int error;

	if ((error = check_looks(looks, nlooks, AB_SEQ_EXACT_MAX)) < 0)
		return error;
	memcpy(cc, c, nlooks * sizeof(*c));
	dp_crossing(looks, nlooks, cc, NULL, crossing);
	return 0;
}

/* ---- the simulated joint null ---------------------------------------- */

/* Uniform on 0 .. bound-1 (Lemire's multiply-shift; a bias of bound /
 * 2^64 at most, and the same result on every machine). */
static size_t draw_below(uint64_t *rng, size_t bound)
{
	return (size_t)(((unsigned __int128)ab_stats_splitmix64(rng) * bound) >> 64);
}

/* Fenwick (binary indexed) tree over 1 .. n: prefix sums in O(log n). */
static unsigned fenwick_sum(const uint16_t *t, size_t i)
{
	unsigned s = 0;

	for (; i > 0; i &= i - 1)
		s += t[i];
	return s;
}

static void fenwick_add(uint16_t *t, size_t n, size_t i)
{
	for (; i <= n; i += i & -i)
		t[i]++;
}

/*
 * `rows` null paths of the model: w[r * nlooks + k] = W_k of path r. The
 * final ranks of the |d_i| are a uniform permutation (inside-out
 * Fisher–Yates) in arrival order, the signs fair coins. Adding a pair of
 * rank v raises by one the rank of every pair above it, so W+ grows by
 * the positive pairs above v, plus v's rank among the pairs so far when
 * it is positive: two Fenwick trees give both in O(log n).
 */
static void simulate_paths(const size_t *looks, size_t nlooks, size_t rows, uint64_t seed,
			   uint16_t *w)
{
	size_t n = looks[nlooks - 1], r, i, j;
	uint16_t perm[AB_SEQ_MAX_PAIRS], cnt[AB_SEQ_MAX_PAIRS + 1], pos[AB_SEQ_MAX_PAIRS + 1];
	uint64_t rng = seed;

	for (r = 0; r < rows; r++) {
		unsigned total = 0, npos = 0;
		uint64_t bits = 0;
		size_t k = 0;

		for (i = 0; i < n; i++) {
			j = draw_below(&rng, i + 1);
			perm[i] = j == i ? (uint16_t)(i + 1) : perm[j];
			if (j != i)
				perm[j] = (uint16_t)(i + 1);
		}
		memset(cnt, 0, (n + 1) * sizeof(*cnt));
		memset(pos, 0, (n + 1) * sizeof(*pos));
		for (i = 0; i < n; i++) {
			size_t v = perm[i];

			if (i % 64 == 0)
				bits = ab_stats_splitmix64(&rng);
			total += npos - fenwick_sum(pos, v);
			if (bits & 1) {
				total += 1 + fenwick_sum(cnt, v - 1);
				fenwick_add(pos, n, v);
				npos++;
			}
			bits >>= 1;
			fenwick_add(cnt, n, v);
			if (i + 1 == looks[k])
				w[r * nlooks + k++] = (uint16_t)total;
		}
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
	simulate_paths(looks, nlooks, rows, seed, w);
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

/* The seed of a plan's simulation: FNV-1a over what defines the plan. */
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

/* Null distribution functions of each look alone (Wilcoxon 1945). */
static void design_marginals(struct design *d)
{
	size_t k, w;

	for (k = 0; k < d->plan.nlooks; k++) {
		size_t n = d->plan.looks[k], top = n * (n + 1) / 2;
		double *f = ab_xmalloc((top + 1) * sizeof(*f));

		ab_stats_signed_rank_null(f, n);
		for (w = 1; w <= top; w++)
			f[w] += f[w - 1];
		d->cdf[k] = f;
	}
}

/*
 * The counts of the looks beyond the exact ones, from the paths: the
 * crossing probability by look k with count c is P(W_k <= c - 1), exact,
 * plus the fraction of paths that crossed before k and have W_k >= c.
 */
static void design_simulated_looks(struct design *d, const uint16_t *w, unsigned char *crossed)
{
	struct ab_seq_boundaries *b = &d->b;
	size_t K = b->nlooks, N = d->rows, k, r, c;

	for (k = b->exact_looks; k < K; k++) {
		size_t top = b->looks[k] * (b->looks[k] + 1) / 2, early = 0, below = 0;
		size_t *g = ab_xcalloc(top + 1, sizeof(*g));
		double q;

		for (r = 0; r < N; r++)
			if (crossed[r]) {
				g[w[r * K + k]]++;
				early++;
			}
		/* c + 1 is allowed when P(W <= c) + #(early, W >= c + 1) / N fits */
		for (c = 0; c < top; c++) {
			double p = d->cdf[k][c] + (double)(early - below - g[c]) / (double)N;

			if (p > b->spent[k] + SPEND_EPS)
				break;
			below += g[c];
		}
		b->c[k] = c;
		q = (double)(early - below) / (double)N;
		b->crossing[k] = (c ? d->cdf[k][c - 1] : 0) + q;
		b->se = sqrt(q * (1 - q) / (double)N);
		for (r = 0; r < N; r++)
			if (w[r * K + k] < c)
				crossed[r] = 1;
		free(g);
	}
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
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

/* Score tables and each path's scores for the repeated p-values: a path
 * reaches a score t before the last look but not at it when lo < t <= hi. */
static void design_scores(struct design *d, const uint16_t *w)
{
	struct ab_seq_boundaries *b = &d->b;
	size_t K = b->nlooks, k, r, v;

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
	qsort(d->lo, d->nspan, sizeof(*d->lo), cmp_double);
	qsort(d->hi, d->nspan, sizeof(*d->hi), cmp_double);
}

static struct design *design_new(const struct ab_seq_plan *plan)
{
	struct design *d = ab_xcalloc(1, sizeof(*d));
	struct ab_seq_boundaries *b = &d->b;
	size_t K = plan->nlooks, k, r;
	unsigned char *crossed;
	uint16_t *w;

	d->plan = *plan;
	b->nlooks = K;
	memcpy(b->looks, plan->looks, K * sizeof(*b->looks));
	for (k = 0; k < K; k++) {
		b->spent[k] = ab_seq_spend(plan->spending, plan->alpha,
					   (double)plan->looks[k] / (double)plan->looks[K - 1]);
		if (plan->looks[k] <= AB_SEQ_EXACT_MAX)
			b->exact_looks = k + 1;
	}
	design_marginals(d);
	if (b->exact_looks)
		dp_crossing(b->looks, b->exact_looks, b->c, b->spent, b->crossing);

	d->rows = b->rows = AB_SEQ_SIM_ROWS;
	w = ab_xmalloc(d->rows * K * sizeof(*w));
	crossed = ab_xcalloc(d->rows, 1);
	simulate_paths(b->looks, K, d->rows, plan_seed(plan), w);
	for (r = 0; r < d->rows; r++)
		for (k = 0; k < b->exact_looks; k++)
			crossed[r] |= w[r * K + k] < b->c[k];
	design_simulated_looks(d, w, crossed);

	for (k = 0; k < K; k++)
		b->nominal[k] = b->c[k] ? d->cdf[k][b->c[k] - 1] : 0;
	b->alpha = b->crossing[K - 1];
	b->coverage = 1 - 2 * b->alpha;
	design_scores(d, w);
	free(crossed);
	free(w);
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
