/* profile_fold.h - folded stacks: `perf script` text folded into
 * "root;caller;leaf COUNT" lines, and the shares of functions in them
 * (docs/profiles.md). Pure functions over text: no process, no file. */
#ifndef AB_PROFILE_FOLD_H
#define AB_PROFILE_FOLD_H

#include <stddef.h>
#include <stdint.h>

/* A set of stacks being folded. */
struct ab_fold;

/* An empty set (new; free with ab_fold_free). */
struct ab_fold *ab_fold_new(void);

void ab_fold_free(struct ab_fold *f);

/*
 * Add the samples of `perf script -F comm,tid,event,ip,sym` output (`len`
 * bytes of `text`): each sample is a header line "COMM TID EVENT:" and
 * its frames, leaf first, one per indented line "ADDRESS SYMBOL", ended
 * by an empty line. Each sample counts 1 for its stack, written root
 * first with the command name as the root frame; "+0x..." offsets are
 * dropped and ';' in a symbol becomes ':'. The event of the first sample
 * is copied into `event` (size bytes, "" when there was none). Returns the
 * number of samples added (lines that are neither header nor frame are
 * skipped).
 */
size_t ab_fold_perf_script(struct ab_fold *f, const char *text, size_t len, char *event,
			   size_t size);

/*
 * Add folded text ("stack COUNT" lines; other lines are skipped): the
 * inverse of ab_fold_text, so that several samples' folds add up.
 * Returns the number of samples added.
 */
uint64_t ab_fold_add_folded(struct ab_fold *f, const char *text, size_t len);

/*
 * The set as folded text (new string): one "stack COUNT\n" line per
 * distinct stack, sorted by stack. With `cap` > 0, the stacks with the
 * fewest samples are left out until the text fits in `cap` bytes:
 * `*dropped` (may be NULL) receives the samples left out, 0 when nothing
 * was cut. `*samples` (may be NULL) receives the samples kept.
 */
char *ab_fold_text(const struct ab_fold *f, size_t cap, uint64_t *samples, uint64_t *dropped);

/* One function's samples in a folded profile. */
struct ab_fold_func {
	char *name;          /* the frame (owned) */
	uint64_t self;       /* samples where it is the leaf */
	uint64_t total;      /* samples whose stack holds it (once per stack) */
	int root;            /* 1: seen as a root frame (a command's name) */
};

/* The functions of a folded profile. */
struct ab_fold_funcs {
	struct ab_fold_func *v;  /* sorted by name */
	size_t n;
	uint64_t samples;        /* every sample of the profile */
};

/* The functions of folded text, the root frame (the command's name)
 * included. Release with ab_fold_funcs_release. */
void ab_fold_funcs(struct ab_fold_funcs *out, const char *text, size_t len);

void ab_fold_funcs_release(struct ab_fold_funcs *fs);

/* The entry of `name` in `fs`, or NULL. */
const struct ab_fold_func *ab_fold_funcs_find(const struct ab_fold_funcs *fs, const char *name);

/* One line of the comparison of two profiles. Shares are fractions of
 * each side's samples (0 when a side has none). */
struct ab_fold_change {
	const char *name;                /* borrowed from the funcs */
	uint64_t self[2], total[2];      /* samples: parent, candidate */
	double self_share[2], total_share[2];
	double delta;                    /* total_share[1] - total_share[0] */
};

/*
 * The functions of either side (but not the root frames, which are
 * command names), sorted by |delta| of the inclusive share, largest
 * first, then by name. `*n` receives the count; the array is new (free
 * it; names are borrowed from `a` and `b`).
 */
struct ab_fold_change *ab_fold_compare(const struct ab_fold_funcs *a, const struct ab_fold_funcs *b,
				       size_t *n);

/*
 * Call `fn` for each "stack COUNT" line of folded text: `stack` points
 * into the text (`slen` bytes, frames separated by ';'). Lines that do
 * not end in a count are skipped. Returns the number of lines seen.
 */
size_t ab_fold_each(const char *text, size_t len,
		    void (*fn)(void *ctx, const char *stack, size_t slen, uint64_t count), void *ctx);

#endif
