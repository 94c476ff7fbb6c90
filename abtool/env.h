/* env.h - the host fingerprint stored with each run (DESIGN.md
 * "Measurement"): what machine, how loaded, how tuned. */
#ifndef AB_ENV_H
#define AB_ENV_H

#include <jansson.h>

/*
 * Read the fingerprint from `root` ("" for the real system; a fake tree
 * of proc/ and sys/ in tests). Fields that cannot be read are null, never
 * guessed. New reference.
 */
json_t *ab_env_fingerprint(const char *root);

/* One line for reports: "2-core x86_64 (Intel Xeon …), 24 GiB, Linux
 * 6.1, governor performance, load 0.08" (new string). */
char *ab_env_summary(const json_t *fp);

#endif
