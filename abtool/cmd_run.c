/* cmd_run.c - `abtool run EXP.yaml`: the experiment, end to end. Builds
 * both sides, runs the order-balanced plan, decides the verdict against
 * the experiment's rules, stores everything, prints the Markdown report and
 * exits with the verdict's code (0 accepted, 1 rejected, 2 inconclusive,
 * 3 invalid). */
#include "cmd.h"
#include "error.h"
#include "runner.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Earlier verdicts of the same comparison, before measuring again, so
 * that re-running until a pass is visible. */
static void print_memory(struct ab_store *store, const struct ab_run *run)
{
	json_t *earlier = NULL, *e;
	size_t i;

	if (ab_store_same_comparison(store, run->exp->hash, run->revs.parent_hex, run->revs.candidate_hex,
				     run->meta.id, &earlier) == 0 && json_array_size(earlier)) {
		fprintf(stderr, "abtool: this comparison (same experiment file and commits) was run %zu "
			"time%s before:", json_array_size(earlier), json_array_size(earlier) == 1 ? "" : "s");
		json_array_foreach(earlier, i, e)
			fprintf(stderr, "%s run %lld %s", i ? "," : "",
				(long long)json_integer_value(json_object_get(e, "id")),
				json_string_value(json_object_get(e, "verdict")));
		fputc('\n', stderr);
	}
	json_decref(earlier);
}

/* Words that say something about a design: from its name and hypothesis,
 * at least four letters, without the vocabulary every experiment shares. */
static char **design_words(const struct ab_experiment *exp)
{
	static const char *const common[] = {
		"lane", "lanes", "faster", "slower", "regression", "gain", "with", "from", "that", "this",
		"than", "when", "into", "work", "change", "candidate", "parent", "more", "less", "does",
		"time", "without", "removes", "avoid", "avoids", "make", "makes", "each", "they", "them",
		"then", "instead", "after", "before", "over", "under", "about", "which", "while", "there",
		"their", "these", "those", "only", "also", "some", "same", "just", "very", "much", "many",
		"most", "such", "both", "other", "where", "what", "were", "have", "been", "being", "will",
		"would", "could", "should", "your", "because", "through", "between", "per", "uses", "using",
	};
	char *text = ab_xasprintf("%s %s", exp->design, exp->hypothesis ? exp->hypothesis : "");
	char **words = NULL, *w, *save = NULL, *p;
	size_t i, n = 0;

	for (p = text; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      (unsigned char)*p >= 0x80))
			*p = ' ';
	for (w = strtok_r(text, " ", &save); w && n < 12; w = strtok_r(NULL, " ", &save)) {
		int skip = strlen(w) < 4;
		for (i = 0; !skip && i < sizeof(common) / sizeof(common[0]); i++)
			skip = !strcasecmp(w, common[i]);
		for (i = 0; !skip && i < n; i++)
			skip = !strcasecmp(w, words[i]);
		if (!skip) {
			ab_strv_push(&words, ab_xstrdup(w));
			n++;
		}
	}
	free(text);
	return words;
}

/*
 * The store as memory before measuring: rejected runs of this design and
 * of designs whose text is close. With `history: {block_rejected: true}`,
 * or the store's setting block_rejected (abtool config), a design whose
 * standing is rejected runs only with new evidence.
 * Returns 0 to go on, or an exit code.
 */
static int consult_memory(struct ab_store *store, const struct ab_experiment *exp,
			  const char *new_evidence, int quiet)
{
	char **words = design_words(exp);
	json_t *memory = NULL, *designs = NULL, *m, *latest = NULL;
	size_t i;
	int rc = 0, by_store = !exp->block_rejected && cmd_store_flag_true(store, "block_rejected");

	if (ab_store_rejected_memory(store, exp->design, words, &memory) == 0 && !quiet) {
		json_array_foreach(memory, i, m)
			fprintf(stderr, "abtool: %s '%s' was rejected in run %lld (%s, %s): %s\n",
				json_is_true(json_object_get(m, "same_design")) ? "this design" : "a similar design",
				json_string_value(json_object_get(m, "design")),
				(long long)json_integer_value(json_object_get(m, "id")),
				json_string_value(json_object_get(m, "created_at")),
				json_string_value(json_object_get(m, "experiment")),
				json_string_value(json_object_get(m, "reason")));
	}
	if ((exp->block_rejected || by_store) && ab_store_designs(store, 0, &designs) == 0) {
		json_array_foreach(designs, i, m)
			if (!strcmp(json_string_value(json_object_get(m, "design")), exp->design))
				latest = m;
		if (latest && json_is_string(json_object_get(latest, "latest_verdict")) &&
		    !strcmp(json_string_value(json_object_get(latest, "latest_verdict")), "rejected") &&
		    !new_evidence) {
			json_t *reasons = json_object_get(latest, "latest_reasons");
			fprintf(stderr, "abtool: design '%s' was rejected in run %lld (%s)%s%s; %s: give "
				"--new-evidence \"what changed since\" to measure it again\n", exp->design,
				(long long)json_integer_value(json_object_get(latest, "latest_run")),
				json_string_value(json_object_get(latest, "latest_created_at")),
				json_array_size(reasons) ? ": " : "",
				json_array_size(reasons) ? json_string_value(json_array_get(reasons, 0)) : "",
				by_store ? "this store blocks rejected designs (abtool config block_rejected true)"
					 : "this experiment blocks rejected designs (history: {block_rejected: true})");
			rc = AB_EXIT_USAGE;
		}
	}
	json_decref(memory);
	json_decref(designs);
	ab_strv_free(words);
	return rc;
}

