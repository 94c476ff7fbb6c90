/* build.c - the build cache (see build.h). */
#include "build.h"
#include "error.h"
#include "revs.h"
#include "runner.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
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

/* Hold the entry at `dir` in use: a shared flock on DIR.use, kept until
 * ab_build_release, and its modification time set to now (the entry's
 * last use). Called under the entry's exclusive KEY.lock, which a prune
 * takes before it tries KEY.use, so the shared lock never waits. */
static int hold_in_use(struct ab_build *b)
{
	char *path = ab_xasprintf("%s.use", b->dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0 || flock(fd, LOCK_SH) < 0) {
		int err = ab_error_set(AB_EIO, "cannot lock '%s' for use: %s", path, strerror(errno));

		if (fd >= 0)
			close(fd);
		free(path);
		return err;
	}
	futimens(fd, NULL);
	free(path);
	b->use_fd = fd;
	b->in_use = 1;
	return 0;
}

/* Read the state file of a finished build; 1 when it says "ok". *tree_stat
 * is its record of the tree (new string), or NULL. */
static int read_state(const char *state_path, struct ab_build *b, char **tree_stat)
{
	json_t *state = json_load_file(state_path, 0, NULL);
	const char *status = json_string_value(json_object_get(state, "status"));
	const char *stat_hex = json_string_value(json_object_get(state, "tree_stat"));
	int ok = 0;

	*tree_stat = NULL;
	if (status && !strcmp(status, "ok")) {
		ok = 1;
		*tree_stat = stat_hex ? ab_xstrdup(stat_hex) : NULL;
		b->duration_ns = json_integer_value(json_object_get(state, "duration_ns"));
		json_decref(b->artifacts);
		b->artifacts = json_incref(json_object_get(state, "artifacts"));
		if (!b->artifacts)
			b->artifacts = json_object();
	}
	json_decref(state);
	return ok;
}

/* nftw's callback state of find_same_name (nftw passes no context). */
static struct {
	const char *name;   /* the file name looked for */
	size_t root_len;    /* of the tree's path, to make paths relative */
	char **found;
	size_t n;
} same_name_walk;

static int same_name_visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	if (type == FTW_D && !strcmp(path + ftw->base, ".git"))
		return FTW_SKIP_SUBTREE;
	if (type != FTW_D && type != FTW_DP && !strcmp(path + ftw->base, same_name_walk.name) &&
	    same_name_walk.n < 8) {
		ab_strv_push(&same_name_walk.found, ab_xstrdup(path + same_name_walk.root_len + 1));
		same_name_walk.n++;
	}
	return FTW_CONTINUE;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of the tree `dir` (outside .git) whose file name is the last
 * component of `artifact`, relative to `dir`, sorted, at most 8
 * (NULL-terminated new array, or NULL when none). */
static char **find_same_name(const char *dir, const char *artifact)
{
	const char *slash = strrchr(artifact, '/');
	char **out;

	memset(&same_name_walk, 0, sizeof(same_name_walk));
	same_name_walk.name = slash ? slash + 1 : artifact;
	same_name_walk.root_len = strlen(dir);
	if (*same_name_walk.name)
		nftw(dir, same_name_visit, 16, FTW_PHYS | FTW_ACTIONRETVAL);
	out = same_name_walk.found;
	if (out)
		qsort(out, same_name_walk.n, sizeof(*out), compare_strings);
	memset(&same_name_walk, 0, sizeof(same_name_walk));
	return out;
}

/* The strings of `v` joined by ", " (new string). */
static char *join_list(char *const *v)
{
	char *out = ab_xstrdup(""), *next;

	for (; v && *v; v++) {
		next = ab_xasprintf("%s%s%s", out, *out ? ", " : "", *v);
		free(out);
		out = next;
	}
	return out;
}

/* Mark the build as missing the declared artifact `a`: its status, the
 * artifact, the files of the tree with its name, and the detail that says
 * all three. */
static void missing_artifact(struct ab_build *b, const char *a)
{
	char *list;

	b->status = AB_BUILD_NO_ARTIFACT;
	free(b->missing);
	b->missing = ab_xstrdup(a);
	ab_strv_free(b->same_name);
	b->same_name = find_same_name(b->dir, a);
	list = b->same_name ? join_list(b->same_name) : NULL;
	free(b->detail);
	b->detail = list ? ab_xasprintf("artifact '%s' was not found in the tree; files in the tree "
					"with that name: %s", a, list)
			 : ab_xasprintf("artifact '%s' was not found in the tree, nor any file of "
					"that name", a);
	free(list);
}

