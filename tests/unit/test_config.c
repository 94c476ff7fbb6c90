/* test_config.c - the experiment file: every bad file gives the exact
 * "PATH:LINE:COLUMN: key.path: message", and good files give the values
 * docs/experiment-file.md promises. */
#include "testutil.h"
#include "shards.h"
#include "config.h"
#include "error.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The temporary folder holding exp.yaml; the tests run inside it, so
 * that messages name the file as "exp.yaml". */
static char *tmp;
static char *old_cwd;

static int group_setup(void **state)
{
	(void)state;
	tmp = ab_test_mktemp("config");
	old_cwd = getcwd(NULL, 0);
	return chdir(tmp);
}

static int group_teardown(void **state)
{
	(void)state;
	if (chdir(old_cwd) < 0)
		return -1;
	free(old_cwd);
	ab_test_rmtemp(tmp);
	return 0;
}

/* Write `len` bytes to exp.yaml and load it, expecting `code`; returns
 * the error message (borrowed). */
static const char *load_bytes(const char *text, size_t len, int code)
{
	struct ab_experiment e;
	char *path = ab_path_join(tmp, "exp.yaml");
	int err;

	if (ab_write_file(path, text, len) < 0)
		fail_msg("write %s", path);
	free(path);
	ab_error_clear();
	err = ab_experiment_load(&e, "exp.yaml");
	ab_experiment_release(&e);
	if (err != code)
		fail_msg("load returned %d, expected %d: %s", err, code, ab_error_last());
	return ab_error_last();
}

static void load_ok(struct ab_experiment *e, const char *text)
{
	int err;

	ab_test_write(tmp, "exp.yaml", text);
	err = ab_experiment_load(e, "exp.yaml");
	if (err)
		fail_msg("load failed: %s", ab_error_last());
}

/* Bad files: one named test each, from this table. */
struct bad_case {
	const char *name;
	const char *text;
	const char *message;
};

#define HEAD "name: x\nbenchmark: ./bench\n"
#define LANES_BENCH_TYPO "name: x\nbenchmark: ./bench {lane}\nmatrix: {lanes: [1, 2, 4, 8]}\n"
#define LANES "name: x\nbenchmark: ./bench {lanes}\nmatrix: {lanes: [1, 2, 4, 8]}\n"