/* 1 when s is empty or only white space. */
static int blank(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return !*s;
}

/* 1 when s holds a control character (a newline, an escape, ...). */
static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

static int parse_uint(const char *cmd, const char *flag, const char *text, long long max,
		      long long *out)
{
	int64_t v;

	if (ab_parse_int64(&v, text) < 0 || v < 1 || v > max)
		return cmd_usage(cmd, "%s: expected an integer from 1 to %lld, got '%s'", flag, max, text);
	*out = v;
	return 0;
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"candidate", required_argument, NULL, 'c'},
		{"parent", required_argument, NULL, 'P'},
		{"pairs", required_argument, NULL, 'p'},
		{"seed", required_argument, NULL, 's'},
		{"store", required_argument, NULL, 'S'},
		{"new-evidence", required_argument, NULL, 'N'},
		{"design", required_argument, NULL, 'D'},
		{"dependency", required_argument, NULL, 'd'},
		{"overlay-from", required_argument, NULL, 'O'},
		{"help", no_argument, NULL, 'h'},
		CMD_OUTPUT_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	struct ab_run_options opt;
	struct cmd_output out;
	struct ab_experiment exp;
	struct ab_store *store = NULL;
	struct ab_run run;
	struct ab_analysis analysis;
	struct ab_run_events events;
	struct cmd_dep_pins pins = {0};
	const char *store_flag = NULL, *new_evidence = NULL;
	json_t *doc = NULL;
	long long v = 0;
	int c, err, rc;

	memset(&opt, 0, sizeof(opt));
	cmd_output_init(&out);
	memset(&run, 0, sizeof(run));
	memset(&analysis, 0, sizeof(analysis));
	optind = 1;
	while ((c = getopt_long(argc, argv, "qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			opt.candidate = optarg;
			break;
		case 'P':
			opt.parent = optarg;
			break;
		case 'p':
			if (parse_uint("run", "--pairs", optarg, 100000, &v)) {
				rc = AB_EXIT_USAGE;
				goto out_pins;
			}
			opt.pairs = (int)v;
			break;
		case 's': {
			int64_t seed;
			if (ab_parse_int64(&seed, optarg) < 0 || seed < 0) {
				rc = cmd_usage("run", "--seed: expected a non-negative integer, got '%s'", optarg);
				goto out_pins;
			}
			opt.have_seed = 1;
			opt.seed = (uint64_t)seed;
			break;
		}
		case 'S':
			store_flag = optarg;
			break;
		case 'N':
			if (blank(optarg)) {  /* refused now, not after the run is stored */
				rc = cmd_usage("run", "--new-evidence: say what changed since the rejection");
				goto out_pins;
			}
			new_evidence = optarg;
			break;
		case 'D':
			if (blank(optarg)) {
				rc = cmd_usage("run", "--design: give the design's name (for a gate, the pull "
					       "request or branch)");
				goto out_pins;
			}
			if (has_control(optarg)) {
				rc = cmd_usage("run", "--design: a name on one line, without control characters");
				goto out_pins;
			}
			opt.design = optarg;
			break;
		case 'd':
		case 'O':
			if (cmd_pin_option(&pins, &opt, "run", c, optarg) < 0) {
				rc = AB_EXIT_USAGE;
				goto out_pins;
			}
			break;
		case 'h':
			rc = cmd_help("run");
			goto out_pins;
		default:
			switch (cmd_output_option(&out, "run", c, optarg)) {
			case 1:
				break;
			case 0:
				rc = cmd_bad_option("run");
				goto out_pins;
			default:
				rc = AB_EXIT_USAGE;
				goto out_pins;
			}
			break;
		}
	}
	if (optind != argc - 1) {
		rc = cmd_usage("run", "expected one experiment file");
		goto out_pins;
	}
	out.progress = !out.quiet && isatty(STDERR_FILENO);
	opt.dep_pins = pins.v;
	opt.ndep_pins = pins.n;

	if ((err = ab_experiment_load(&exp, argv[optind])) < 0) {
		rc = cmd_fail(err);
		ab_experiment_release(&exp);
		goto out_pins;
	}
	if (opt.design) {  /* before the memory is consulted under the design's name */
		free(exp.design);
		exp.design = ab_xstrdup(opt.design);
	}
	cmd_install_signals();
	events = cmd_run_events(&out);
	out.run = &run;
	/* The store lives with the experiment's repository. */
	if ((err = cmd_open_store(&store, store_flag, exp.repo)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if ((rc = consult_memory(store, &exp, new_evidence, out.quiet)) != 0)
		goto out;
	err = ab_run_start(&run, &exp, store, &opt, &events);
	if (err == 0 && new_evidence &&
	    (err = ab_store_note_add(store, run.meta.id, NULL, new_evidence, NULL)) == 0 && !out.quiet)
		fprintf(stderr, "abtool: the new evidence is stored as a note on run %lld\n",
			(long long)run.meta.id);
	if (err == 0 && !out.quiet) {
		print_memory(store, &run);
		cmd_print_calibration(stderr, store, &exp);
	}
	if (err == 0)
		err = ab_run_samples(&run);
	rc = cmd_finish_run(&out, &run, err, &analysis, &doc);
out:
	json_decref(doc);
	ab_analysis_release(&analysis);
	ab_run_release(&run);
	ab_store_close(store);
	ab_experiment_release(&exp);
out_pins:
	cmd_dep_pins_release(&pins);
	return rc;
}
