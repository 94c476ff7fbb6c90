/* extract.h - what a sample's process printed: its checksum and the
 * metrics it reports, plus abtool's own builtin metrics, into a sample. */
#ifndef AB_EXTRACT_H
#define AB_EXTRACT_H

#include "config.h"
#include "runner.h"
#include "sample.h"

struct ab_extractor;

/*
 * Compile the experiment's checksum and metric patterns (PCRE2). `*out` is
 * new; free with ab_extract_free. `exp` is borrowed and must outlive it.
 * Errors: AB_EINVALID for a pattern that does not compile (already checked
 * when the experiment was loaded, so rare).
 */
int ab_extract_new(struct ab_extractor **out, const struct ab_experiment *exp);

void ab_extract_free(struct ab_extractor *x);

/* 1 when the checksum is the SHA-256 of stdout (the runner must hash it). */
int ab_extract_wants_stdout_hash(const struct ab_extractor *x);

/*
 * Fill s->checksum, s->metrics (one value per experiment metric; builtins
 * from `r`) and, when something expected is missing, s->error and
 * AB_FLAG_NO_CHECKSUM; AB_FLAG_OUTPUT_TRUNCATED and AB_FLAG_LEFTOVERS from
 * `r`. The checksum is group 1 of the LAST match of the
 * regex (the result is usually printed last), the SHA-256 of stdout, the
 * value of a key of the last JSON object line, or the SHA-256 of a file
 * (relative to `workdir`). A declared metric that is missing or not a
 * number makes the sample fail with a reason naming it. Never fails itself.
 */
void ab_extract_sample(struct ab_extractor *x, struct ab_sample *s,
		       const struct ab_runner_result *r, const char *workdir);

#endif