static const struct bad_case bad_cases[] = {
	{ "contention_not_mapping", HEAD "contention: yes\n",
	  "exp.yaml:3:1: contention: expected a mapping like {reruns: auto} or {max_cpu_wait: 10%, reruns: 16}, or off" },
	{ "contention_unknown_key", HEAD "contention: {rerun: 4}\n",
	  "exp.yaml:3:14: contention.rerun: unknown key 'rerun'; did you mean 'reruns'?" },
	{ "contention_wait_share", HEAD "contention: {max_cpu_wait: 100%}\n",
	  "exp.yaml:3:14: contention.max_cpu_wait: expected a share of the sample's time above 0% and "
	  "below 100%, like 10%" },
	{ "contention_reruns_negative", HEAD "contention: {reruns: -1}\n",
	  "exp.yaml:3:14: contention.reruns: expected an integer from 0 to 100000" },
	{ "contention_when_exhausted", HEAD "contention: {when_exhausted: reject}\n",
	  "exp.yaml:3:14: contention.when_exhausted: expected keep or inconclusive" },
	{ "contention_quiet_below", HEAD "contention: {quiet: {wait: 5s}}\n",
	  "exp.yaml:3:21: contention.quiet.below: required key is missing" },
	{ "contention_quiet_cpus", HEAD "contention: {quiet: {below: lots}}\n",
	  "exp.yaml:3:22: contention.quiet.below: expected a number of CPUs other processes may use, like 0.5" },
	{ "sides_same_name",
	  "name: x\nsides:\n  a: {name: p, command: ./a}\n  b: {name: p, command: ./b}\n",
	  "exp.yaml:2:1: sides: both sides are named 'p'; give each its own name" },
	{ "sides_with_candidate",
	  "name: x\ncandidate: HEAD\nsides:\n  a: {name: p, command: ./a}\n  b: {name: q, command: ./b}\n",
	  "exp.yaml:2:1: candidate: not with sides: (two commands are compared as they are: no revision "
	  "is read, nothing is built)" },
	{ "sides_missing_command",
	  "name: x\nsides:\n  a: {name: p, command: ./a}\n  b: {name: q}\n",
	  "exp.yaml:4:6: sides.b.command: required key is missing" },
	{ "sides_bad_name",
	  "name: x\nsides:\n  a: {name: 'p q', command: ./a}\n  b: {name: q, command: ./b}\n",
	  "exp.yaml:3:7: sides.a.name: expected a name of letters, digits and '_', '.', '+', '-'" },
	{ "sides_placeholder",
	  "name: x\nsides:\n  a: {name: p, command: './a {lane}'}\n  b: {name: q, command: ./b}\n"
	  "matrix: {lanes: [1]}\n",
	  "exp.yaml:3:16: sides.a.command: unknown placeholder '{lane}'; did you mean '{lanes}'?" },
	{ "profile_unknown_key",
	  LANES "profile: {rows: {lanes: 8}, sample: 3}\n",
	  "exp.yaml:4:29: profile.sample: unknown key 'sample'; did you mean 'samples'?" },
	{ "profile_samples_out_of_range",
	  LANES "profile: {samples: 0}\n",
	  "exp.yaml:4:11: profile.samples: expected an integer from 1 to 100" },
	{ "profile_rows_select_no_row",
	  LANES "profile: {rows: {lanes: 3}}\n",
	  "exp.yaml:4:18: profile.rows.lanes: no row has lanes = 3; its values are 1, 2, 4, 8" },
	{ "profile_event_not_a_name",
	  LANES "profile: {event: 'a b'}\n",
	  "exp.yaml:4:11: profile.event: expected a perf event name like cpu-clock or cycles" },
	{ "profile_not_a_mapping",
	  LANES "profile: maybe\n",
	  "exp.yaml:4:1: profile: expected true, false, or a mapping like {rows: {lanes: 8}, samples: 3, "
	  "event: cpu-clock}" },
	{ "missing_name",
	  "benchmark: ./bench\npairs: 8\n",
	  "exp.yaml:1:1: name: required key is missing" },
	{ "missing_benchmark",
	  "# an experiment without a benchmark\nname: x\n",
	  "exp.yaml:2:1: benchmark: required key is missing" },
	{ "unknown_top_key_did_you_mean",
	  HEAD "piars: 8\n",
	  "exp.yaml:3:1: piars: unknown key 'piars'; did you mean 'pairs'?" },
	{ "unknown_top_key_without_suggestion",
	  HEAD "colour: red\n",
	  "exp.yaml:3:1: colour: unknown key 'colour'" },
	{ "merge_key_is_unknown",
	  HEAD "<<: {pairs: 3}\n",
	  "exp.yaml:3:1: <<: unknown key '<<' (YAML merge keys are not supported)" },
	{ "duplicate_top_key",
	  HEAD "pairs: 8\nwarmup: 1\npairs: 9\n",
	  "exp.yaml:5:1: pairs: duplicate key 'pairs' (first at 3:1)" },
	{ "duplicate_key_in_nested_mapping",
	  LANES "accept:\n  - name: r\n    faster_by: 5%\n    faster_by: 6%\n",
	  "exp.yaml:7:5: accept[0].faster_by: duplicate key 'faster_by' (first at 6:5)" },
	{ "duplicate_key_before_unknown_key_is_reported_first",
	  HEAD "pairs: 8\npairs: 9\ncolour: red\n",
	  "exp.yaml:4:1: pairs: duplicate key 'pairs' (first at 3:1)" },
	{ "name_wrong_type",
	  "name: [a, b]\nbenchmark: ./bench\n",
	  "exp.yaml:1:1: name: expected a string" },
	{ "name_null",
	  "name:\nbenchmark: ./bench\n",
	  "exp.yaml:1:1: name: expected a string" },
	{ "name_empty",
	  "name: ''\nbenchmark: ./bench\n",
	  "exp.yaml:1:1: name: expected a non-empty string" },
	{ "name_with_nul_escape",
	  "name: \"a\\0b\"\nbenchmark: ./bench\n",
	  "exp.yaml:1:1: name: the value contains a NUL character" },
	{ "pairs_wrong_type",
	  HEAD "pairs: [8]\n",
	  "exp.yaml:3:1: pairs: expected an integer from 1 to 100000" },
	{ "pairs_zero",
	  HEAD "pairs: 0\n",
	  "exp.yaml:3:1: pairs: expected an integer from 1 to 100000" },
	{ "pairs_too_many",
	  HEAD "pairs: 100001\n",
	  "exp.yaml:3:1: pairs: expected an integer from 1 to 100000" },
	{ "pairs_fraction",
	  HEAD "pairs: 8.5\n",
	  "exp.yaml:3:1: pairs: expected an integer from 1 to 100000" },
	{ "warmup_negative",
	  HEAD "warmup: -1\n",
	  "exp.yaml:3:1: warmup: expected an integer from 0 to 1000" },
	{ "exact_parent_not_bool",
	  HEAD "exact_parent: yes\n",
	  "exp.yaml:3:1: exact_parent: expected true or false" },
	/* docs/experiment-file.md's example message, literally */
	{ "design_example_faster_by_without_percent",
	  "name: demo\n"
	  "benchmark: ./bench {lanes}\n"
	  "matrix: {lanes: [1, 2, 4, 8]}\n"
	  "accept:\n"
	  "  - name: no low-lane regression\n"
	  "    where: {lanes: [1, 2]}\n"
	  "    no_regression: 2%\n"
	  "  - name: material gain at 4/8 lanes\n"
	  "    where: {lanes: [4, 8]}\n"
	  "    min_pair_wins: 7\n"
	  "    # at least 5% faster than the parent\n"
	  "    faster_by: 5\n",
	  "exp.yaml:12:5: accept[1].faster_by: expected a percentage like 5%" },
	{ "no_regression_fraction_instead_of_percent",
	  LANES "accept:\n  - {name: r, no_regression: 0.02}\n",
	  "exp.yaml:5:15: accept[0].no_regression: expected a percentage like 5%" },
	{ "max_rsd_negative",
	  LANES "accept:\n  - name: r\n    faster_by: 5%\n    max_rsd: -3%\n",
	  "exp.yaml:7:5: accept[0].max_rsd: expected a percentage like 5%" },
	{ "min_pair_wins_zero",
	  LANES "accept:\n  - name: r\n    min_pair_wins: 0\n",
	  "exp.yaml:6:5: accept[0].min_pair_wins: expected a count of pairs like 7 or a percentage like 90%" },
	{ "min_pair_wins_over_100_percent",
	  LANES "accept:\n  - name: r\n    min_pair_wins: 120%\n",
	  "exp.yaml:6:5: accept[0].min_pair_wins: expected a count of pairs like 7 or a percentage like 90%" },
	{ "timeout_without_unit",
	  HEAD "timeout: 60\n",
	  "exp.yaml:3:1: timeout: expected a duration like 500ms, 60s or 10m" },
	{ "build_timeout_bad_unit",
	  HEAD "build_timeout: 2 weeks\n",
	  "exp.yaml:3:1: build_timeout: expected a duration like 500ms, 60s or 10m" },
	{ "where_unknown_parameter_did_you_mean",
	  LANES "accept:\n  - name: r\n    where: {lane: 4}\n    faster_by: 5%\n",
	  "exp.yaml:6:13: accept[0].where.lane: unknown matrix parameter 'lane'; did you mean 'lanes'?" },
	{ "where_unknown_parameter_lists_parameters",
	  LANES "accept:\n  - name: r\n    where: {threads: 4}\n    faster_by: 5%\n",
	  "exp.yaml:6:13: accept[0].where.threads: unknown matrix parameter 'threads'; matrix parameters are: lanes" },
	{ "where_without_matrix",
	  HEAD "accept:\n  - name: r\n    where: {lanes: 4}\n    faster_by: 5%\n",
	  "exp.yaml:5:13: accept[0].where.lanes: unknown matrix parameter 'lanes': the experiment has no matrix" },
	{ "where_selects_no_row",
	  LANES "accept:\n  - name: small\n    where: {lanes: 1}\n    no_regression: 2%\n"
	  "  - name: huge\n    where: {lanes: \">8\"}\n    faster_by: 5%\n",
	  "exp.yaml:9:5: accept[1].where: selects no row of the matrix; compare it with the values under 'matrix:'" },
	{ "where_comparison_on_text_selects_no_row",
	  "name: x\nbenchmark: ./bench\nmatrix: {workload: [small, large]}\n"
	  "accept:\n  - name: r\n    where: {workload: \"<3\"}\n    faster_by: 5%\n",
	  "exp.yaml:6:5: accept[0].where: selects no row of the matrix; compare it with the values under 'matrix:'" },
	{ "where_value_not_in_matrix",
	  LANES "accept:\n  - name: r\n    where: {lanes: [4, 16]}\n    faster_by: 5%\n",
	  "exp.yaml:6:24: accept[0].where.lanes[1]: no row has lanes = 16; its values are 1, 2, 4, 8" },
	{ "where_comparison_operand_not_a_number",
	  LANES "accept:\n  - name: r\n    where: {lanes: \">=four\"}\n    faster_by: 5%\n",
	  "exp.yaml:6:13: accept[0].where.lanes: expected a number after '>=', not 'four'" },
	{ "where_comparison_without_operand",
	  LANES "accept:\n  - name: r\n    where: {lanes: [1, \"<\"]}\n    faster_by: 5%\n",
	  "exp.yaml:6:24: accept[0].where.lanes[1]: expected a number after '<', not ''" },
	{ "where_empty_list",
	  LANES "accept:\n  - name: r\n    where: {lanes: []}\n    faster_by: 5%\n",
	  "exp.yaml:6:13: accept[0].where.lanes: expected a value or a non-empty list of values" },
	{ "checksum_two_kinds",
	  HEAD "checksum: {regex: 'sum=(\\S+)', json: sum}\n",
	  "exp.yaml:3:32: checksum.json: give only one of regex, stdout, json or file ('regex' is already given)" },
	{ "checksum_empty_mapping",
	  HEAD "checksum: {}\n",
	  "exp.yaml:3:1: checksum: expected one of regex, stdout, json or file" },
	{ "checksum_string",
	  HEAD "checksum: stdout\n",
	  "exp.yaml:3:1: checksum: expected a mapping with one of regex, stdout, json or file" },
	{ "checksum_unknown_kind",
	  HEAD "checksum: {sdtout: sha256}\n",
	  "exp.yaml:3:12: checksum.sdtout: unknown key 'sdtout'; did you mean 'stdout'?" },
	{ "checksum_stdout_not_sha256",
	  HEAD "checksum: {stdout: md5}\n",
	  "exp.yaml:3:12: checksum.stdout: expected sha256" },
	{ "checksum_bad_regex",
	  HEAD "checksum: {regex: 'sum=(\\S+'}\n",
	  "exp.yaml:3:12: checksum.regex: invalid regex at offset 8: missing closing parenthesis" },
	{ "checksum_regex_without_group",
	  HEAD "checksum:\n  regex: 'sum=\\S+'\n",
	  "exp.yaml:4:3: checksum.regex: the regex has no capture group; put the value to extract in ( )" },
	{ "metric_unknown_did_you_mean",
	  HEAD "metric: wal_ns\n",
	  "exp.yaml:3:1: metric: unknown metric 'wal_ns'; did you mean 'wall_ns'?" },
	{ "metric_unknown_lists_metrics",
	  HEAD "metrics: {ops: {json: ops, better: higher}}\nmetric: throughput\n",
	  "exp.yaml:4:1: metric: unknown metric 'throughput'; metrics are: wall_ns, user_ns, sys_ns, cpu_ns, maxrss_bytes, ops" },
	{ "rule_metric_unknown",
	  LANES "accept:\n  - name: r\n    metric: cpu-ns\n    faster_by: 5%\n",
	  "exp.yaml:6:5: accept[0].metric: unknown metric 'cpu-ns'; did you mean 'cpu_ns'?" },
	{ "metric_without_better",
	  HEAD "metrics:\n  ops: {regex: 'ops=(\\d+)', unit: ops/s}\n",
	  "exp.yaml:4:8: metrics.ops.better: required key is missing" },
	{ "metric_better_bad_value",
	  HEAD "metrics:\n  ops:\n    json: ops\n    better: more\n",
	  "exp.yaml:6:5: metrics.ops.better: expected lower or higher" },
	{ "metric_regex_and_json",
	  HEAD "metrics:\n  ops: {regex: 'ops=(\\d+)', json: ops, better: higher}\n",
	  "exp.yaml:4:29: metrics.ops.json: give only one of regex or json ('regex' is already given)" },
	{ "metric_without_source",
	  HEAD "metrics:\n  ops: {better: higher}\n",
	  "exp.yaml:4:8: metrics.ops: expected regex or json to say where the value comes from" },
	{ "metric_named_like_builtin",
	  HEAD "metrics:\n  wall_ns: {json: t, better: lower}\n",
	  "exp.yaml:4:3: metrics.wall_ns: 'wall_ns' is a builtin metric; choose another name" },
	{ "scaling_parameter_not_in_matrix",
	  LANES "scaling: {parameter: threads, work: per_lane}\n",
	  "exp.yaml:4:11: scaling.parameter: unknown matrix parameter 'threads'; matrix parameters are: lanes" },
	{ "scaling_parameter_not_numeric",
	  "name: x\nbenchmark: ./bench\nmatrix: {lanes: [1, 2, many]}\n"
	  "scaling: {parameter: lanes, work: total}\n",
	  "exp.yaml:4:11: scaling.parameter: matrix parameter 'lanes' has the value 'many', not a positive number" },
	{ "scaling_without_work",
	  LANES "scaling: {parameter: lanes}\n",
	  "exp.yaml:4:10: scaling.work: required key is missing" },
	{ "scaling_bad_work",
	  LANES "scaling: {parameter: lanes, work: fixed}\n",
	  "exp.yaml:4:29: scaling.work: expected per_lane or total" },
	{ "matrix_duplicate_value",
	  "name: x\nbenchmark: ./bench\nmatrix:\n  lanes: [1, 2, 1.0]\n",
	  "exp.yaml:4:17: matrix.lanes[2]: duplicate value '1.0' (same as matrix.lanes[0])" },
	{ "matrix_empty_list",
	  "name: x\nbenchmark: ./bench\nmatrix:\n  lanes: []\n",
	  "exp.yaml:4:3: matrix.lanes: expected a value or a non-empty list of values" },
	{ "matrix_nested_list",
	  "name: x\nbenchmark: ./bench\nmatrix:\n  lanes: [1, [2, 3]]\n",
	  "exp.yaml:4:14: matrix.lanes[1]: expected a value (a string or a number)" },
	{ "matrix_bad_parameter_name",
	  "name: x\nbenchmark: ./bench\nmatrix:\n  lane count: [1, 2]\n",
	  "exp.yaml:4:3: matrix.lane count: 'lane count' is not a valid parameter name (letters, digits and _, not starting with a digit)" },
	{ "matrix_empty_mapping",
	  HEAD "matrix: {}\n",
	  "exp.yaml:3:1: matrix: expected at least one parameter (leave out matrix: for a single row)" },
	{ "matrix_too_many_rows",
	  "name: x\nbenchmark: ./bench\nmatrix:\n"
	  "  a: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n  b: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
	  "  c: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n  d: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
	  "  e: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n  f: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
	  "  g: [0, 1]\n",
	  "exp.yaml:10:3: matrix.g: the matrix has more than 1000000 rows" },
	{ "empty_file",
	  "",
	  "exp.yaml:1:1: the file is empty (or only comments); an experiment needs at least 'name:' and 'benchmark:': start from 'abtool init'" },
	{ "comments_only",
	  "# nothing yet\n",
	  "exp.yaml:1:1: the file is empty (or only comments); an experiment needs at least 'name:' and 'benchmark:': start from 'abtool init'" },
	{ "top_level_list",
	  "- name: x\n- benchmark: ./bench\n",
	  "exp.yaml:1:1: expected a mapping of experiment keys (name:, benchmark:, ...), not a list" },
	{ "top_level_scalar",
	  "just some text\n",
	  "exp.yaml:1:1: expected a mapping of experiment keys (name:, benchmark:, ...), not a single value" },
	{ "yaml_unclosed_bracket",
	  HEAD "matrix: {lanes: [1, 2}\n",
	  "exp.yaml:3:22: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence that starts at 3:17)" },
	{ "yaml_unclosed_quote",
	  "name: \"x\nbenchmark: ./bench\n",
	  "exp.yaml:3:1: YAML syntax error: found unexpected end of stream (while scanning a quoted scalar that starts at 1:7)" },
	{ "yaml_undefined_alias",
	  HEAD "pairs: *n\n",
	  "exp.yaml:3:8: YAML syntax error: found undefined alias" },
	{ "two_documents",
	  HEAD "---\nname: y\n",
	  "exp.yaml:3:1: the file holds more than one YAML document; write one experiment per file" },
	{ "control_character",
	  "name: x\nbenchmark: ./bench\x07\n",
	  "exp.yaml:2:19: not a YAML text file: control character U+0007 (is it binary?)" },
	{ "latin1_text",
	  "name: caf\xe9\nbenchmark: ./bench\n",
	  "exp.yaml:1:10: not a YAML text file: invalid UTF-8 byte 0xe9 (save the file as UTF-8)" },
	{ "overlong_utf8",
	  "name: \xc0\xaf\nbenchmark: ./bench\n",
	  "exp.yaml:1:7: not a YAML text file: invalid UTF-8 byte 0xc0 (save the file as UTF-8)" },
	{ "duplicate_rule_name",
	  LANES "accept:\n  - name: fast\n    faster_by: 5%\n  - name: fast\n    min_pair_wins: 7\n",
	  "exp.yaml:7:5: accept[1].name: duplicate rule name 'fast' (first at accept[0])" },
	{ "rule_without_name",
	  LANES "accept:\n  - faster_by: 5%\n",
	  "exp.yaml:5:5: accept[0].name: required key is missing" },
	{ "rule_without_predicate",
	  LANES "accept:\n  - name: gate only\n    where: {lanes: 4}\n    metric: wall_ns\n",
	  "exp.yaml:5:5: accept[0]: rule has no predicate; add one of no_regression, faster_by, slower_by, equivalent_within, differs, min_pair_wins, max_ratio, min_ratio, min_scaling, scaling_not_worse, max_rsd, max_ci_width, max_flagged_samples, checksum or allow_failed_pairs" },
	{ "rule_unknown_key",
	  LANES "accept:\n  - name: r\n    fastr_by: 5%\n",
	  "exp.yaml:6:5: accept[0].fastr_by: unknown key 'fastr_by'; did you mean 'faster_by'?" },
	{ "rule_not_a_mapping",
	  LANES "accept:\n  - faster by 5%\n",
	  "exp.yaml:5:5: accept[0]: expected a mapping with a name and a predicate like faster_by: 5%" },
	{ "accept_not_a_list",
	  LANES "accept: {name: r, faster_by: 5%}\n",
	  "exp.yaml:4:1: accept: expected a list of rules" },
	{ "benchmark_unknown_placeholder",
	  LANES_BENCH_TYPO,
	  "exp.yaml:2:1: benchmark: unknown placeholder '{lane}'; did you mean '{lanes}'?" },
	{ "benchmark_placeholder_without_matrix",
	  "name: x\nbenchmark: echo ${HOME}\n",
	  "exp.yaml:2:1: benchmark: unknown placeholder '{HOME}'; the experiment has no matrix (write {{ and }} for literal braces)" },
	{ "benchmark_argv_unknown_placeholder",
	  "name: x\nbenchmark: [./bench, '--n={count}']\nmatrix: {lanes: [1, 2]}\n",
	  "exp.yaml:2:22: benchmark[1]: unknown placeholder '{count}'; matrix parameters are: lanes (write {{ and }} for literal braces)" },
	{ "prepare_unknown_placeholder",
	  LANES "prepare: echo {lane} > token\n",
	  "exp.yaml:4:1: prepare: unknown placeholder '{lane}'; did you mean '{lanes}'?" },
	{ "cleanup_empty_list",
	  LANES "cleanup: []\n",
	  "exp.yaml:4:1: cleanup: expected a non-empty list of strings" },
	{ "inputs_not_a_list",
	  HEAD "inputs: /data/corpus.txt\n",
	  "exp.yaml:3:1: inputs: expected a list of paths (files or folders)" },
	{ "inputs_empty_path",
	  HEAD "inputs: [a.txt, '']\n",
	  "exp.yaml:3:17: inputs[1]: expected a non-empty string" },
	{ "benchmark_empty_list",
	  "name: x\nbenchmark: []\n",
	  "exp.yaml:2:1: benchmark: expected a non-empty list of strings" },
	{ "benchmark_empty_string",
	  "name: x\nbenchmark: ''\n",
	  "exp.yaml:2:1: benchmark: expected a non-empty string" },
	{ "build_wrong_type",
	  HEAD "build: {make: bench}\n",
	  "exp.yaml:3:1: build: expected a string or a list of strings" },
	{ "build_argv_element_not_a_string",
	  HEAD "build: [make, [-j2]]\n",
	  "exp.yaml:3:15: build[1]: expected a string" },
	{ "artifacts_not_a_list",
	  HEAD "artifacts: bench\n",
	  "exp.yaml:3:1: artifacts: expected a list of strings" },
	{ "artifact_outside_tree",
	  HEAD "artifacts: [bench, ../x]\n",
	  "exp.yaml:3:20: artifacts[1]: expected a path inside the tree (relative, without '..')" },
	{ "workdir_absolute",
	  HEAD "workdir: /tmp\n",
	  "exp.yaml:3:1: workdir: expected a path inside the tree (relative, without '..')" },
	{ "env_bad_name",
	  HEAD "env:\n  OK_NAME: 1\n  1BAD: x\n",
	  "exp.yaml:5:3: env.1BAD: '1BAD' is not a valid environment variable name (letters, digits and _, not starting with a digit)" },
	{ "env_null_value",
	  HEAD "env: {CFLAGS: }\n",
	  "exp.yaml:3:7: env.CFLAGS: expected a string value (write '' for an empty one)" },
	{ "env_not_a_mapping",
	  HEAD "env: [A=1]\n",
	  "exp.yaml:3:1: env: expected a mapping of NAME: value" },
	{ "non_string_key",
	  HEAD "[a, b]: 1\n",
	  "exp.yaml:3:1: expected a string key" },
	{ "project_empty",
	  HEAD "project: ''\n",
	  "exp.yaml:3:10: project: expected a non-empty string" },
	{ "project_not_a_string",
	  HEAD "project: [a]\n",
	  "exp.yaml:3:10: project: expected the project's name as a string, like github.com/owner/name" },
	{ "project_control_character",
	  HEAD "project: \"a\\tb\"\n",
	  "exp.yaml:3:10: project: a project name has no control characters" },
	{ "project_with_sides",
	  "name: x\nproject: p\nsides:\n  a: {name: p, command: ./a}\n  b: {name: q, command: ./b}\n",
	  "exp.yaml:2:1: project: not with sides: (a comparison of two commands belongs to no project)" },
};

