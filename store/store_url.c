/* store_url.c - what a store's name says before it is opened (store.h):
 * whether it holds a password, by the parse of its scheme's engine. */
#include "store.h"
#include "store_engine.h"

int ab_store_url_has_password(const char *path)
{
	const struct ab_store_engine *engine;

	/* an engine this abtool lacks cannot parse it: the open says why */
	if (!ab_store_engine_scheme(path) || ab_store_engine_for(path, &engine) < 0)
		return 0;
	return engine->has_password ? engine->has_password(path) : 0;
}
