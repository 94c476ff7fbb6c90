/* fuzz.h - the libFuzzer entry point shared by the fuzzers and by the
 * replay driver (replay.c), which calls it on every file of a corpus in
 * the normal build, so that the corpora are regression tests. */
#ifndef AB_FUZZ_H
#define AB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Run one input; returns 0 (libFuzzer reserves other values). Never
 * prints: a crash, a sanitizer report or a leak is the finding. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