static void test_bad_file(void **state)
{
	const struct bad_case *bc = *state;

	assert_string_equal(load_bytes(bc->text, strlen(bc->text), AB_EINVALID), bc->message);
}

/* Files with NUL bytes cannot live in the table's C strings. */
static void test_bad_binary_garbage(void **state)
{
	static const char elf[] = "\x7f" "ELF\x02\x01\x01\x00\x00\x00\x00\x00";
	static const char nul[] = "name: x\nbenchmark: ./b\x00\x01\x02\x03";

	(void)state;
	assert_string_equal(load_bytes(elf, sizeof(elf) - 1, AB_EINVALID),
			    "exp.yaml:1:1: not a YAML text file: control character U+007F (is it binary?)");
	assert_string_equal(load_bytes(nul, sizeof(nul) - 1, AB_EINVALID),
			    "exp.yaml:2:15: not a YAML text file: NUL byte (is it binary?)");
}

static void test_missing_file(void **state)
{
	struct ab_experiment e;

	(void)state;
	assert_int_equal(ab_experiment_load(&e, "no-such-exp.yaml"), AB_ENOTFOUND);
	assert_non_null(strstr(ab_error_last(), "no-such-exp.yaml"));
	ab_experiment_release(&e);
}

/* Aliases share the anchored node: a self-referential one must give an
 * error, not recurse. */
