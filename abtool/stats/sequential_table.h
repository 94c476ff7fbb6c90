/* sequential_table.h - the boundaries of the common sequential plans,
 * computed ahead by bench/seq-boundaries.sh with ab_seq_boundaries_compute
 * (sequential.h) and kept in sequential_table.c, so that `abtool check`,
 * `run`, `resume` and `calibrate` read them at once instead of simulating
 * millions of paths: ab_seq_boundaries returns exactly what the
 * computation returns (tests/unit/test_sequential.c recomputes entries and
 * compares them). Data only. */
#ifndef AB_SEQUENTIAL_TABLE_H
#define AB_SEQUENTIAL_TABLE_H

#include <stddef.h>

/* Looks per entry: AB_SEQ_MAX_LOOKS (sequential.c checks; this header is
 * below sequential.h, which it must not include). */
#define AB_SEQ_TABLE_LOOKS 16

/* One plan's boundaries: the plan (spending as enum ab_seq_spending,
 * alpha, looks) and per look the count c, the crossing probability by that
 * look and its standard error (0 at exact looks); the first exact_looks
 * looks are exact. */
struct ab_seq_table_entry {
	int spending;
	double alpha;
	size_t nlooks;
	size_t looks[AB_SEQ_TABLE_LOOKS];
	size_t c[AB_SEQ_TABLE_LOOKS];
	double crossing[AB_SEQ_TABLE_LOOKS];
	double crossing_se[AB_SEQ_TABLE_LOOKS];
	size_t exact_looks;
};

extern const struct ab_seq_table_entry ab_seq_table[];
extern const size_t ab_seq_table_len;

#endif
