/* store_engine.c - the engines by URL scheme (see store_engine.h): the
 * one table that says which engine opens a store from its name. */
#include "store_engine.h"
#include "error.h"
#include "util.h"

#include <string.h>

/* The engine of a build without PostgreSQL stores (CMakeLists.txt,
 * ABTOOL_POSTGRESQL) is none: its URLs are refused. */
#ifdef ABTOOL_POSTGRESQL
#define PG_ENGINE (&ab_store_engine_pg)
#else
#define PG_ENGINE NULL
#endif

/* One line per scheme; a name that begins with none is a sqlite file. */
static const struct scheme {
	const char *prefix;
	const struct ab_store_engine *engine;  /* NULL: left out of this build */
	const char *what;                       /* the stores, for messages */
	const char *option;                     /* the build option that has them */
} schemes[] = {
	{"postgresql://", PG_ENGINE, "PostgreSQL", "ABTOOL_POSTGRESQL"},
	{"postgres://", PG_ENGINE, "PostgreSQL", "ABTOOL_POSTGRESQL"},
};

static const struct scheme *scheme_of(const char *path)
{
	size_t i;

	for (i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++)
		if (!strncmp(path, schemes[i].prefix, strlen(schemes[i].prefix)))
			return &schemes[i];
	return NULL;
}

int ab_store_engine_scheme(const char *path)
{
	return scheme_of(path) != NULL;
}

int ab_store_engine_for(const char *path, const struct ab_store_engine **out)
{
	const struct scheme *s = scheme_of(path);
	int err;

	*out = NULL;
	if (!s) {
		*out = &ab_store_engine_sqlite;
		return 0;
	}
	if (!s->engine)
		return ab_error_set(AB_EIO, "cannot open a %s store: this abtool was built without %s "
				    "stores (%s=OFF); use a build with them, or a store file", s->what,
				    s->what, s->option);
	if (s->engine->load && (err = s->engine->load()) < 0)
		return err;
	*out = s->engine;
	return 0;
}

int ab_store_engine_is_server(const struct ab_store_engine *engine)
{
	size_t i;

	for (i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++)
		if (engine && schemes[i].engine == engine)
			return 1;
	return 0;
}

char *ab_store_engine_describe(const char *path)
{
	const struct scheme *s = scheme_of(path);

	if (!s)
		return ab_xstrdup(path);
	if (!s->engine || (s->engine->load && s->engine->load() < 0))
		return ab_xasprintf("%s...", s->prefix);
	return s->engine->describe ? s->engine->describe(path) : ab_xstrdup(path);
}