static void test_recursive_alias(void **state)
{
	static const char text[] = "name: x\nbenchmark: &b [*b]\n";

	(void)state;
	assert_string_equal(load_bytes(text, strlen(text), AB_EINVALID),
			    "exp.yaml:2:16: alias *b refers to the node that contains it (a cycle); "
			    "copy the value instead");
}

/* Aliases whose expansion passes the limits are refused at the alias
 * that passes them, before the walk builds anything. */
static void test_alias_fanout(void **state)
{
	char text[2048];
	size_t n;
	int i, j;

	(void)state;
	n = (size_t)snprintf(text, sizeof(text), "name: x\nbenchmark: ./b\nl0: &a0 [");
	for (j = 0; j < 10; j++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s\"lol\"", j ? "," : "");
	n += (size_t)snprintf(text + n, sizeof(text) - n, "]\n");
	for (i = 1; i < 10; i++) {
		n += (size_t)snprintf(text + n, sizeof(text) - n, "l%d: &a%d [", i, i);
		for (j = 0; j < 10; j++)
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%s*a%d", j ? "," : "", i - 1);
		n += (size_t)snprintf(text + n, sizeof(text) - n, "]\n");
	}
	assert_string_equal(load_bytes(text, n, AB_EINVALID),
			    "exp.yaml:8:38: alias *a4 takes the file past what its aliases may expand to "
			    "(1000000 nodes and 64 MiB of text in all, counting each alias as a copy of its "
			    "value); anchor smaller values, or write fewer aliases");
}

/* docs/experiment-file.md's example, verbatim. */
static const char design_example[] =
	"name: object-churn-batched-publication   # required\n"
	"design: batched-publication              # design tag; history groups runs by it\n"
	"hypothesis: batching removes the alloc_lock convoy at 4/8 lanes\n"
	"repo: .                # git repository, relative to this file's folder\n"
	"candidate: HEAD        # any revspec; --candidate overrides\n"
	"# parent:              # default and only accepted value: the candidate's first\n"
	"                       # parent; anything else is refused unless exact_parent: false\n"
	"build: make -j2 bench  # string (/bin/sh -c) or argv list, run in each tree\n"
	"artifacts: [bench]     # build outputs to hash into the provenance (optional)\n"
	"benchmark: ./bench {workload} {lanes}    # string or argv; {param} from the matrix\n"
	"checksum: {regex: 'checksum=(\\S+)'}      # or {json: key} or {stdout: sha256} or {file: path}\n"
	"matrix: {workload: [object_churn], lanes: [1, 2, 4, 8]}\n"
	"metric: wall_ns        # the primary metric (default wall_ns)\n"
	"scaling: {parameter: lanes, work: per_lane}   # or work: total; optional\n"
	"pairs: 8\n"
	"warmup: 1\n"
	"timeout: 60s           # per sample; durations like 500ms, 60s, 10m\n"
	"accept:\n"
	"  - name: no low-lane regression\n"
	"    where: {lanes: [1, 2]}\n"
	"    no_regression: 2%\n"
	"  - name: material gain at 4/8 lanes\n"
	"    where: {lanes: [4, 8]}\n"
	"    faster_by: 5%\n"
	"    min_pair_wins: 7\n";

