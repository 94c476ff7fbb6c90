/* test_profile_fold.c - folding captured `perf script` text, the size cap,
 * and the shares of functions (profile_fold.h). */
#include "testutil.h"
#include "profile_fold.h"

#include <stdlib.h>
#include <string.h>

/* Captured from `perf script -F comm,tid,event,ip,sym` of a -g record
 * (cpu-clock, a program built with -O1 -fno-inline -fno-omit-frame-pointer),
 * shortened; the last sample has an offset, a ';' and no empty line. */
static const char script[] =
	"bench 29145 cpu-clock: \n"
	"\tffffffff8177819a elf_load\n"
	"\tffffffff8177882a load_elf_binary\n"
	"\t    7f4edc6f2ad7 [unknown]\n"
	"\n"
	"bench 29145 cpu-clock: \n"
	"\t            114d hot_a\n"
	"\t            11c9 main\n"
	"\t           2724a __libc_start_call_main\n"
	"\n"
	"bench 29145 cpu-clock: \n"
	"\t            114d hot_a\n"
	"\t            11c9 main\n"
	"\t           2724a __libc_start_call_main\n"
	"\n"
	"my bench 29146 cpu-clock: \n"
	"\t            1154 hot_b+0x1b\n"
	"\t            11c9 ma;in\n"
	"\n"
	"bench 29145 cpu-clock: \n"
	"\t            1160 hot_b\n"
	"\t            11c9 main\n"
	"\t           2724a __libc_start_call_main";

static void test_fold_script(void **state)
{
	struct ab_fold *f = ab_fold_new();
	char event[32], *text;
	uint64_t kept, cut;

	(void)state;
	assert_int_equal(ab_fold_perf_script(f, script, strlen(script), event, sizeof(event)), 5);
	assert_string_equal(event, "cpu-clock");
	text = ab_fold_text(f, 0, &kept, &cut);
	assert_string_equal(text,
		"bench;[unknown];load_elf_binary;elf_load 1\n"
		"bench;__libc_start_call_main;main;hot_a 2\n"
		"bench;__libc_start_call_main;main;hot_b 1\n"
		"my bench;ma:in;hot_b 1\n");
	assert_int_equal(kept, 5);
	assert_int_equal(cut, 0);
	/* folded text adds up: the same again doubles every count */
	assert_int_equal(ab_fold_add_folded(f, text, strlen(text)), 5);
	free(text);
	text = ab_fold_text(f, 0, &kept, NULL);
	assert_int_equal(kept, 10);
	assert_non_null(strstr(text, "main;hot_a 4\n"));
	free(text);
	ab_fold_free(f);
}

static void test_fold_cap(void **state)
{
	struct ab_fold *f = ab_fold_new();
	char *text;
	uint64_t kept, cut;

	(void)state;
	ab_fold_perf_script(f, script, strlen(script), NULL, 0);
	/* room for the largest stack only: the others are left out, and said */
	text = ab_fold_text(f, 45, &kept, &cut);
	assert_string_equal(text, "bench;__libc_start_call_main;main;hot_a 2\n");
	assert_int_equal(kept, 2);
	assert_int_equal(cut, 3);
	free(text);
	ab_fold_free(f);
}

static void test_fold_empty_and_junk(void **state)
{
	struct ab_fold *f = ab_fold_new();
	const char junk[] = "\n\n   \nnot a number x\n;; \n";
	char *text, event[8] = "x";
	uint64_t kept;

	(void)state;
	assert_int_equal(ab_fold_perf_script(f, "", 0, event, sizeof(event)), 0);
	assert_string_equal(event, "");
	assert_int_equal(ab_fold_add_folded(f, junk, strlen(junk)), 0);
	text = ab_fold_text(f, 0, &kept, NULL);
	assert_string_equal(text, "");
	assert_int_equal(kept, 0);
	free(text);
	ab_fold_free(f);
}

static void test_funcs_and_compare(void **state)
{
	const char a[] = "b;main;hot_a 50\nb;main;hot_b 50\nb;main;rec;rec 10\n";
	const char b[] = "b;main;hot_a 25\nb;main;hot_b 50\nb;main 5\n";
	struct ab_fold_funcs fa, fb;
	const struct ab_fold_func *fn;
	struct ab_fold_change *c;
	size_t n, i;

	(void)state;
	ab_fold_funcs(&fa, a, strlen(a));
	ab_fold_funcs(&fb, b, strlen(b));
	assert_int_equal(fa.samples, 110);
	assert_int_equal(fb.samples, 80);
	fn = ab_fold_funcs_find(&fa, "rec");
	assert_non_null(fn);
	assert_int_equal(fn->total, 10);  /* once per stack, recursion or not */
	assert_int_equal(fn->self, 10);
	fn = ab_fold_funcs_find(&fb, "main");
	assert_int_equal(fn->self, 5);
	assert_int_equal(fn->total, 80);
	c = ab_fold_compare(&fa, &fb, &n);
	assert_int_equal(n, 4);  /* hot_a, hot_b, main, rec: not the root "b" */
	for (i = 0; i < n; i++)
		assert_string_not_equal(c[i].name, "b");
	/* hot_b rises from 50/110 to 50/80 (+0.17), the largest change */
	assert_string_equal(c[0].name, "hot_b");
	assert_true(c[0].delta > 0.17 && c[0].delta < 0.18);
	assert_int_equal(c[0].total[0], 50);
	assert_int_equal(c[0].total[1], 50);
	for (i = 0; i < n && strcmp(c[i].name, "hot_a"); i++)
		;
	assert_true(i < n && c[i].delta < 0);
	assert_int_equal(c[i].self[1], 25);
	free(c);
	ab_fold_funcs_release(&fa);
	ab_fold_funcs_release(&fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold_script),
		cmocka_unit_test(test_fold_cap),
		cmocka_unit_test(test_fold_empty_and_junk),
		cmocka_unit_test(test_funcs_and_compare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
