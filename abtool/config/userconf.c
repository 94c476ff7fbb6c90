/* userconf.c - the per-user config file (see userconf.h), read with
 * libyaml like the experiment file, so that every message has its line
 * and column. */
#include "userconf.h"
#include "error.h"
#include "project.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

char *ab_userconf_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (xdg && xdg[0] == '/')
		return ab_path_join(xdg, "abtool/config");
	return ab_xasprintf("%s/.config/abtool/config", home && *home ? home : "/tmp");
}

static int fail(const struct ab_userconf *c, yaml_mark_t m, const char *key, const char *msg)
{
	return ab_error_set(AB_EINVALID, "%s:%zu:%zu: %s%s%s", c->path, m.line + 1, m.column + 1,
			    key ? key : "", key ? ": " : "", msg);
}

static const char *scalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int set_store(struct ab_userconf *c, yaml_node_t *v)
{
	const char *text = scalar(v), *home = getenv("HOME");
	char *dir, *slash;

	if (!text || !*text)
		return fail(c, v->start_mark, "store", "expected the store's file name, like "
			    "~/.local/share/abtool/abtool.db");
	dir = ab_xstrdup(c->path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	if (!strncmp(text, "~/", 2))
		c->store = ab_path_join(home && *home ? home : "/", text + 2);
	else
		c->store = ab_path_absolute(dir, text);
	free(dir);
	c->store_at = ab_xasprintf("%s:%zu:%zu", c->path, v->start_mark.line + 1,
				   v->start_mark.column + 1);
	return 0;
}

static int set_project(struct ab_userconf *c, yaml_node_t *v)
{
	const char *text = scalar(v), *why;

	if (!text)
		return fail(c, v->start_mark, "project", "expected the project's name as a string, like "
			    "github.com/owner/name");
	if ((why = ab_project_name_problem(text)))
		return fail(c, v->start_mark, "project", why);
	c->project = ab_xstrdup(text);
	return 0;
}

static int set_cache(struct ab_userconf *c, yaml_document_t *doc, yaml_node_t *v)
{
	yaml_node_pair_t *p;

	if (v->type != YAML_MAPPING_NODE)
		return fail(c, v->start_mark, "cache", "expected a mapping like {max_size: 2G}");
	for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);
		yaml_node_t *val = yaml_document_get_node(doc, p->value);
		const char *name = scalar(k);

		if (!name || strcmp(name, "max_size"))
			return fail(c, k->start_mark, "cache", "unknown key (the cache's key is max_size)");
		if (!scalar(val) || ab_parse_size(&c->cache_max_size, scalar(val)) < 0)
			return fail(c, val->start_mark, "cache.max_size",
				    "expected a size like 2G, 500M or 64K (powers of 1024)");
	}
	return 0;
}

static int walk(struct ab_userconf *c, yaml_document_t *doc)
{
	yaml_node_t *root = yaml_document_get_root_node(doc);
	yaml_node_pair_t *p;
	int err = 0;

	if (!root || (root->type == YAML_SCALAR_NODE && !*scalar(root)))
		return 0;  /* an empty file */
	if (root->type != YAML_MAPPING_NODE)
		return fail(c, root->start_mark, NULL, "expected a mapping of keys (store:, cache:, "
			    "project:)");
	for (p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top && !err; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);
		yaml_node_t *v = yaml_document_get_node(doc, p->value);
		const char *name = scalar(k);

		if (name && !strcmp(name, "store") && !c->store)
			err = set_store(c, v);
		else if (name && !strcmp(name, "cache"))
			err = set_cache(c, doc, v);
		else if (name && !strcmp(name, "project") && !c->project)
			err = set_project(c, v);
		else
			err = fail(c, k->start_mark, name, name && (!strcmp(name, "store") ||
				   !strcmp(name, "project")) ? "given twice"
				   : "unknown key (the keys are store, cache and project)");
	}
	return err;
}

int ab_userconf_load(struct ab_userconf *out)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	char *text = NULL;
	size_t len = 0;
	int err;

	memset(out, 0, sizeof(*out));
	out->cache_max_size = -1;
	out->path = ab_userconf_path();
	if ((err = ab_read_file(&text, &len, out->path)) == AB_ENOTFOUND)
		return 0;
	if (err < 0)
		return ab_error_prefix("the config file");
	out->found = 1;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		err = fail(out, parser.problem_mark, NULL, parser.problem ? parser.problem
			   : "YAML syntax error");
		yaml_parser_delete(&parser);
		free(text);
		return err;
	}
	err = walk(out, &doc);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	free(text);
	return err;
}

void ab_userconf_release(struct ab_userconf *c)
{
	free(c->path);
	free(c->store);
	free(c->store_at);
	free(c->project);
	memset(c, 0, sizeof(*c));
	c->cache_max_size = -1;
}
