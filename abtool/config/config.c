/* config.c - read and validate the experiment file (config.h,
 * docs/experiment-file.md).
 *
 * The file is loaded with libyaml's document API and validated on its
 * nodes, which carry their marks, in one pass over them. Conventions for
 * messages:
 *
 *   PATH:LINE:COLUMN: KEY.PATH: what is wrong
 *
 * KEY.PATH names the key or list element at fault (`accept[1].faster_by`,
 * `matrix.lanes[2]`, 0-based indices) and LINE:COLUMN is where that key or
 * element starts: a bad value is reported at its key, so that in block
 * style the column is the key's indentation. A missing key is reported at
 * the mapping that should hold it. Only file-level problems (not UTF-8,
 * YAML syntax, not a mapping, several documents) have no key path.
 *
 * Anchors and aliases are resolved (libyaml's loader makes an alias share
 * the anchored node), so an error in an aliased value points at the
 * anchored original. Merge keys (`<<`) are not supported and are reported
 * as unknown keys. Before the load, check_shape() bounds the nesting and
 * what the aliases expand to (the walk visits an alias's node each time).
 *
 * The layers, each including only those below it:
 *   config.c        the text checks, the document, the entry points;
 *   config_keys.c   the experiment's keys (top_keys[] and their readers);
 *   config_rules.c  the `accept:` rules, with the table of predicates.h;
 *   config_yaml.c   the walker: context, node lookup, messages, key tables;
 *   experiment.c    the loaded experiment's types and run-time queries.
 */
