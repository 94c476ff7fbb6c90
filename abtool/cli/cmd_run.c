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
				     run->inputs_hash, run->meta.id, &earlier) == 0 && json_array_size(earlier)) {
		char *list = ab_xstrdup(""), *next;

		json_array_foreach(earlier, i, e) {
			next = ab_xasprintf("%s%s run %lld %s", list, i ? "," : "",
					    (long long)json_integer_value(json_object_get(e, "id")),
					    json_string_value(json_object_get(e, "verdict")));
			free(list);
			list = next;
		}
		cmd_notice("this comparison (same experiment file, commits%s) was run %zu time%s before:%s",
			   run->inputs ? " and inputs" : "", json_array_size(earlier),
			   json_array_size(earlier) == 1 ? "" : "s", list);
		free(list);
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
		json_array_foreach(memory, i, m) {
			/* at most two lines on a terminal: the reason is cut, show has it whole */
			char *head = ab_xasprintf("%s '%s' was rejected in run %lld (%s, %s; abtool show %lld): ",
						  json_is_true(json_object_get(m, "same_design")) ? "this design"
												   : "a similar design",
						  json_string_value(json_object_get(m, "design")),
						  (long long)json_integer_value(json_object_get(m, "id")),
						  json_string_value(json_object_get(m, "created_at")),
						  json_string_value(json_object_get(m, "experiment")),
						  (long long)json_integer_value(json_object_get(m, "id")));
			char *why = ab_xasprintf("%s%s", json_is_true(json_object_get(m, "identical_artifacts"))
						 ? "identical artifacts; " : "",
						 json_string_value(json_object_get(m, "reason")));
			char *text = cmd_notice_fit(head, why, 2);

			cmd_notice("%s", text);
			free(text);
			free(why);
			free(head);
		}
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

/* The options of run beyond the shared groups' (cmd_args). */
struct run_ctx {
	const char *new_evidence;
	int64_t evidence_run;  /* --new-evidence run:N: run N, whose profile is the evidence; or 0 */
};

static int run_option(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	struct run_ctx *ctx = args->ctx;

	if (o->code == 'K') {
		int k = 0, n = 0, used = 0;

		if (sscanf(arg, "%d/%d%n", &k, &n, &used) != 2 || arg[used] || n < 1 || n > 1000 ||
		    k < 1 || k > n)
			return cmd_usage("run", "--shard: expected K/N, shard K of N (1 <= K <= N <= 1000), "
					 "got '%s'", arg);
		args->run.shard_index = k;
		args->run.shard_count = n;
		return CMD_GO_ON;
	}
	if (o->code == 'G') {
		if (blank(arg) || has_control(arg))
			return cmd_usage("run", "--group: give the shards' group a name on one line (e.g. the "
					 "CI pipeline's id)");
		args->run.group = arg;
		return CMD_GO_ON;
	}
	if (o->code == 'N') {
		if (blank(arg))  /* refused now, not after the run is stored */
			return cmd_usage("run", "--new-evidence: say what changed since the rejection");
		ctx->new_evidence = arg;
		return CMD_GO_ON;
	}
	if (blank(arg))
		return cmd_usage("run", "--design: give the design's name (for a gate, the pull request or "
				 "branch)");
	if (has_control(arg))
		return cmd_usage("run", "--design: a name on one line, without control characters");
	args->run.design = arg;
	return CMD_GO_ON;
}

const struct cmd_option cmd_run_options[] = {
	CMD_REVISION_OPTIONS,
	CMD_PLAN_OPTIONS(1, "pairs per row instead of the file's pairs: (a fixed plan)", NULL),
	CMD_MAX_PAIRS_OPTION,
	CMD_STORE_OPTION,
	{"new-evidence", 0, "TEXT", "what changed since the design was rejected: lets a blocked design "
	 "run, stored as a note; run:N links run N's profile as the evidence", NULL, CMD_OWN, 'N', 0, 0},
	{"design", 0, "NAME", "the design the run is recorded under instead of the file's design: (a "
	 "gate's pull request or branch)", NULL, CMD_OWN, 'D', 0, 0},
	CMD_PIN_OPTIONS,
	CMD_ROW_OPTION,
	{"shard", 0, "K/N", "measure shard K of N of the matrix's rows (a partial run; rows a scaling "
	 "predicate pairs stay together); needs --group", NULL, CMD_OWN, 'K', 0, 0},
	{"group", 0, "ID", "the group the shards are stored under; 'abtool verdict --group ID' "
	 "decides them together", NULL, CMD_OWN, 'G', 0, 0},
	CMD_HELP_OPTION,
	CMD_OUTPUT_OPTIONS('q', 'v'),
	CMD_VIEW_OPTIONS,
	CMD_OPTIONS_END,
};

/* --design, before the memory is consulted under the design's name. */
static int loaded(struct cmd_measure *m)
{
	if (m->args->run.design) {
		free(m->exp.design);
		m->exp.design = ab_xstrdup(m->args->run.design);
	}
	return 0;
}

/* --new-evidence run:N names a profiled run of this store (docs/profiles.md):
 * it must exist and have a profile. Returns 0 or an exit code. */
static int evidence_run(struct ab_store *store, struct run_ctx *ctx)
{
	struct ab_store_profile *v = NULL;
	size_t n = 0, i, ok = 0;
	int64_t id;
	int err;

	if (!ctx->new_evidence || strncmp(ctx->new_evidence, "run:", 4))
		return 0;
	if ((err = ab_store_run_resolve(store, ctx->new_evidence + 4, &id)) < 0)
		return err == AB_ENOTFOUND || err == AB_EINVALID
		       ? cmd_usage("run", "--new-evidence %s: %s", ctx->new_evidence, ab_error_last())
		       : cmd_fail(err);
	if ((err = ab_store_profiles_get(store, id, &v, &n)) < 0)
		return cmd_fail(err);
	for (i = 0; i < n; i++)
		ok += (size_t)v[i].ok;
	ab_store_profiles_free(v, n);
	if (!ok)
		return cmd_usage("run", "--new-evidence %s: run %lld has no profile; take one with 'abtool "
				 "profile %lld', or say in words what changed", ctx->new_evidence, (long long)id,
				 (long long)id);
	ctx->evidence_run = id;
	return 0;
}

/* The store as memory before measuring (consult_memory). */
static int opened(struct cmd_measure *m)
{
	struct run_ctx *ctx = m->ctx;
	int rc;

	if ((rc = evidence_run(m->store, ctx)) != 0)
		return rc;
	if (m->exp.has_sides)  /* two commands are no design: nothing to remember or block */
		return 0;
	return consult_memory(m->store, &m->exp, ctx->new_evidence, m->args->out.quiet);
}

/* The new evidence as a note on the run; what the store remembers. */
static int started(struct cmd_measure *m)
{
	const struct run_ctx *ctx = m->ctx;
	int quiet = m->args->out.quiet, err;

	if (ctx->new_evidence &&
	    (err = ab_store_note_add(m->store, m->run.meta.id, NULL, ctx->new_evidence, NULL)) < 0)
		return err;
	if (ctx->evidence_run &&
	    (err = ab_store_run_set_evidence(m->store, m->run.meta.id, ctx->evidence_run)) < 0)
		return err;
	if (ctx->evidence_run && !quiet)
		fprintf(stderr, "abtool: run %lld's profile is linked as the new evidence of run %lld "
			"(history and designs show it)\n", (long long)ctx->evidence_run,
			(long long)m->run.meta.id);
	else if (ctx->new_evidence && !quiet)
		fprintf(stderr, "abtool: the new evidence is stored as a note on run %lld\n",
			(long long)m->run.meta.id);
	if (!quiet) {
		print_memory(m->store, &m->run);
		cmd_print_calibration(stderr, m->store, &m->exp);
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_ctx ctx = {0};
	struct cmd_args args;
	struct cmd_measure m = {0};
	int rc;

	cmd_args_init(&args, "run", run_option, &ctx);
	if ((rc = cmd_parse_options(&args, cmd_run_options, argc, argv)) == CMD_GO_ON) {
		if (optind != argc - 1) {
			rc = cmd_usage("run", "expected one experiment file");
		} else if (!args.run.shard_count != !args.run.group) {
			rc = cmd_usage("run", "--shard and --group go together: each shard of a group is run "
				       "with --shard K/N --group ID");
		} else {
			m.args = &args;
			m.exp_path = argv[optind];
			m.loaded = loaded;
			m.opened = opened;
			m.started = started;
			m.ctx = &ctx;
			rc = cmd_measure(&m);
		}
	}
	cmd_args_release(&args);
	return rc;
}