static void test_design_example(void **state)
{
	struct ab_experiment e;
	const struct ab_rule *r;
	char hash[65], *cwd = getcwd(NULL, 0);
	static const char *const lanes[] = { "1", "2", "4", "8" };
	size_t i;

	(void)state;
	load_ok(&e, design_example);
	assert_string_equal(e.path, "exp.yaml");
	assert_string_equal(e.dir, cwd);
	assert_string_equal(e.repo, cwd);
	assert_int_equal(e.text_len, strlen(design_example));
	assert_memory_equal(e.text, design_example, e.text_len);
	ab_sha256_hex(hash, design_example, strlen(design_example));
	assert_string_equal(e.hash, hash);

	assert_string_equal(e.name, "object-churn-batched-publication");
	assert_string_equal(e.design, "batched-publication");
	assert_string_equal(e.hypothesis, "batching removes the alloc_lock convoy at 4/8 lanes");
	assert_string_equal(e.candidate, "HEAD");
	assert_null(e.parent);
	assert_int_equal(e.exact_parent, 1);
	assert_int_equal(e.candidate_mark.line, 5);
	assert_int_equal(e.candidate_mark.column, 1);
	assert_int_equal(e.repo_mark.line, 4);
	assert_int_equal(e.parent_mark.line, 0);

	assert_string_equal(e.build.shell, "make -j2 bench");
	assert_null(e.build.argv);
	assert_int_equal(e.nartifacts, 1);
	assert_string_equal(e.artifacts[0], "bench");
	assert_null(e.artifacts[1]);
	assert_string_equal(e.benchmark.shell, "./bench {workload} {lanes}");
	assert_string_equal(e.workdir, ".");
	assert_int_equal(e.nenv, 0);
	assert_int_equal(e.checksum.kind, AB_CHECKSUM_REGEX);
	assert_string_equal(e.checksum.arg, "checksum=(\\S+)");

	assert_int_equal(e.nparams, 2);
	assert_string_equal(e.matrix[0].name, "workload");
	assert_int_equal(e.matrix[0].nvalues, 1);
	assert_string_equal(e.matrix[0].values[0], "object_churn");
	assert_string_equal(e.matrix[1].name, "lanes");
	assert_int_equal(e.matrix[1].nvalues, 4);
	assert_int_equal(ab_experiment_nrows(&e), 4);
	for (i = 0; i < 4; i++) {
		assert_string_equal(ab_experiment_row_value(&e, i, 0), "object_churn");
		assert_string_equal(ab_experiment_row_value(&e, i, 1), lanes[i]);
	}

	assert_string_equal(e.metric, "wall_ns");
	assert_int_equal(e.nmetrics, 5);
	assert_string_equal(e.scaling_param, "lanes");
	assert_int_equal(e.scaling_work, AB_SCALING_PER_LANE);
	assert_int_equal(e.pairs, 8);
	assert_int_equal(e.warmup, 1);
	assert_int_equal(e.timeout_ms, 60000);
	assert_int_equal(e.build_timeout_ms, 3600000);

	assert_int_equal(e.nrules, 2);
	r = &e.rules[0];
	assert_string_equal(r->name, "no low-lane regression");
	assert_null(r->metric);
	assert_close(r->no_regression, 0.02, 12);
	assert_true(isnan(r->faster_by));
	assert_true(isnan(r->slower_by));
	assert_true(isnan(r->max_rsd));
	assert_true(isnan(r->max_ci_width));
	assert_true(isnan(r->min_pair_wins_frac));
	assert_int_equal(r->min_pair_wins, -1);
	assert_int_equal(r->mark.line, 19);
	assert_int_equal(r->mark.column, 5);
	assert_int_equal(r->where_mark.line, 20);
	assert_int_equal(r->where_mark.column, 5);
	assert_int_equal(r->where.nterms, 1);
	assert_int_equal(r->where.terms[0].param, 1);
	assert_int_equal(r->where.terms[0].nconds, 2);
	assert_int_equal(r->where.terms[0].conds[0].op, AB_CMP_EQ);
	assert_string_equal(r->where.terms[0].conds[0].value, "1");
	assert_string_equal(r->where.terms[0].conds[1].value, "2");
	assert_true(ab_selector_match(&r->where, &e, 0));
	assert_true(ab_selector_match(&r->where, &e, 1));
	assert_false(ab_selector_match(&r->where, &e, 2));
	assert_false(ab_selector_match(&r->where, &e, 3));

	r = &e.rules[1];
	assert_string_equal(r->name, "material gain at 4/8 lanes");
	assert_close(r->faster_by, 0.05, 12);
	assert_true(isnan(r->no_regression));
	assert_int_equal(r->min_pair_wins, 7);
	assert_true(isnan(r->min_pair_wins_frac));
	assert_false(ab_selector_match(&r->where, &e, 0));
	assert_false(ab_selector_match(&r->where, &e, 1));
	assert_true(ab_selector_match(&r->where, &e, 2));
	assert_true(ab_selector_match(&r->where, &e, 3));

	ab_experiment_release(&e);
	free(cwd);
}

static void test_defaults(void **state)
{
	struct ab_experiment e;
	static const char *const names[] = { "wall_ns", "user_ns", "sys_ns", "cpu_ns", "maxrss_bytes" };
	static const char *const units[] = { "ns", "ns", "ns", "ns", "bytes" };
	char *cwd = getcwd(NULL, 0);
	size_t i;

	(void)state;
	load_ok(&e, "name: minimal\nbenchmark: ./bench\n");
	assert_string_equal(e.design, "minimal");
	assert_null(e.hypothesis);
	assert_string_equal(e.repo, cwd);
	assert_string_equal(e.candidate, "HEAD");
	assert_null(e.parent);
	assert_int_equal(e.exact_parent, 1);
	assert_null(e.build.shell);
	assert_null(e.build.argv);
	assert_null(e.artifacts);
	assert_string_equal(e.workdir, ".");
	assert_null(e.env);
	assert_int_equal(e.checksum.kind, AB_CHECKSUM_NONE);
	assert_null(e.checksum.arg);
	assert_int_equal(e.nparams, 0);
	assert_int_equal(ab_experiment_nrows(&e), 1);
	assert_string_equal(e.metric, "wall_ns");
	assert_int_equal(e.nmetrics, 5);
	for (i = 0; i < 5; i++) {
		assert_string_equal(e.metrics[i].name, names[i]);
		assert_string_equal(e.metrics[i].unit, units[i]);
		assert_int_equal(e.metrics[i].better, AB_LOWER_IS_BETTER);
		assert_int_equal(e.metrics[i].source, AB_METRIC_BUILTIN);
		assert_null(e.metrics[i].pattern);
	}
	assert_null(e.scaling_param);
	assert_int_equal(e.scaling_work, AB_SCALING_NONE);
	assert_int_equal(e.pairs, 8);
	assert_int_equal(e.warmup, 1);
	assert_int_equal(e.timeout_ms, 600000);
	assert_int_equal(e.build_timeout_ms, 3600000);
	assert_int_equal(e.nrules, 0);
	ab_experiment_release(&e);
	free(cwd);
}

static void test_argv_commands_and_values(void **state)
{
	struct ab_experiment e;

	(void)state;
	ab_test_write(tmp, "repo/.keep", "");  /* repo: must name a folder */
	load_ok(&e,
		"name: argv\n"
		"repo: repo\n"
		"candidate: feature~2\n"
		"parent: main\n"
		"exact_parent: false\n"
		"build: [make, -j2, 'CFLAGS=-O2 -g']\n"
		"benchmark: [./bench, '--lanes={lanes}', '']\n"
		"artifacts: [bench, lib/libx.so]\n"
		"workdir: out/bin\n"
		"env: {OMP_NUM_THREADS: 4, MALLOC_ARENA_MAX: '2', EMPTY: ''}\n"
		"checksum: {json: result}\n"
		"matrix: {lanes: 1}\n"
		"metrics:\n"
		"  ops: {regex: 'ops=(\\d+)', unit: ops/s, better: higher}\n"
		"  allocs: {json: allocs, better: lower}\n"
		"metric: ops\n"
		"pairs: 20\n"
		"warmup: 0\n"
		"timeout: 500ms\n"
		"build_timeout: 10m\n");
	assert_non_null(strstr(e.repo, "/repo"));
	assert_int_equal(e.repo[0], '/');
	assert_string_equal(e.candidate, "feature~2");
	assert_string_equal(e.parent, "main");
	assert_int_equal(e.parent_mark.line, 4);
	assert_int_equal(e.exact_parent, 0);
	assert_null(e.build.shell);
	assert_int_equal(e.build.argc, 3);
	assert_string_equal(e.build.argv[0], "make");
	assert_string_equal(e.build.argv[1], "-j2");
	assert_string_equal(e.build.argv[2], "CFLAGS=-O2 -g");
	assert_null(e.build.argv[3]);
	assert_int_equal(e.benchmark.argc, 3);
	assert_string_equal(e.benchmark.argv[1], "--lanes={lanes}");
	assert_string_equal(e.benchmark.argv[2], "");
	assert_null(e.benchmark.argv[3]);
	assert_int_equal(e.nartifacts, 2);
	assert_string_equal(e.artifacts[1], "lib/libx.so");
	assert_null(e.artifacts[2]);
	assert_string_equal(e.workdir, "out/bin");
	assert_int_equal(e.nenv, 3);
	assert_string_equal(e.env[0], "OMP_NUM_THREADS=4");
	assert_string_equal(e.env[1], "MALLOC_ARENA_MAX=2");
	assert_string_equal(e.env[2], "EMPTY=");
	assert_null(e.env[3]);
	assert_int_equal(e.checksum.kind, AB_CHECKSUM_JSON);
	assert_string_equal(e.checksum.arg, "result");
	assert_int_equal(e.nparams, 1);
	assert_int_equal(e.matrix[0].nvalues, 1);
	assert_string_equal(e.matrix[0].values[0], "1");
	assert_int_equal(e.nmetrics, 7);
	assert_string_equal(e.metrics[5].name, "ops");
	assert_string_equal(e.metrics[5].unit, "ops/s");
	assert_int_equal(e.metrics[5].better, AB_HIGHER_IS_BETTER);
	assert_int_equal(e.metrics[5].source, AB_METRIC_REGEX);
	assert_string_equal(e.metrics[5].pattern, "ops=(\\d+)");
	assert_int_equal(e.metrics[5].mark.line, 14);
	assert_int_equal(e.metrics[5].mark.column, 3);
	assert_string_equal(e.metrics[6].name, "allocs");
	assert_string_equal(e.metrics[6].unit, "");
	assert_int_equal(e.metrics[6].better, AB_LOWER_IS_BETTER);
	assert_int_equal(e.metrics[6].source, AB_METRIC_JSON);
	assert_string_equal(e.metrics[6].pattern, "allocs");
	assert_ptr_equal(ab_experiment_metric(&e, "allocs"), &e.metrics[6]);
	assert_ptr_equal(ab_experiment_metric(&e, "cpu_ns"), &e.metrics[3]);
	assert_null(ab_experiment_metric(&e, "nope"));
	assert_string_equal(e.metric, "ops");
	assert_int_equal(e.pairs, 20);
	assert_int_equal(e.warmup, 0);
	assert_int_equal(e.timeout_ms, 500);
	assert_int_equal(e.build_timeout_ms, 600000);
	ab_experiment_release(&e);
}

