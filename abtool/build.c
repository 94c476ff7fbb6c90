/* build.c - the build cache (see build.h). */
#include "build.h"
#include "error.h"
#include "revs.h"
#include "runner.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *ab_build_status_name(enum ab_build_status status)
{
	switch (status) {
	case AB_BUILD_OK:
		return "ok";
	case AB_BUILD_FAILED:
		return "failed";
	case AB_BUILD_TIMED_OUT:
		return "timed_out";
	case AB_BUILD_NO_ARTIFACT:
		return "missing_artifact";
	}
	return "failed";
}

static void field(struct ab_sha256 *ctx, const char *s)
{
	if (!s)
		s = "";
	ab_sha256_update(ctx, s, strlen(s) + 1);
}

static void compute_key(char key[65], const struct ab_build_spec *spec)
{
	struct ab_sha256 *ctx = ab_sha256_new();
	char *cmd = spec->command ? ab_command_display(spec->command) : NULL;
	char oid[GIT_OID_HEXSZ + 1];
	char *const *e;

	/* Each field is NUL-terminated so that no two specs hash alike. The
	 * commit is part of the key, not only its tree: the tree's git
	 * metadata (HEAD) is something a build script can see. */
	git_oid_tostr(oid, sizeof(oid), spec->commit);
	field(ctx, "abtool-build-v1");
	field(ctx, oid);
	field(ctx, spec->tree_hex);
	field(ctx, cmd);
	for (e = spec->env; e && *e; e++)
		field(ctx, *e);
	field(ctx, "--");
	if (spec->overlay_entries) {
		size_t i;
		json_t *entry;
		json_array_foreach((json_t *)spec->overlay_entries, i, entry) {
			field(ctx, json_string_value(json_object_get(entry, "path")));
			field(ctx, json_string_value(json_object_get(entry, "oid")));
		}
	}
	field(ctx, "--");
	for (size_t i = 0; i < spec->ndeps; i++) {
		git_oid_tostr(oid, sizeof(oid), spec->deps[i].commit);
		field(ctx, spec->deps[i].path);
		field(ctx, oid);
	}
	field(ctx, "--");
	field(ctx, spec->identity);
	field(ctx, spec->salt);
	ab_sha256_final(ctx, key);
	free(cmd);
}

static int lock_entry(int *fd_out, const char *lock_path, const struct ab_build_spec *spec)
{
	int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0)
		return ab_error_set(AB_EIO, "cannot open the build lock '%s': %s", lock_path,
				    strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
		*fd_out = fd;
		return 0;
	}
	if (spec->waiting)
		spec->waiting(spec->waiting_ctx, lock_path);
	while (flock(fd, LOCK_EX) < 0) {
		if (errno == EINTR && ab_runner_interrupted()) {
			close(fd);
			return ab_error_set(AB_EINTERRUPTED, "interrupted while waiting for a build lock");
		}
		if (errno != EINTR) {
			close(fd);
			return ab_error_set(AB_EIO, "cannot lock '%s': %s", lock_path, strerror(errno));
		}
	}
	*fd_out = fd;
	return 0;
}

/* Read the state file of a finished build; 1 when it says "ok". */
static int read_state(const char *state_path, struct ab_build *b)
{
	json_t *state = json_load_file(state_path, 0, NULL);
	const char *status = json_string_value(json_object_get(state, "status"));
	int ok = 0;

	if (status && !strcmp(status, "ok")) {
		ok = 1;
		b->duration_ns = json_integer_value(json_object_get(state, "duration_ns"));
		json_decref(b->artifacts);
		b->artifacts = json_incref(json_object_get(state, "artifacts"));
		if (!b->artifacts)
			b->artifacts = json_object();
	}
	json_decref(state);
	return ok;
}