#include "config.h"
#include "config_keys.h"
#include "config_rules.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* libyaml's printable set (YAML 1.1 §5.1), which its reader enforces */
static int printable(uint32_t cp)
{
	return cp == 0x09 || cp == 0x0A || cp == 0x0D || (cp >= 0x20 && cp <= 0x7E) ||
	       cp == 0x85 || (cp >= 0xA0 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
	       (cp >= 0x10000 && cp <= 0x10FFFF);
}

/*
 * Check that the text is UTF-8 without NUL or control characters before
 * libyaml sees it, so that binary files get a clear message with a
 * position. When `stop` is reached first, only report its position in
 * *mark (used for libyaml's reader errors, which give an offset).
 */
static int check_text(struct ctx *c, const unsigned char *s, size_t len, size_t stop,
		      yaml_mark_t *mark)
{
	size_t i = 0, n, j;
	uint32_t cp, min;

	memset(mark, 0, sizeof(*mark));
	if (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
		i = 3; /* a byte order mark, which libyaml skips */
	while (i < len && i < stop) {
		unsigned char b = s[i];

		if (b < 0x80) {
			cp = b, n = 1, min = 0;
		} else if ((b & 0xE0) == 0xC0) {
			cp = b & 0x1F, n = 2, min = 0x80;
		} else if ((b & 0xF0) == 0xE0) {
			cp = b & 0x0F, n = 3, min = 0x800;
		} else if ((b & 0xF8) == 0xF0) {
			cp = b & 0x07, n = 4, min = 0x10000;
		} else {
			goto bad_utf8;
		}
		if (n > len - i)
			goto bad_utf8;
		for (j = 1; j < n; j++) {
			if ((s[i + j] & 0xC0) != 0x80)
				goto bad_utf8;
			cp = cp << 6 | (s[i + j] & 0x3F);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			goto bad_utf8;
		if (cp == 0)
			return cfg_fail(c, *mark, "not a YAML text file: NUL byte (is it binary?)");
		if (!printable(cp))
			return cfg_fail(c, *mark, "not a YAML text file: control character U+%04X "
				    "(is it binary?)", (unsigned)cp);
		if (cp == '\n' || cp == 0x85 || cp == 0x2028 || cp == 0x2029 ||
		    (cp == '\r' && (i + 1 >= len || s[i + 1] != '\n'))) {
			mark->line++;
			mark->column = 0;
		} else if (cp != '\r') {
			mark->column++;
		}
		i += n;
	}
	return 0;
bad_utf8:
	return cfg_fail(c, *mark, "not a YAML text file: invalid UTF-8 byte 0x%02x "
		    "(save the file as UTF-8)", s[i]);
}

static int syntax_error(struct ctx *c, const yaml_parser_t *parser, const char *text, size_t len)
{
	yaml_mark_t mark = parser->problem_mark, cm = parser->context_mark;
	const char *problem = parser->problem ? parser->problem : "unknown error";

	if (parser->error == YAML_MEMORY_ERROR)
		return ab_error_set(AB_ENOMEM, "%s: out of memory while reading YAML", c->file);
	if (parser->error == YAML_READER_ERROR)
		check_text(c, (const unsigned char *)text, len, parser->problem_offset, &mark);
	if (strstr(problem, "unknown escape"))  /* the classic: a regex in double quotes */
		return cfg_fail(c, mark, "YAML syntax error: %s: in double quotes YAML reads a backslash as an "
			    "escape; write text with backslashes, such as a regex, in single quotes "
			    "('checksum=(\\S+)') or double each backslash", problem);
	if (parser->context)
		return cfg_fail(c, mark, "YAML syntax error: %s (%s that starts at %zu:%zu)",
			    problem, parser->context, cm.line + 1, cm.column + 1);
	return cfg_fail(c, mark, "YAML syntax error: %s", problem);
}

static char *folder_of(const char *path)
{
	char *abs = ab_path_absolute(NULL, path), *slash = strrchr(abs, '/');

	if (slash == abs)
		slash[1] = '\0';
	else
		*slash = '\0';
	return abs;
}

/* Deeper than any experiment or rules file needs (they nest 4 levels). */
#define MAX_YAML_DEPTH 64

/* What the document may expand to with its aliases resolved
 * (docs/experiment-file.md, "How the file is read"): far more than a real
 * file (at most 1 MiB, so at most about 500,000 nodes without aliases),
 * far less than the gigabytes a "billion laughs" asks for. */
#define MAX_EXPANDED_NODES 1000000
#define MAX_EXPANDED_BYTES (64u << 20)

/* The expanded size of one anchored node, by anchor name */
struct anchor_size {
	char *name;         /* owned; NULL: a free slot */
	uint64_t nodes, bytes;
};

/* The event pass's state: the running expanded totals of the document,
 * the anchors defined so far (open addressing, size a power of 2), and
 * the collections open at each depth with the totals at their start. */
struct shape {
	uint64_t nodes, bytes;
	struct anchor_size *anchors;
	size_t nanchors, cap;
	struct {
		const char *anchor;     /* borrowed from the start event, kept alive below */
		yaml_event_t start;
		uint64_t nodes, bytes;
	} open[MAX_YAML_DEPTH + 1];
	int depth;
};

static size_t anchor_slot(const struct shape *sh, const char *name)
{
	uint64_t h = 1469598103934665603ull;  /* FNV-1a, 64 bits */
	const unsigned char *p;
	size_t i;

	for (p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	for (i = (size_t)h & (sh->cap - 1); sh->anchors[i].name; i = (i + 1) & (sh->cap - 1))
		if (!strcmp(sh->anchors[i].name, name))
			break;
	return i;
}

/* Record (or, for a redefined anchor, replace) the expanded size of the
 * node anchored as `name`. */
static void anchor_define(struct shape *sh, const char *name, uint64_t nodes, uint64_t bytes)
{
	struct anchor_size *a;
	size_t i;

	if (2 * (sh->nanchors + 1) > sh->cap) {
		struct anchor_size *old = sh->anchors;
		size_t oldcap = sh->cap;

		sh->cap = oldcap ? 2 * oldcap : 64;
		sh->anchors = ab_xcalloc(sh->cap, sizeof(*sh->anchors));
		for (i = 0; i < oldcap; i++)
			if (old[i].name)
				sh->anchors[anchor_slot(sh, old[i].name)] = old[i];
		free(old);
	}
	a = &sh->anchors[anchor_slot(sh, name)];
	if (!a->name) {
		a->name = ab_xstrdup(name);
		sh->nanchors++;
	}
	a->nodes = nodes;
	a->bytes = bytes;
}

/* Account for one event: a node adds 1 node (a scalar also its bytes), an
 * alias the expanded size of its anchor's node. Refuses, at the alias,
 * an alias that takes the totals past the limits, and an alias inside
 * the node it names (a cycle, which the walk would follow for ever). */
static int shape_event(struct ctx *c, struct shape *sh, yaml_event_t *ev)
{
	const char *anchor = NULL;
	int i;

	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		for (i = 0; i < sh->depth; i++)
			if (sh->open[i].anchor && !strcmp(sh->open[i].anchor, (char *)ev->data.alias.anchor))
				return cfg_fail(c, ev->start_mark, "alias *%s refers to the node that contains it "
						"(a cycle); copy the value instead", ev->data.alias.anchor);
		if (!sh->cap || !sh->anchors[anchor_slot(sh, (char *)ev->data.alias.anchor)].name)
			return 0;  /* undefined: the load reports it */
		{
			const struct anchor_size *a = &sh->anchors[anchor_slot(sh, (char *)ev->data.alias.anchor)];

			sh->nodes += a->nodes;
			sh->bytes += a->bytes;
		}
		if (sh->nodes > MAX_EXPANDED_NODES || sh->bytes > MAX_EXPANDED_BYTES)
			return cfg_fail(c, ev->start_mark, "alias *%s takes the file past what its aliases may "
					"expand to (%d nodes and %u MiB of text in all, counting each alias as a "
					"copy of its value); anchor smaller values, or write fewer aliases",
					ev->data.alias.anchor, MAX_EXPANDED_NODES, MAX_EXPANDED_BYTES >> 20);
		return 0;
	case YAML_SCALAR_EVENT:
		sh->nodes++;
		sh->bytes += ev->data.scalar.length;
		if (ev->data.scalar.anchor)
			anchor_define(sh, (char *)ev->data.scalar.anchor, 1, ev->data.scalar.length);
		return 0;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		anchor = (const char *)(ev->type == YAML_SEQUENCE_START_EVENT ? ev->data.sequence_start.anchor
									     : ev->data.mapping_start.anchor);
		if (sh->depth >= MAX_YAML_DEPTH)
			return cfg_fail(c, ev->start_mark, "YAML nested more than %d levels deep (an "
					"experiment or rules file needs a few)", MAX_YAML_DEPTH);
		sh->nodes++;
		sh->open[sh->depth].anchor = anchor;
		sh->open[sh->depth].start = *ev;  /* owns the anchor until the end event */
		sh->open[sh->depth].nodes = sh->nodes - 1;
		sh->open[sh->depth].bytes = sh->bytes;
		sh->depth++;
		ev->type = YAML_NO_EVENT;  /* not deleted by the caller */
		return 0;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (sh->depth == 0)
			return 0;
		sh->depth--;
		if ((anchor = sh->open[sh->depth].anchor))
			anchor_define(sh, anchor, sh->nodes - sh->open[sh->depth].nodes,
				      sh->bytes - sh->open[sh->depth].bytes);
		yaml_event_delete(&sh->open[sh->depth].start);
		return 0;
	default:
		return 0;
	}
}

/*
 * Check the document's shape from its events before loading it: nesting
 * at most MAX_YAML_DEPTH deep (libyaml's scanner spends time proportional
 * to the depth on every token, so a 1 MiB file of '[' took minutes of
 * CPU), and aliases that expand to at most MAX_EXPANDED_NODES nodes and
 * MAX_EXPANDED_BYTES of scalar text in all. The walk that reads the
 * loaded document visits an alias's node at every alias and builds its
 * values each time, so 5,000 aliases of a 200 KB string took 988 MB; here
 * each anchor's expanded size is computed once, when its node ends, and
 * an alias adds it, so the pass is linear in the events and allocates
 * only the anchors' names. A syntax error is left for the load to report.
 */
static int check_shape(struct ctx *c, const char *text, size_t len)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	struct shape sh;
	int err = 0, done = 0;
	size_t i;

	if (!yaml_parser_initialize(&parser))
		return 0;
	memset(&sh, 0, sizeof(sh));
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	while (!done && !err && yaml_parser_parse(&parser, &ev)) {
		done = ev.type == YAML_STREAM_END_EVENT;
		err = shape_event(c, &sh, &ev);
		yaml_event_delete(&ev);
	}
	while (sh.depth > 0)
		yaml_event_delete(&sh.open[--sh.depth].start);
	for (i = 0; i < sh.cap; i++)
		free(sh.anchors[i].name);
	free(sh.anchors);
	yaml_parser_delete(&parser);
	return err;
}

/* Parse one YAML document from text and hand its root to `read`. */
static int load_document(struct ctx *c, const char *path, const char *text, size_t len,
			 int (*read)(struct ctx *c, yaml_node_t *root))
{
	yaml_parser_t parser;
	yaml_document_t doc, extra;
	yaml_mark_t mark;
	int err;

	c->doc = &doc;
	err = check_text(c, (const unsigned char *)text, len, len, &mark);
	if (!err)
		err = check_shape(c, text, len);
	if (err)
		return err;
	if (!yaml_parser_initialize(&parser))
		return ab_error_set(AB_ENOMEM, "%s: out of memory while reading YAML", path);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		err = syntax_error(c, &parser, text, len);
		goto out_parser;
	}
	if (!yaml_parser_load(&parser, &extra)) {
		err = syntax_error(c, &parser, text, len);
		goto out_doc;
	}
	if (yaml_document_get_root_node(&extra))
		err = cfg_fail(c, extra.start_mark, "the file holds more than one YAML document; "
			   "write one experiment per file");
	yaml_document_delete(&extra);
	if (err)
		goto out_doc;
	err = read(c, yaml_document_get_root_node(&doc));
out_doc:
	yaml_document_delete(&doc);
out_parser:
	yaml_parser_delete(&parser);
	c->doc = NULL;
	return err;
}

int ab_experiment_check_pairs(const struct ab_experiment *exp, const char *source)
{
	size_t i;

	for (i = 0; i < exp->nrules; i++) {
		const struct ab_rule *r = &exp->rules[i];

		if (r->min_pair_wins > (long long)ab_experiment_first_look(exp))
			return ab_error_set(AB_EINVALID, "%s:%d:%d: accept[%zu] (%s): min_pair_wins %lld "
					    "exceeds the %zu %s (%s), so the rule could never pass; lower it, "
					    "write a share like 90%%, or plan more pairs",
					    exp->path, r->mark.line, r->mark.column, i, r->name,
					    (long long)r->min_pair_wins, ab_experiment_first_look(exp),
					    exp->sequential ? "pairs of the sequential plan's first look"
							    : "planned pairs per row", source);
	}
	return 0;
}

static int check_own_pairs(struct ab_experiment *exp, const char *file)
{
	char source[64];
	const char *path = exp->path;
	int err;

	if (exp->sequential)
		snprintf(source, sizeof(source), "pairs: {looks: %zu, ...}", exp->seq.looks[0]);
	else
		snprintf(source, sizeof(source), "pairs: %d", exp->pairs);
	exp->path = (char *)file;
	err = ab_experiment_check_pairs(exp, source);
	exp->path = (char *)path;
	return err;
}

int ab_experiment_parse(struct ab_experiment *out, const char *path,
			const char *text, size_t len)
{
	struct ctx c;
	int err;

	memset(out, 0, sizeof(*out));
	out->path = ab_xstrdup(path);
	out->dir = folder_of(path);
	out->text = ab_xmalloc(len + 1);
	memcpy(out->text, text, len);
	out->text[len] = '\0';
	out->text_len = len;
	ab_sha256_hex(out->hash, text, len);
	out->exact_parent = 1;
	out->aslr = 1;
	out->contention.max_cpu_wait = AB_CONTENTION_MAX_CPU_WAIT;
	out->pairs = 8;
	out->warmup = 1;
	out->timeout_ms = 600000;
	out->build_timeout_ms = 3600000;
	out->environment_commands_timeout_ms = 30000;
	out->limit_rows = AB_LIMIT_ROWS;
	out->limit_samples = AB_LIMIT_SAMPLES;
	cfg_add_builtin_metrics(out);

	memset(&c, 0, sizeof(c));
	c.file = out->path;
	c.exp = out;
	err = load_document(&c, path, text, len, cfg_read_root);
	return err ? err : check_own_pairs(out, out->path);
}

static const struct key_handler rules_file_keys[] = {
	{ "accept", cfg_h_accept, 0 },
	{ NULL, NULL, 0 },
};

static int read_rules_root(struct ctx *c, yaml_node_t *root)
{
	yaml_mark_t start = { 0, 0, 0 };
	int err;

	if (!root || root->type != YAML_MAPPING_NODE)
		return cfg_fail(c, root ? root->start_mark : start, "expected a mapping with an 'accept:' list of rules");
	err = cfg_check_mapping(c, root, root->start_mark, rules_file_keys, "");
	if (err)
		return err;
	if (!cfg_find_pair(c, root, "accept"))
		return cfg_missing_key(c, root, "accept");
	return cfg_read_keys(c, root, rules_file_keys, c->exp);
}

int ab_experiment_parse_rules(struct ab_experiment *exp, const char *path, const char *text, size_t len)
{
	struct ctx c;
	size_t i;
	int err;

	for (i = 0; i < exp->nrules; i++)
		ab_rule_release(&exp->rules[i]);
	free(exp->rules);
	exp->rules = NULL;
	exp->nrules = 0;
	memset(&c, 0, sizeof(c));
	c.file = path;
	c.exp = exp;
	err = load_document(&c, path, text, len, read_rules_root);
	return err ? err : check_own_pairs(exp, path);
}

int ab_experiment_read(char **out, size_t *len, const char *path)
{
	FILE *f;
	struct stat st;
	char *buf;
	size_t n = 0, r;
	int err = 0;

	*out = NULL;
	*len = 0;
	if (!(f = fopen(path, "rb"))) {
		if (errno == ENOENT)
			return ab_error_set(AB_ENOTFOUND, "'%s': no such file; check the path", path);
		return ab_error_set(AB_EIO, "cannot read '%s': %s", path, strerror(errno));
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		err = ab_error_set(AB_EINVALID, "'%s' is a directory; give the experiment file in it, "
				   "e.g. '%s/exp.yaml'", path, path);
		goto out_close;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > AB_EXPERIMENT_MAX_BYTES) {
		err = ab_error_set(AB_EINVALID, "%s is %lld bytes; an experiment file is at most 1 MiB "
				   "(is it the right file?)", path, (long long)st.st_size);
		goto out_close;
	}
	/* Never more than the limit and one byte, whatever the file is
	 * (a pipe, /dev/zero, a file still growing). */
	buf = ab_xmalloc(AB_EXPERIMENT_MAX_BYTES + 2);
	while (n <= AB_EXPERIMENT_MAX_BYTES &&
	       (r = fread(buf + n, 1, AB_EXPERIMENT_MAX_BYTES + 1 - n, f)) > 0)
		n += r;
	if (ferror(f)) {
		err = ab_error_set(AB_EIO, "cannot read '%s': %s", path, strerror(errno));
		free(buf);
	} else if (n > AB_EXPERIMENT_MAX_BYTES) {
		err = ab_error_set(AB_EINVALID, "%s is more than 1 MiB; an experiment file is at most 1 MiB "
				   "(is it the right file?)", path);
		free(buf);
	} else {
		buf[n] = '\0';
		*out = buf;
		*len = n;
	}
out_close:
	fclose(f);
	return err;
}

int ab_experiment_load(struct ab_experiment *out, const char *path)
{
	char *text;
	size_t len;
	int err;

	memset(out, 0, sizeof(*out));
	err = ab_experiment_read(&text, &len, path);
	if (err == AB_ENOTFOUND)
		return ab_error_set(err, "'%s': no such file; check the path, or write an experiment "
				    "file with 'abtool init %s'", path, path);
	if (err)
		return err;
	err = ab_experiment_parse(out, path, text, len);
	free(text);
	if (!err && out->repo_mark.line) {  /* a typo in repo: before "not a git repository" */
		struct stat st;
		int found = stat(out->repo, &st) == 0;

		if (!found || !S_ISDIR(st.st_mode))
			err = ab_error_set(AB_EINVALID, "%s:%d:%d: repo: '%s' %s (a relative path starts at "
					   "the experiment file's folder)", path, out->repo_mark.line,
					   out->repo_mark.column, out->repo, found ? "is not a folder" : "does not exist");
	}
	if (!err) {  /* the plan's size, at the key that makes it (a run checks it again) */
		const struct ab_mark *m = ab_experiment_nrows(out) > out->limit_rows || !out->pairs_mark.line
			? &out->matrix_mark : &out->pairs_mark;
		char *source = m->line ? ab_xasprintf("%s:%d:%d: %s", path, m->line, m->column,
						      m == &out->pairs_mark ? "pairs" : "matrix")
				       : ab_xstrdup(path);

		err = ab_experiment_check_limits(out, source);
		free(source);
	}
	return err;
}

int ab_config_is_builtin_metric(const char *name)
{
	return cfg_is_builtin_metric(name);
}