static void test_checksum_kinds(void **state)
{
	struct ab_experiment e;

	(void)state;
	load_ok(&e, HEAD "checksum: {stdout: sha256}\n");
	assert_int_equal(e.checksum.kind, AB_CHECKSUM_STDOUT_SHA256);
	assert_null(e.checksum.arg);
	ab_experiment_release(&e);

	load_ok(&e, HEAD "checksum: {file: out/result.bin}\n");
	assert_int_equal(e.checksum.kind, AB_CHECKSUM_FILE);
	assert_string_equal(e.checksum.arg, "out/result.bin");
	ab_experiment_release(&e);
}

static void test_row_order_two_parameters(void **state)
{
	struct ab_experiment e;
	static const char *const want[][2] = {
		{ "small", "1" }, { "small", "2" }, { "small", "4" },
		{ "large", "1" }, { "large", "2" }, { "large", "4" },
	};
	size_t r;

	(void)state;
	load_ok(&e, "name: x\nbenchmark: ./bench\n"
		"matrix:\n  workload: [small, large]\n  lanes: [1, 2, 4]\n");
	assert_int_equal(ab_experiment_nrows(&e), 6);
	assert_int_equal(ab_experiment_param(&e, "workload"), 0);
	assert_int_equal(ab_experiment_param(&e, "lanes"), 1);
	assert_int_equal(ab_experiment_param(&e, "lane"), -1);
	for (r = 0; r < 6; r++) {
		assert_string_equal(ab_experiment_row_value(&e, r, 0), want[r][0]);
		assert_string_equal(ab_experiment_row_value(&e, r, 1), want[r][1]);
		assert_int_equal(ab_experiment_row_value_index(&e, r, 0), r / 3);
		assert_int_equal(ab_experiment_row_value_index(&e, r, 1), r % 3);
	}
	ab_experiment_release(&e);
}

/* inputs: relative to the file's folder, or absolute; the hooks' argv
 * and placeholders; --row subsets with the scaling base row added. */
static void test_inputs_hooks_rows(void **state)
{
	struct ab_experiment e;
	const char *lanes4[] = {"lanes=4"}, *bad[] = {"lanes=3"}, *two[] = {"lanes=2", "lanes=8"};
	struct ab_command cmd;
	char *want = ab_path_absolute(tmp, "data/corpus.txt");

	(void)state;
	load_ok(&e, LANES "inputs: [data/corpus.txt, /abs/dict]\nprepare: [sh, -c, 'echo {lanes}']\n"
		"scaling: {parameter: lanes, work: total}\n"
		"accept:\n  - {name: s, where: {lanes: 4}, scaling_not_worse: 10%}\n");
	assert_int_equal(e.ninputs, 2);
	assert_string_equal(e.inputs[0], want);
	assert_string_equal(e.inputs[1], "/abs/dict");
	assert_int_equal(ab_command_expand(&cmd, &e.prepare, &e, 2), 0);
	assert_string_equal(cmd.argv[2], "echo 4");
	ab_command_release(&cmd);
	assert_null(e.cleanup.shell);
	assert_null(e.cleanup.argv);
	assert_int_equal(ab_experiment_select_rows(&e, bad, 1), AB_EINVALID);
	assert_string_equal(ab_error_last(), "--row lanes=3: '3' is not a value of lanes; its values are: "
			    "1, 2, 4, 8");
	assert_null(e.row_subset);
	assert_int_equal(ab_experiment_select_rows(&e, lanes4, 1), 0);
	assert_int_equal(ab_experiment_row_selected(&e, 0), 1);  /* lanes=1: the base row, added */
	assert_int_equal(ab_experiment_row_selected(&e, 1), 0);
	assert_int_equal(ab_experiment_row_selected(&e, 2), 1);
	assert_int_equal(ab_experiment_row_selected(&e, 3), 0);
	assert_string_equal(e.subset_added[0], "lanes=1");
	assert_null(e.subset_added[1]);
	assert_int_equal(ab_experiment_scaling_base(&e, 3), 0);
	ab_experiment_release(&e);
	/* lanes=2: no rule with a scaling predicate selects it, so no base row is added */
	load_ok(&e, LANES "scaling: {parameter: lanes, work: total}\n"
		"accept:\n  - {name: s, where: {lanes: 4}, scaling_not_worse: 10%}\n"
		"  - {name: r, where: {lanes: 2}, no_regression: 5%}\n");
	assert_int_equal(ab_experiment_select_rows(&e, two, 1), 0);
	assert_int_equal(ab_experiment_row_selected(&e, 0), 0);
	assert_null(e.subset_added);
	ab_experiment_release(&e);
	/* without a scaling predicate nothing is added; one parameter's values OR */
	load_ok(&e, LANES);
	assert_int_equal(ab_experiment_select_rows(&e, two, 2), 0);
	assert_int_equal(ab_experiment_row_selected(&e, 1) + ab_experiment_row_selected(&e, 3), 2);
	assert_int_equal(ab_experiment_row_selected(&e, 0) + ab_experiment_row_selected(&e, 2), 0);
	assert_null(e.subset_added);
	assert_int_equal(ab_experiment_scaling_base(&e, 3), -1);
	ab_experiment_release(&e);
	free(want);
}

/* The shards of run --shard K/N: every row on exactly one shard, a
 * scaling predicate's rows with their base row, the fewest rows first. */
static void test_shards(void **state)
{
	struct ab_experiment e;
	size_t units = 0, r, k, seen;

	(void)state;
	load_ok(&e, LANES "scaling: {parameter: lanes, work: total}\n"
		"accept:\n  - {name: s, where: {lanes: 8}, scaling_not_worse: 10%}\n");
	/* units {lanes=1, lanes=8}, {lanes=2}, {lanes=4}: shard 1 takes the pair, 2 the rest */
	assert_int_equal(ab_shards_of(&e, 0, 2, &units), 1);
	assert_int_equal(units, 3);
	assert_int_equal(ab_shards_of(&e, 3, 2, NULL), 1);
	assert_int_equal(ab_shards_of(&e, 1, 2, NULL), 2);
	assert_int_equal(ab_shards_of(&e, 2, 2, NULL), 2);
	for (k = 1; k <= 3; k++) {  /* 3 ways: 2, 1 and 1 rows */
		for (r = 0, seen = 0; r < 4; r++)
			seen += ab_shards_of(&e, r, 3, NULL) == k;
		assert_int_equal(seen, k == 1 ? 2 : 1);
	}
	assert_int_equal(ab_shards_of(&e, 2, 3, NULL), 3);
	assert_int_equal(ab_shards_select(&e, 4, 4), AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), "make 3 units"));
	assert_int_equal(ab_shards_select(&e, 3, 2), AB_EINVALID);
	assert_int_equal(ab_shards_select(&e, 2, 2), 0);
	assert_int_equal(e.shard_index * 10 + e.shard_count, 22);
	assert_int_equal(ab_experiment_row_selected(&e, 0) + ab_experiment_row_selected(&e, 3), 0);
	assert_int_equal(ab_experiment_row_selected(&e, 1) + ab_experiment_row_selected(&e, 2), 2);
	/* a shard is a subset already: --row does not combine with it */
	assert_int_equal(ab_shards_select(&e, 1, 2), AB_EINVALID);
	ab_experiment_release(&e);
	/* without scaling every row is a unit: round the shards */
	load_ok(&e, LANES);
	for (r = 0; r < 4; r++)
		assert_int_equal(ab_shards_of(&e, r, 4, NULL), r + 1);
	ab_experiment_release(&e);
}