static int hash_artifacts(struct ab_build *b, char *const *artifacts)
{
	char *const *a;

	for (a = artifacts; a && *a; a++) {
		char hex[65], *path = ab_path_join(b->dir, *a);
		int err = ab_sha256_file(hex, path);

		free(path);
		if (err == AB_ENOTFOUND) {
			b->status = AB_BUILD_NO_ARTIFACT;
			free(b->detail);
			b->detail = ab_xasprintf("artifact '%s' was not built", *a);
			return 0;
		}
		if (err < 0)
			return err;
		json_object_set_new(b->artifacts, *a, json_string(hex));
	}
	return 0;
}

/* The variables that point git at a repository (`git rev-parse
 * --local-env-vars`). abtool run from a git hook, `git rebase -x` or a
 * git alias inherits GIT_DIR and its kin: a build or a sample that calls
 * git in its tree would then read, or write to, the user's repository
 * instead of the tree's own. */
static const char *const git_local_env[] = {
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS",
	"GIT_CONFIG_COUNT", "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE",
	"GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE", "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS",
	"GIT_REPLACE_REF_BASE", "GIT_PREFIX", "GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE",
	"GIT_COMMON_DIR",
};

char **ab_build_env(char *const *env, const struct ab_build_dep *deps, size_t ndeps, const char *dir)
{
	char **out = NULL;
	char *const *e;
	size_t i;

	for (i = 0; i < sizeof(git_local_env) / sizeof(git_local_env[0]); i++)
		ab_strv_push(&out, ab_xstrdup(git_local_env[i]));  /* a bare name removes it */
	for (e = env; e && *e; e++)
		ab_strv_push(&out, ab_xstrdup(*e));
	for (i = 0; i < ndeps; i++)
		if (deps[i].env)
			ab_strv_push(&out, ab_xasprintf("%s=%s/%s", deps[i].env, dir, deps[i].path));
	if (!out)
		out = ab_xcalloc(1, sizeof(char *));
	return out;
}

static int run_build(struct ab_build *b, const struct ab_build_spec *spec)
{
	struct ab_runner_spec rs;
	struct ab_runner_result rr;
	char buf[256], **env;
	int64_t t0;
	int err;

	memset(&rs, 0, sizeof(rs));
	rs.shell = spec->command->shell;
	rs.argv = spec->command->argv;
	rs.cwd = b->dir;
	rs.stdin_null = 1;
	env = ab_build_env(spec->env, spec->deps, spec->ndeps, b->dir);
	rs.env_extra = env;
	rs.timeout_ms = spec->timeout_ms;
	rs.log_path = b->log_path;
	t0 = ab_now_ns();
	err = ab_runner_run(&rr, &rs);
	b->duration_ns = ab_now_ns() - t0;
	ab_strv_free(env);
	if (err < 0) {
		ab_runner_result_release(&rr);
		return err;
	}
	if (rr.timed_out)
		b->status = AB_BUILD_TIMED_OUT;
	else if (!rr.exited || rr.exit_code != 0)
		b->status = AB_BUILD_FAILED;
	if (b->status != AB_BUILD_OK)
		b->detail = ab_xstrdup(ab_runner_describe(buf, sizeof(buf), &rr, spec->timeout_ms));
	ab_runner_result_release(&rr);
	return 0;
}

