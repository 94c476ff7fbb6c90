/* cmd_export.c - `abtool export RUN`: one run out of the store, whole.
 * --format json (the default) writes the self-describing document of
 * ab_store_export (schema "abtool-export-1": the run, its experiment
 * file, builds, rows, every sample with every field, rule results and
 * notes), which `abtool import` reads into another store. --format tsv
 * writes one line per sample with every field, for R, pandas or a
 * spreadsheet. */
#include "cmd.h"
#include "error.h"
#include "report.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* The sample fields, in the store's column order; metrics are expanded
 * into columns after them. */
static const char *const sample_fields[] = {
	"seq", "row_idx", "pair", "warmup", "side", "pair_order", "status", "started_at", "wall_ns",
	"user_ns", "sys_ns", "maxrss_bytes", "minflt", "majflt", "nvcsw", "nivcsw", "exit_code",
	"signal", "timed_out", "flags", "checksum", "error", "stdout", "stderr", NULL,
};

static int is_sample_field(const char *name)
{
	size_t i;

	for (i = 0; sample_fields[i]; i++)
		if (!strcmp(sample_fields[i], name))
			return 1;
	return 0;
}

/* A TSV field: tab, newline, carriage return and backslash escaped as
 * \t \n \r \\; JSON null is empty. */
static void tsv_field(FILE *f, const json_t *v)
{
	const char *s;
	char *owned = NULL;

	if (!v || json_is_null(v))
		return;
	if (json_is_string(v)) {
		s = json_string_value(v);
	} else {
		owned = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(17));
		s = owned;
	}
	ab_report_tsv_text(f, s);
	free(owned);
}

static const char *status_name(const json_t *v)
{
	switch (json_integer_value(v)) {
	case 0: return "planned";
	case 1: return "done";
	case 2: return "superseded";
	case 3: return "stopped";
	default: return "unknown";
	}
}

/*
 * Columns: run (the uuid), seq, row_idx, one column per matrix parameter
 * (named "param.NAME"), the other sample fields, then one column per
 * metric that is not already a field ("metric.NAME"; wall_ns, user_ns,
 * sys_ns and maxrss_bytes are fields). status is planned, done or
 * superseded.
 */
static int write_tsv(FILE *f, const json_t *doc)
{
	const json_t *samples = json_object_get(doc, "samples"), *rows = json_object_get(doc, "rows");
	const char *uuid = json_string_value(json_object_get(json_object_get(doc, "run"), "uuid"));
	json_t *params = json_array(), *metrics = json_array(), *s, *v, *row;
	const char *key;
	size_t i, j;

	/* Parameter and metric names in order of first appearance. */
	json_array_foreach(rows, i, row)
		json_object_foreach(json_object_get(row, "params"), key, v) {
			int seen = 0;
			json_array_foreach(params, j, s)
				seen |= !strcmp(json_string_value(s), key);
			if (!seen)
				json_array_append_new(params, json_string(key));
		}
	json_array_foreach(samples, i, row)
		json_object_foreach(json_object_get(row, "metrics"), key, v) {
			int seen = is_sample_field(key);
			json_array_foreach(metrics, j, s)
				seen |= !strcmp(json_string_value(s), key);
			if (!seen)
				json_array_append_new(metrics, json_string(key));
		}

	fputs("run\tseq\trow_idx", f);
	json_array_foreach(params, j, s)
		fprintf(f, "\tparam.%s", json_string_value(s));
	for (i = 2; sample_fields[i]; i++)
		fprintf(f, "\t%s", sample_fields[i]);
	json_array_foreach(metrics, j, s)
		fprintf(f, "\tmetric.%s", json_string_value(s));
	fputc('\n', f);

	json_array_foreach(samples, i, s) {
		json_int_t r = json_integer_value(json_object_get(s, "row_idx"));
		const json_t *p = NULL;
		size_t k;

		json_array_foreach(rows, j, row)
			if (json_integer_value(json_object_get(row, "idx")) == r)
				p = json_object_get(row, "params");
		fputs(uuid ? uuid : "", f);
		fputc('\t', f);
		tsv_field(f, json_object_get(s, "seq"));
		fputc('\t', f);
		tsv_field(f, json_object_get(s, "row_idx"));
		json_array_foreach(params, j, v) {
			fputc('\t', f);
			tsv_field(f, json_object_get(p, json_string_value(v)));
		}
		for (k = 2; sample_fields[k]; k++) {
			fputc('\t', f);
			if (!strcmp(sample_fields[k], "status"))
				fputs(status_name(json_object_get(s, "status")), f);
			else
				tsv_field(f, json_object_get(s, sample_fields[k]));
		}
		json_array_foreach(metrics, j, v) {
			fputc('\t', f);
			tsv_field(f, json_object_get(json_object_get(s, "metrics"), json_string_value(v)));
		}
		fputc('\n', f);
	}
	json_decref(params);
	json_decref(metrics);
	return ferror(f) ? ab_error_set(AB_EIO, "cannot write the TSV") : 0;
}

const struct cmd_option cmd_export_options[] = {
	CMD_FORMAT_OPTIONS("json|tsv", "json: a document for import; tsv: the samples as stored", "json"),
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

int cmd_export(int argc, char **argv)
{
	const char *format, *output;
	struct cmd_args args;
	int stop;
	struct ab_store *store = NULL;
	json_t *doc = NULL;
	char *text = NULL;
	size_t len = 0;
	int64_t id;
	int err, rc = 0;

	cmd_args_init(&args, "export", NULL, NULL);
	args.format = "json";
	if ((stop = cmd_parse_options(&args, cmd_export_options, argc, argv)) != CMD_GO_ON)
		return stop;
	format = args.format;
	output = args.output;
	if (optind != argc - 1)
		return cmd_usage("export", "expected one run: an id, 'latest' or a uuid prefix");
	if (strcmp(format, "json") && strcmp(format, "tsv"))
		return cmd_usage("export", "--format: expected json or tsv, got '%s'", format);
	if ((rc = cmd_open_run(&store, args.store, argv[optind], &id)) != 0)
		return rc;
	if ((err = ab_store_export(store, id, AB_STORE_EXPORT_SAMPLES, &doc)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if (!strcmp(format, "json")) {
		/* 17 significant digits: every real reads back as the same double. */
		char *body = json_dumps(doc, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
		text = ab_xasprintf("%s\n", body);
		len = strlen(text);
		free(body);
	} else {
		FILE *f = open_memstream(&text, &len);
		if (!f) {
			rc = cmd_fail(ab_error_set(AB_EIO, "out of memory"));
			goto out;
		}
		err = write_tsv(f, doc);
		fclose(f);
		if (err < 0) {
			rc = cmd_fail(err);
			goto out;
		}
	}
	if ((err = cmd_write_output(output, text, len)) < 0)
		rc = cmd_fail(err);
out:
	free(text);
	json_decref(doc);
	ab_store_close(store);
	return rc;
}