/* Which of the 8 rows (workload small/large x lanes 1,2,4,8) rule i
 * selects, as a string of 0/1. */
static void assert_selects(const struct ab_experiment *e, size_t rule, const char *want)
{
	char got[9];
	size_t r;

	for (r = 0; r < 8; r++)
		got[r] = ab_selector_match(&e->rules[rule].where, e, r) ? '1' : '0';
	got[8] = '\0';
	assert_string_equal(got, want);
}

static void test_selectors(void **state)
{
	struct ab_experiment e;

	(void)state;
	load_ok(&e,
		"name: x\n"
		"benchmark: ./bench {workload} {lanes}\n"
		"matrix: {workload: [small, large], lanes: [1, 2, 4, 8]}\n"
		"accept:\n"
		"  - {name: all, faster_by: 1%}\n"
		"  - {name: ge4, where: {lanes: \">=4\"}, faster_by: 1%}\n"
		"  - {name: gt4, where: {lanes: \"> 4\"}, faster_by: 1%}\n"
		"  - {name: lt2 or 8 large, where: {lanes: [\"<2\", 8], workload: large}, faster_by: 1%}\n"
		"  - {name: le2, where: {lanes: \"<=2\"}, faster_by: 1%}\n"
		"  - {name: numeric eq, where: {lanes: \"==4.0\"}, faster_by: 1%}\n"
		"  - {name: plain eq, where: {lanes: 2.0, workload: small}, faster_by: 1%}\n"
		"  - {name: empty where, where: {}, slower_by: 1%}\n");
	assert_int_equal(e.nrules, 8);
	assert_selects(&e, 0, "11111111");
	assert_selects(&e, 1, "00110011");
	assert_selects(&e, 2, "00010001");
	assert_selects(&e, 3, "00001001");
	assert_selects(&e, 4, "11001100");
	assert_selects(&e, 5, "00100010");
	assert_selects(&e, 6, "01000000");
	assert_selects(&e, 7, "11111111");
	assert_int_equal(e.rules[1].where.terms[0].conds[0].op, AB_CMP_GE);
	assert_string_equal(e.rules[1].where.terms[0].conds[0].value, "4");
	assert_int_equal(e.rules[2].where.terms[0].conds[0].op, AB_CMP_GT);
	assert_string_equal(e.rules[2].where.terms[0].conds[0].value, "4");
	assert_int_equal(e.rules[3].where.nterms, 2);
	assert_int_equal(e.rules[3].where.terms[0].conds[0].op, AB_CMP_LT);
	assert_int_equal(e.rules[3].where.terms[1].param, 0);
	assert_int_equal(e.rules[4].where.terms[0].conds[0].op, AB_CMP_LE);
	assert_int_equal(e.rules[5].where.terms[0].conds[0].op, AB_CMP_EQ);
	assert_string_equal(e.rules[5].where.terms[0].conds[0].value, "4.0");
	/* a rule without where: takes its marks from the rule */
	assert_int_equal(e.rules[0].where.nterms, 0);
	assert_int_equal(e.rules[0].where_mark.line, e.rules[0].mark.line);
	assert_close(e.rules[7].slower_by, 0.01, 12);
	ab_experiment_release(&e);
}

/* profile: as a mapping, as true, and absent (docs/profiles.md). */
static void test_profile_key(void **state)
{
	struct ab_experiment e;
	size_t r;

	(void)state;
	load_ok(&e, LANES "profile: {rows: {lanes: [\">=4\"]}, samples: 2, event: cycles:u}\n");
	assert_int_equal(e.profile, 1);
	assert_int_equal(e.profile_samples, 2);
	assert_string_equal(e.profile_event, "cycles:u");
	for (r = 0; r < 4; r++)
		assert_int_equal(ab_selector_match(&e.profile_rows, &e, r), r >= 2);
	ab_experiment_release(&e);
	load_ok(&e, LANES "profile: true\n");
	assert_int_equal(e.profile, 1);
	assert_int_equal(e.profile_samples, 3);
	assert_string_equal(e.profile_event, "cpu-clock");
	assert_int_equal(e.profile_rows.nterms, 0);
	ab_experiment_release(&e);
	load_ok(&e, LANES);
	assert_int_equal(e.profile, 0);
	ab_experiment_release(&e);
}

static void test_contention_key(void **state)
{
	struct ab_experiment e;

	(void)state;
	load_ok(&e, HEAD);
	assert_true(e.contention.max_cpu_wait == 0.10);
	assert_int_equal(e.contention.reruns, 0);
	assert_int_equal(ab_experiment_reruns(&e), 0);  /* the flag only */
	assert_int_equal(e.contention.exhausted, AB_CONTENTION_KEEP);
	assert_true(e.contention.quiet_cpus == 0);
	ab_experiment_release(&e);
	load_ok(&e, HEAD "pairs: 9\ncontention: {max_cpu_wait: 5%, reruns: auto, when_exhausted: inconclusive, "
		"quiet: {below: 0.25, wait: 2m}}\n");
	assert_true(e.contention.max_cpu_wait == 0.05);
	assert_int_equal(ab_experiment_reruns(&e), 5);
	assert_int_equal(e.contention.exhausted, AB_CONTENTION_INCONCLUSIVE);
	assert_true(e.contention.quiet_cpus == 0.25);
	assert_int_equal(e.contention.quiet_wait_ms, 120000);
	{
		/* what a run stores comes back on resume */
		json_t *j = ab_experiment_contention_json(&e);
		struct ab_experiment f;
		load_ok(&f, HEAD "contention: {reruns: 3}\n");
		assert_int_equal(ab_experiment_reruns(&f), 3);
		assert_int_equal(ab_experiment_contention_restore(&f, j), 0);
		assert_int_equal(ab_experiment_reruns(&f), 5);
		assert_true(f.contention.quiet_cpus == 0.25);
		assert_int_equal(f.contention.exhausted, AB_CONTENTION_INCONCLUSIVE);
		json_object_set_new(j, "max_cpu_wait", json_real(2));
		assert_int_equal(ab_experiment_contention_restore(&f, j), AB_EINVALID);
		ab_experiment_release(&f);
		json_decref(j);
	}
	ab_experiment_release(&e);
}

static void test_project_key(void **state)
{
	struct ab_experiment e;

	(void)state;
	load_ok(&e, HEAD "project: github.com/team/lib\n");
	assert_string_equal(e.project, "github.com/team/lib");
	ab_experiment_release(&e);
	load_ok(&e, HEAD);
	assert_null(e.project);  /* the repository's */
	ab_experiment_release(&e);
}

/* env.keep: a list of PG* names; a `keep:` with a string is a variable */
static void test_env_keep(void **state)
{
	struct ab_experiment e;

	(void)state;
	load_ok(&e, HEAD "env: {keep: [PGPASSWORD, PGHOST], OMP: '1'}\n");
	assert_non_null(e.env_keep);
	assert_string_equal(e.env_keep[0], "PGPASSWORD");
	assert_string_equal(e.env_keep[1], "PGHOST");
	assert_null(e.env_keep[2]);
	assert_int_equal(e.nenv, 1);
	assert_string_equal(e.env[0], "OMP=1");
	ab_experiment_release(&e);
	load_ok(&e, HEAD "env: {keep: 'x'}\n");
	assert_null(e.env_keep);
	assert_string_equal(e.env[0], "keep=x");
	ab_experiment_release(&e);
	assert_non_null(strstr(load_bytes(HEAD "env: {keep: [HOME]}\n", strlen(HEAD) + 20, AB_EINVALID),
			       "env.keep[0]: 'HOME': only the PG* variables"));
}