int ab_build_prepare(struct ab_build *out, const struct ab_build_spec *spec)
{
	char *builds = ab_path_join(spec->cache_dir, "builds");
	char *lock_path = NULL, *state_path = NULL;
	int fd = -1, err;

	memset(out, 0, sizeof(*out));
	out->artifacts = json_object();
	out->no_command = !spec->command || (!spec->command->shell && !spec->command->argv);
	compute_key(out->key, spec);
	if ((err = ab_mkdir_p(builds)) < 0)
		goto out;
	out->dir = ab_path_join(builds, out->key);
	out->log_path = ab_xasprintf("%s.log", out->dir);
	lock_path = ab_xasprintf("%s.lock", out->dir);
	state_path = ab_xasprintf("%s.json", out->dir);
	if ((err = lock_entry(&fd, lock_path, spec)) < 0)
		goto out;

	if (read_state(state_path, out) && access(out->dir, F_OK) == 0) {
		/* Hash the declared artifacts again: the experiment may name
		 * artifacts the cached build was not asked for. */
		out->cached = 1;
		json_object_clear(out->artifacts);
		err = hash_artifacts(out, spec->artifacts);
		goto out;
	}

	/* A fresh tree for every attempt: a failed or interrupted build may
	 * have left anything behind. */
	unlink(state_path);
	if ((err = ab_remove_tree(out->dir)) < 0 ||
	    (err = ab_revs_materialize(spec->repo, spec->commit, out->dir)) < 0)
		goto out;
	if (spec->overlay_commit &&
	    (err = ab_revs_overlay_apply(spec->repo, spec->overlay_commit, spec->overlay_paths, out->dir)) < 0)
		goto out;
	for (size_t i = 0; i < spec->ndeps; i++) {
		char *at = ab_path_join(out->dir, spec->deps[i].path);
		if ((err = ab_remove_tree(at)) == 0)
			err = ab_revs_materialize(spec->deps[i].repo, spec->deps[i].commit, at);
		free(at);
		if (err < 0)
			goto out;
	}
	unlink(out->log_path);
	if (spec->command && (spec->command->shell || spec->command->argv)) {
		if ((err = run_build(out, spec)) < 0)
			goto out;
	} else {
		close(open(out->log_path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666));
	}
	if (out->status == AB_BUILD_OK && (err = hash_artifacts(out, spec->artifacts)) < 0)
		goto out;
	if (out->status == AB_BUILD_OK) {
		json_t *state = json_pack("{s:s, s:s, s:I, s:O, s:I}", "status", "ok",
					  "commit", git_oid_tostr_s(spec->commit),
					  "duration_ns", (json_int_t)out->duration_ns,
					  "artifacts", out->artifacts,
					  "created_unix", (json_int_t)time(NULL));
		char *text = json_dumps(state, JSON_INDENT(2));
		err = ab_write_file(state_path, text, strlen(text));
		free(text);
		json_decref(state);
	}
out:
	if (fd >= 0)
		close(fd);  /* releases the flock */
	free(builds);
	free(lock_path);
	free(state_path);
	return err;
}

void ab_build_release(struct ab_build *b)
{
	free(b->dir);
	free(b->log_path);
	free(b->detail);
	json_decref(b->artifacts);
	memset(b, 0, sizeof(*b));
}

char *ab_build_log_tail(const struct ab_build *b, int max_lines)
{
	char *text = NULL, *p;
	size_t len = 0;
	int lines = 0;

	if (ab_read_file(&text, &len, b->log_path) < 0)
		return ab_xstrdup("");
	p = text + len;
	if (p > text && p[-1] == '\n')
		p--;
	while (p > text) {
		if (p[-1] == '\n' && ++lines >= max_lines)
			break;
		p--;
	}
	p = ab_xstrdup(p);
	free(text);
	return p;
}

char *ab_build_identity(char *const *commands)
{
	static char *const defaults[] = {"cc --version", NULL};
	char *out = ab_xstrdup("");
	char *const *c;

	for (c = commands ? commands : defaults; *c; c++) {
		struct ab_runner_spec rs;
		struct ab_runner_result rr;
		char *next;

		memset(&rs, 0, sizeof(rs));
		rs.shell = *c;
		rs.cwd = "/";
		rs.stdin_null = 1;
		rs.timeout_ms = 30000;
		rs.output_cap = 65536;
		if (ab_runner_run(&rr, &rs) < 0)
			next = ab_xasprintf("%s$ %s\n(could not run: %s)\n", out, *c, ab_error_last());
		else
			next = ab_xasprintf("%s$ %s\n%s", out, *c, rr.out.data ? rr.out.data : "");
		ab_runner_result_release(&rr);
		free(out);
		out = next;
	}
	return out;
}