static int hash_artifacts(struct ab_build *b, char *const *artifacts)
{
	char *const *a;

	for (a = artifacts; a && *a; a++) {
		char hex[65], *path = ab_path_join(b->dir, *a);
		int err = ab_sha256_file(hex, path);

		free(path);
		if (err == AB_ENOTFOUND) {
			missing_artifact(b, *a);
			return 0;
		}
		if (err < 0)
			return err;
		json_object_set_new(b->artifacts, *a, json_string(hex));
	}
	return 0;
}

/* Add the stat data of every file the git index of the repository at
 * `dir` lists to ctx: path, then size, mode, inode, mtime and ctime (the
 * fields git's index keeps to notice a change without reading the
 * file), or "-" for a file that is gone. -1 when the index cannot be
 * read (no repository there any more). */
static int stat_index(struct ab_sha256 *ctx, const char *dir)
{
	git_repository *repo = NULL;
	git_index *index = NULL;
	size_t i, n;
	int err = -1;

	if (git_repository_open_ext(&repo, dir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0 ||
	    git_repository_index(&index, repo) < 0)
		goto out;
	n = git_index_entrycount(index);
	for (i = 0; i < n; i++) {
		const git_index_entry *e = git_index_get_byindex(index, i);
		char *path = ab_path_join(dir, e->path), line[160];
		struct stat st;

		field(ctx, e->path);
		if (lstat(path, &st) < 0)
			snprintf(line, sizeof(line), "-");
		else
			snprintf(line, sizeof(line), "%lld %o %llu %lld.%09ld %lld.%09ld",
				 (long long)st.st_size, (unsigned)st.st_mode,
				 (unsigned long long)st.st_ino, (long long)st.st_mtim.tv_sec,
				 st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
		field(ctx, line);
		free(path);
	}
	err = 0;
out:
	git_index_free(index);
	git_repository_free(repo);
	return err;
}

/* The SHA-256 of the stat data of the tree's tracked files and of each
 * dependency's (stat_index), into hex: recorded after the build, compared
 * before a reuse. A benchmark that deletes, rewrites or touches a file of
 * its tree changes it; one that only adds untracked files does not (the
 * declared artifacts are checked by their hashes). -1 when an index is
 * gone. Costs one lstat per tracked file. */
static int tree_stat(char hex[65], const char *dir, const struct ab_build_spec *spec)
{
	struct ab_sha256 *ctx = ab_sha256_new();
	int err;
	size_t i;

	ab_revs_global_init();
	field(ctx, "abtool-tree-stat-v1");
	err = stat_index(ctx, dir);
	for (i = 0; i < spec->ndeps && err == 0; i++) {
		char *at = ab_path_join(dir, spec->deps[i].path);

		field(ctx, spec->deps[i].path);
		err = stat_index(ctx, at);
		free(at);
	}
	ab_sha256_final(ctx, hex);
	return err;
}

/*
 * Is the cached tree still the one its build left? Its declared artifacts
 * must exist and hash as recorded (one the build was not asked for is
 * hashed now), and its tracked files' stat data must be as recorded.
 * NULL when it is, with b->artifacts the declared ones' hashes; else why
 * not (new string).
 */
static char *cached_damage(struct ab_build *b, const struct ab_build_spec *spec,
			   const char *recorded_stat)
{
	json_t *now = json_object();
	char *const *a;
	char hex[65];

	for (a = spec->artifacts; a && *a; a++) {
		char *path = ab_path_join(b->dir, *a);
		const char *was = json_string_value(json_object_get(b->artifacts, *a));
		int err = ab_sha256_file(hex, path);

		free(path);
		if (err < 0 || (was && strcmp(was, hex))) {
			json_decref(now);
			/* not hashed by the entry's build: it may never have been there */
			return err == AB_ENOTFOUND && !was ? ab_xasprintf("artifact '%s' is not in it", *a)
			       : err == AB_ENOTFOUND ? ab_xasprintf("artifact '%s' is gone", *a)
			       : err < 0 ? ab_xasprintf("artifact '%s' cannot be read", *a)
			       : ab_xasprintf("artifact '%s' changed since it was built", *a);
		}
		json_object_set_new(now, *a, json_string(hex));
	}
	json_decref(b->artifacts);
	b->artifacts = now;
	if (!recorded_stat)
		return ab_xstrdup("the entry has no record of its tree (made by an older abtool)");
	if (tree_stat(hex, b->dir, spec) < 0)
		return ab_xstrdup("its git repository (.git) is gone or unreadable");
	if (strcmp(hex, recorded_stat))
		return ab_xstrdup("files git tracks in it were changed, touched or deleted since "
				  "it was built");
	return NULL;
}

/* The samples' scratch directory of the tree `dir` (ABTOOL_SCRATCH): next
 * to it, one per abtool process (concurrent runs may share a tree), of
 * the same length for both sides. New string. */
static char *scratch_path(const char *dir)
{
	return ab_xasprintf("%s.scratch-%ld", dir, (long)getpid());
}

/* Remove the scratch directories of the tree `dir` whose abtool is gone
 * (DIR.scratch-PID of a process that no longer exists: a run killed with
 * SIGKILL, or one that died before ab_build_release). Those of live
 * processes stay: another run may share the tree. Called under the
 * entry's lock; what cannot be removed is left for `abtool cache prune`. */
static void remove_dead_scratch(const char *dir)
{
	const char *slash = strrchr(dir, '/');
	char *parent = slash ? ab_xstrndup(dir, slash == dir ? 1 : (size_t)(slash - dir)) : ab_xstrdup(".");
	char *prefix = ab_xasprintf("%s.scratch-", slash ? slash + 1 : dir);
	size_t n = strlen(prefix);
	struct dirent *de;
	DIR *d = opendir(parent);

	while (d && (de = readdir(d))) {
		char *end, *path;
		long pid;

		if (strncmp(de->d_name, prefix, n))
			continue;
		errno = 0;
		pid = strtol(de->d_name + n, &end, 10);
		if (*end || errno || pid <= 0 || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		path = ab_path_join(parent, de->d_name);
		ab_remove_tree(path);
		free(path);
	}
	if (d)
		closedir(d);
	free(prefix);
	free(parent);
}

/* An empty scratch directory for the tree (and none left by dead runs). */
static int reset_scratch(const char *dir)
{
	char *path = scratch_path(dir);
	int err = ab_remove_tree(path);

	remove_dead_scratch(dir);

	if (err == 0)
		err = ab_mkdir_p(path);
	free(path);
	return err;
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
	if (dir) {
		char *scratch = scratch_path(dir);

		ab_strv_push(&out, ab_xasprintf("ABTOOL_SCRATCH=%s", scratch));
		free(scratch);
	}
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
	char *lock_path = NULL, *state_path = NULL, *recorded_stat = NULL, hex[65];
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

	if (read_state(state_path, out, &recorded_stat) && access(out->dir, F_OK) == 0) {
		/* Samples run in the tree: one may have deleted or changed
		 * it. Then it is built again, and the caller says why. */
		if (!(out->damaged = cached_damage(out, spec, recorded_stat))) {
			out->cached = 1;
			if ((err = reset_scratch(out->dir)) == 0)
				err = hold_in_use(out);
			goto out;
		}
		out->duration_ns = 0;
	}
	json_object_clear(out->artifacts);

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
	if ((err = reset_scratch(out->dir)) < 0)
		goto out;
	if (spec->command && (spec->command->shell || spec->command->argv)) {
		if ((err = run_build(out, spec)) < 0)
			goto out;
	} else {
		close(open(out->log_path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666));
	}
	if (out->status == AB_BUILD_OK && (err = hash_artifacts(out, spec->artifacts)) < 0)
		goto out;
	if (out->status == AB_BUILD_OK) {
		json_t *state;
		char *text;

		if (tree_stat(hex, out->dir, spec) < 0) {
			out->status = AB_BUILD_FAILED;
			out->detail = ab_xstrdup("the build removed the tree's git repository (.git), "
						 "which abtool checks the tree against before reusing it");
			goto out;
		}
		state = json_pack("{s:s, s:s, s:I, s:O, s:s, s:I}", "status", "ok",
				  "commit", git_oid_tostr_s(spec->commit),
				  "duration_ns", (json_int_t)out->duration_ns,
				  "artifacts", out->artifacts, "tree_stat", hex,
				  "created_unix", (json_int_t)time(NULL));
		text = json_dumps(state, JSON_INDENT(2));
		err = ab_write_file(state_path, text, strlen(text));
		free(text);
		json_decref(state);
		if (err == 0)
			err = reset_scratch(out->dir);
		if (err == 0)
			err = hold_in_use(out);
	}
out:
	if (fd >= 0)
		close(fd);  /* releases the flock */
	free(builds);
	free(lock_path);
	free(state_path);
	free(recorded_stat);
	return err;
}

void ab_build_release(struct ab_build *b)
{
	if (b->dir) {
		char *scratch = scratch_path(b->dir);

		ab_remove_tree(scratch);
		free(scratch);
	}
	if (b->in_use) {
		futimens(b->use_fd, NULL);  /* the last use is the end of the run */
		close(b->use_fd);
	}
	free(b->damaged);
	free(b->dir);
	free(b->log_path);
	free(b->detail);
	free(b->missing);
	ab_strv_free(b->same_name);
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