static void test_rule_options(void **state)
{
	struct ab_experiment e;
	const struct ab_rule *r;

	(void)state;
	load_ok(&e, LANES
		"metrics: {ops: {json: ops, better: higher}}\n"
		"accept:\n"
		"  - name: throughput\n"
		"    metric: ops\n"
		"    slower_by: 0.5%\n"
		"    min_pair_wins: 90%\n"
		"    max_rsd: 3%\n"
		"    max_ci_width: 10%\n");
	r = &e.rules[0];
	assert_string_equal(r->metric, "ops");
	assert_close(r->slower_by, 0.005, 12);
	assert_int_equal(r->min_pair_wins, -1);
	assert_close(r->min_pair_wins_frac, 0.9, 12);
	assert_close(r->max_rsd, 0.03, 12);
	assert_close(r->max_ci_width, 0.10, 12);
	ab_experiment_release(&e);
}

/* Anchors and aliases are resolved. */
static void test_aliases(void **state)
{
	struct ab_experiment e;

	(void)state;
	load_ok(&e, "name: x\nbenchmark: ./bench {lanes}\n"
		"matrix: {lanes: &small [1, 2]}\n"
		"accept:\n  - {name: r, where: {lanes: *small}, faster_by: 5%}\n");
	assert_int_equal(e.rules[0].where.terms[0].nconds, 2);
	assert_string_equal(e.rules[0].where.terms[0].conds[1].value, "2");
	ab_experiment_release(&e);
}

static void test_parse_from_memory(void **state)
{
	struct ab_experiment e;
	static const char text[] = "name: mem\nbenchmark: ./bench\nrepo: ../repo\n";
	char *cwd = getcwd(NULL, 0), *want_dir, *want_repo;

	(void)state;
	want_dir = ab_xasprintf("%s/sub/dir", cwd);
	want_repo = ab_xasprintf("%s/sub/repo", cwd);
	assert_int_equal(ab_experiment_parse(&e, "sub/dir/e.yaml", text, strlen(text)), 0);
	assert_string_equal(e.path, "sub/dir/e.yaml");
	assert_string_equal(e.dir, want_dir);
	assert_string_equal(e.repo, want_repo);
	ab_experiment_release(&e);

	/* the path as given appears in messages */
	assert_int_equal(ab_experiment_parse(&e, "/abs/x.yaml", "name: 1\n", 8), AB_EINVALID);
	assert_string_equal(ab_error_last(), "/abs/x.yaml:1:1: benchmark: required key is missing");
	assert_string_equal(e.dir, "/abs");
	ab_experiment_release(&e);
	free(want_dir);
	free(want_repo);
	free(cwd);
}

/* sides: two commands, each with its name and its own command; the
 * benchmark is not required, and the side command answers for each. */
static void test_sides(void **state)
{
	struct ab_experiment e;

	(void)state;
	load_ok(&e, "name: engines\nsides:\n  a: {name: zig-js, command: './zig {n}'}\n"
		"  b: {name: jsc, command: [jsc, '{n}.js']}\nmatrix: {n: [1, 2]}\n");
	assert_int_equal(e.has_sides, 1);
	assert_string_equal(e.sides[0].name, "zig-js");
	assert_string_equal(e.sides[1].name, "jsc");
	assert_string_equal(ab_experiment_side_command(&e, 0)->shell, "./zig {n}");
	assert_int_equal(ab_experiment_side_command(&e, 1)->argc, 2);
	assert_string_equal(ab_experiment_side_command(&e, 1)->argv[1], "{n}.js");
	assert_null(e.benchmark.shell);
	ab_experiment_release(&e);
	load_ok(&e, LANES);
	assert_int_equal(e.has_sides, 0);
	assert_ptr_equal(ab_experiment_side_command(&e, 1), &e.benchmark);
	ab_experiment_release(&e);
}

static void test_command_expand(void **state)
{
	struct ab_experiment e;
	struct ab_command out, bad = { 0 };
	char *argv[] = { "./bench", "--n={lanes}", "{{lanes}}", "{nope}", NULL };

	(void)state;
	load_ok(&e, "name: x\n"
		"benchmark: ./bench {workload} --n={lanes} '{{x}}' }} {{ awk '{print $1}' {lanes}\n"
		"matrix: {workload: [small, large], lanes: [1, 4]}\n");
	assert_int_equal(ab_command_expand(&out, &e.benchmark, &e, 3), 0);
	assert_string_equal(out.shell,
			    "./bench large --n=4 '{x}' } { awk '{print $1}' 4");
	assert_null(out.argv);
	ab_command_release(&out);
	assert_null(out.shell);

	assert_int_equal(ab_command_expand(&out, &e.benchmark, &e, 8), AB_EINVALID);

	/* argv: each element expanded; an unknown name is an error naming it */
	bad.argv = argv;
	bad.argc = 3;
	assert_int_equal(ab_command_expand(&out, &bad, &e, 1), 0);
	assert_int_equal(out.argc, 3);
	assert_string_equal(out.argv[0], "./bench");
	assert_string_equal(out.argv[1], "--n=4");
	assert_string_equal(out.argv[2], "{lanes}");
	assert_null(out.argv[3]);
	ab_command_release(&out);
	bad.argc = 4;
	assert_int_equal(ab_command_expand(&out, &bad, &e, 0), AB_EINVALID);
	assert_string_equal(ab_error_last(), "unknown placeholder '{nope}' in '{nope}': "
			    "no matrix parameter has that name");
	assert_null(out.argv);
	ab_experiment_release(&e);
}

static void test_command_display(void **state)
{
	char *argv[] = { "./bench", "--n=4", "a b", "it's", "", "x=1,y:2@%+-_/.", "$HOME", NULL };
	struct ab_command argv_cmd = { NULL, argv, 7 }, shell_cmd = { "make -j2 'x y'", NULL, 0 };
	char *s;

	(void)state;
	s = ab_command_display(&argv_cmd);
	assert_string_equal(s, "./bench --n=4 'a b' 'it'\\''s' '' x=1,y:2@%+-_/. '$HOME'");
	free(s);
	s = ab_command_display(&shell_cmd);
	assert_string_equal(s, "make -j2 'x y'");
	free(s);
}

/* The same struct can be loaded again after release, also after an error. */
static void test_release_and_reuse(void **state)
{
	struct ab_experiment e;

	(void)state;
	ab_test_write(tmp, "exp.yaml", LANES "accept:\n  - {name: r, where: {lanes: [1, 99]}, faster_by: 5%}\n");
	assert_int_equal(ab_experiment_load(&e, "exp.yaml"), AB_EINVALID);
	ab_experiment_release(&e);
	assert_null(e.rules);
	assert_int_equal(e.nrules, 0);
	load_ok(&e, LANES);
	assert_int_equal(e.nparams, 1);
	ab_experiment_release(&e);
}

int main(void)
{
	static const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_bad_binary_garbage),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_recursive_alias),
		cmocka_unit_test(test_alias_fanout),
		cmocka_unit_test(test_design_example),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_argv_commands_and_values),
		cmocka_unit_test(test_checksum_kinds),
		cmocka_unit_test(test_row_order_two_parameters),
		cmocka_unit_test(test_inputs_hooks_rows),
		cmocka_unit_test(test_selectors),
		cmocka_unit_test(test_sides),
		cmocka_unit_test(test_shards),
		cmocka_unit_test(test_profile_key),
		cmocka_unit_test(test_project_key),
		cmocka_unit_test(test_contention_key),
		cmocka_unit_test(test_env_keep),
		cmocka_unit_test(test_rule_options),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_parse_from_memory),
		cmocka_unit_test(test_command_expand),
		cmocka_unit_test(test_command_display),
		cmocka_unit_test(test_release_and_reuse),
	};
	size_t nbad = sizeof(bad_cases) / sizeof(bad_cases[0]);
	size_t nfixed = sizeof(fixed) / sizeof(fixed[0]), i;
	struct CMUnitTest *tests = ab_xcalloc(nbad + nfixed, sizeof(*tests));
	int failed;

	for (i = 0; i < nbad; i++) {
		tests[i].name = bad_cases[i].name;
		tests[i].test_func = test_bad_file;
		tests[i].initial_state = (void *)&bad_cases[i];
	}
	memcpy(tests + nbad, fixed, sizeof(fixed));
	failed = _cmocka_run_group_tests("config", tests, nbad + nfixed,
					 group_setup, group_teardown);
	free(tests);
	return failed;
}
