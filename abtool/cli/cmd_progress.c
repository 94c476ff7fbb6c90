/* cmd_progress.c - what a measuring command prints while it builds and
 * measures: the progress line (a bar on a terminal, a line per sweep in
 * CI), builds, failed samples and the warnings about the revisions (the
 * run's events; see cmd.h). */
#include "cmd.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/*
 * The progress line on a terminal (docs/cli.md, "Progress"): one line
 * on stderr, redrawn in place ("\r", ESC [K) and fitted to the
 * terminal's width so that it never wraps into a second line. The width
 * is read again after SIGWINCH. A clock thread redraws it once a second
 * while a side builds and while a sample runs, so that the elapsed clock
 * moves during a 4-second sample.
 *
 * The clock must not perturb what is measured. It sleeps in poll(2) on a
 * timerfd, which the main thread arms when a build or a sample starts,
 * for one second later and each second after (timerfd_settime: a system
 * call, no wake-up of any thread); re-arming at the next sample pushes
 * the expiry back. So a sample shorter than a second, the common case,
 * never wakes the thread, and a longer one sees a redraw a second: one
 * line, as wide as the terminal at most, written by this thread; nothing
 * in the runner's loop (runner.c's supervise polls only the child's
 * pipes and pidfd, and its clock readings are untouched), nothing the
 * child's CPU time counts (its few microseconds fall in other_cpu_ns,
 * whose ticks are 10 ms). `lock` orders the clock's redraws with the main thread's
 * drawing and erasing; `mode` says what the clock redraws, CLOCK_NONE
 * once anything erased the line.
 */
enum { CLOCK_NONE, CLOCK_BUILD, CLOCK_SAMPLE };

static struct {
	pthread_mutex_t lock;
	pthread_t clock;
	int clock_running, timer_fd, stop_fd, mode;
	char build_side[16], build_oid[16];
	int build_cached;
	int64_t build_start_ns;
	/* the sample being measured: its row, "pair 3" or "warmup 1", its side's name */
	char *row, what[48], *side;
	size_t done, total;
	int64_t eta_ns, sample_start_ns;
	struct cmd_output *out;
	int columns;
	size_t drawn;  /* columns of the line on screen, 0 when none */
} pr = { .lock = PTHREAD_MUTEX_INITIALIZER, .timer_fd = -1, .stop_fd = -1 };

static volatile sig_atomic_t winch = 1;

static void on_winch(int sig)
{
	(void)sig;
	winch = 1;
}

/* "m:ss", or "h:mm:ss" from an hour. */
static const char *clock_text(char *buf, size_t size, int64_t ns)
{
	long t = ns > 0 ? (long)(ns / 1000000000) : 0;

	if (t >= 3600)
		snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
	return buf;
}

/* What the progress calls side `side` (0 or 1): a comparison's side by
 * its name (compare -n), else "parent" or "candidate" (borrowed). */
static const char *side_label(const struct cmd_output *out, int side)
{
	const struct ab_experiment *exp = out->run ? out->run->exp : NULL;

	if (exp && exp->has_sides && (side == 0 || side == 1) && exp->sides[side].name &&
	    *exp->sides[side].name)
		return exp->sides[side].name;
	return ab_side_name((enum ab_side)side);
}

/* Write all of `buf` to stderr's fd. */
static void write_stderr(const char *buf, size_t n)
{
	fflush(stderr);
	for (size_t i = 0; i < n;) {
		ssize_t w = write(STDERR_FILENO, buf + i, n - i);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		i += (size_t)w;
	}
}

/* What erases the line on screen into buf (>= 32 bytes): "\r" ESC [K;
 * after the terminal shrank below the line, a terminal that reflows
 * (tmux, VTE, kitty, iTerm2) has wrapped it into several rows, so go up
 * to its first row and erase to the end of the screen. Reads the width
 * again after SIGWINCH. pr.lock held. */
static void erase_seq(char *buf, size_t size)
{
	size_t up = 0;

	if (winch) {
		winch = 0;
		pr.columns = cmd_fd_columns(STDERR_FILENO);
	}
	if (pr.drawn > (size_t)pr.columns)
		up = (pr.drawn - 1) / (size_t)pr.columns;
	if (up)
		snprintf(buf, size, "\r\033[%zuA\033[J", up);
	else
		snprintf(buf, size, "\r\033[K");
}

/* Draw `text` as the progress line, cut to the width minus three
 * columns: a line that fills the last column wraps on some terminals,
 * and the terminal echoes Ctrl-C as "^C" after it, which must not wrap
 * into a line the erase cannot reach. Called with pr.lock held. */
static void draw_locked(struct cmd_output *out, const char *text)
{
	char *line, *buf, erase[32];

	erase_seq(erase, sizeof(erase));
	line = cmd_one_line(text, pr.columns > 4 ? (size_t)pr.columns - 3 : 1);
	buf = ab_xasprintf("%s%s", out->progress_dirty ? erase : "\r\033[K", line);
	write_stderr(buf, strlen(buf));
	pr.drawn = cmd_text_width(line);
	out->progress_dirty = 1;
	free(buf);
	free(line);
}

/* The build's line: "building parent 649e2385c0 · 0:07". pr.lock held. */
static void draw_build_locked(void)
{
	char t[32], *text;

	text = ab_xasprintf("%s %s %s%s%s", pr.build_cached ? "preparing" : "building", pr.build_side,
			    pr.build_oid, pr.columns >= 60 ? " · " : " ",
			    clock_text(t, sizeof(t), ab_now_ns() - pr.build_start_ns));
	draw_locked(pr.out, text);
	free(text);
}

/* The bar of `done` of `total` in `cells` cells: "[=====>    ]". */
static void bar(char *buf, size_t cells, size_t done, size_t total)
{
	size_t fill = total ? done * cells / total : 0, i;

	buf[0] = '[';
	for (i = 0; i < cells; i++)
		buf[1 + i] = i < fill ? '=' : i == fill ? '>' : ' ';
	buf[1 + cells] = ']';
	buf[2 + cells] = '\0';
}

/*
 * The sample's line at `now` in at most `max` columns: the row, the pair
 * (or warmup) and the side's full name always, since they say what runs;
 * the rest shortened first, in this order: the bar to 6 cells, no bar,
 * no words between the numbers, no ETA, no clock (what is left is cut
 * by draw_locked). The ETA counts down from its estimate at the sample's
 * start. pr.lock held. New string.
 */
static char *sample_text(int64_t now, size_t max)
{
	char b[48] = "", el[32], eta[32] = "", *what, *text = NULL;
	int64_t left = pr.eta_ns >= 0 ? pr.eta_ns - (now - pr.sample_start_ns) : -1;
	int level;

	what = ab_xasprintf("%s %s %s", pr.row, pr.what, pr.side);
	clock_text(el, sizeof(el), now - pr.out->measure_start_ns);
	if (pr.eta_ns >= 0)
		clock_text(eta, sizeof(eta), left > 0 ? left : 0);
	for (level = 0; level <= 6; level++) {
		free(text);
		if (level <= 1)
			bar(b, level ? 6 : max >= 97 ? 24 : 12, pr.done, pr.total);
		else
			b[0] = '\0';
		if (level <= 2)
			text = ab_xasprintf("%s%s%zu/%zu samples · %s elapsed%s%s · %s", b, *b ? " " : "",
					    pr.done, pr.total, el, *eta ? " · ETA " : "", eta, what);
		else if (level <= 5)
			text = ab_xasprintf("%zu/%zu%s%s%s%s %s", pr.done, pr.total, level <= 4 ? " " : "",
					    level <= 4 ? el : "", level <= 3 && *eta ? " ETA " : "",
					    level <= 3 ? eta : "", what);
		else
			text = ab_xstrdup(what);
		if (cmd_text_width(text) <= max)
			break;
	}
	free(what);
	return text;
}

/* The sample's line, drawn now. pr.lock held. */
static void draw_sample_locked(void)
{
	char *text = sample_text(ab_now_ns(), pr.columns > 4 ? (size_t)pr.columns - 3 : 1);

	draw_locked(pr.out, text);
	free(text);
}

/* The clock thread: asleep until the timer expires (a second into a
 * build or a sample, then each second) or it is told to stop; redraws
 * the line of pr.mode. */
static void *clock_main(void *arg)
{
	struct pollfd pfd[2] = {{pr.timer_fd, POLLIN, 0}, {pr.stop_fd, POLLIN, 0}};
	uint64_t expirations;

	(void)arg;
	for (;;) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents)
			break;
		/* non-blocking: re-armed since the poll, it has nothing to read */
		if (!(pfd[0].revents & POLLIN) ||
		    read(pr.timer_fd, &expirations, sizeof(expirations)) != (ssize_t)sizeof(expirations))
			continue;
		pthread_mutex_lock(&pr.lock);
		if (pr.mode == CLOCK_BUILD)
			draw_build_locked();
		else if (pr.mode == CLOCK_SAMPLE)
			draw_sample_locked();
		pthread_mutex_unlock(&pr.lock);
	}
	return NULL;
}

/* Start the clock thread and its timer, once, with every signal blocked
 * in the thread: SIGINT and SIGTERM must reach the main thread, whose
 * waits they interrupt. Without a timerfd there is no clock: the line
 * is redrawn when the next sample starts. */
static void clock_start(void)
{
	sigset_t all, old;

	if (pr.clock_running)
		return;
	pr.timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	pr.stop_fd = eventfd(0, EFD_CLOEXEC);
	if (pr.timer_fd >= 0 && pr.stop_fd >= 0) {
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		pr.clock_running = pthread_create(&pr.clock, NULL, clock_main, NULL) == 0;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (!pr.clock_running) {
		if (pr.timer_fd >= 0)
			close(pr.timer_fd);
		if (pr.stop_fd >= 0)
			close(pr.stop_fd);
		pr.timer_fd = pr.stop_fd = -1;
	}
}

/* Stop the clock thread, if it runs (the end of the measuring). */
static void clock_stop(void)
{
	uint64_t one = 1;

	if (!pr.clock_running)
		return;
	if (write(pr.stop_fd, &one, sizeof(one)) != (ssize_t)sizeof(one))
		abort();  /* an eventfd's counter cannot overflow from 0 */
	pthread_join(pr.clock, NULL);
	close(pr.timer_fd);
	close(pr.stop_fd);
	pr.timer_fd = pr.stop_fd = -1;
	pr.clock_running = 0;
}

/* Redraw the line of `mode` a second from now and each second after
 * (timerfd_settime replaces an earlier setting), or with CLOCK_NONE
 * never. pr.lock held. */
static void clock_set_locked(int mode)
{
	struct itimerspec its;

	memset(&its, 0, sizeof(its));
	if (mode != CLOCK_NONE) {
		clock_start();
		its.it_value.tv_sec = its.it_interval.tv_sec = 1;
	}
	pr.mode = mode;
	if (pr.timer_fd >= 0)
		timerfd_settime(pr.timer_fd, 0, &its, NULL);
}

/* Erase the progress line before printing anything else. */
void cmd_clear_progress(struct cmd_output *out)
{
	pthread_mutex_lock(&pr.lock);
	clock_set_locked(CLOCK_NONE);
	if (out->progress_dirty) {
		char erase[32];

		erase_seq(erase, sizeof(erase));
		write_stderr(erase, strlen(erase));
		out->progress_dirty = 0;
	}
	pr.drawn = 0;
	pthread_mutex_unlock(&pr.lock);
}

void cmd_progress_init(struct cmd_output *out)
{
	const char *ci = getenv("CI");
	struct sigaction sa;

	out->progress = !out->quiet && cmd_fd_smart_terminal(STDERR_FILENO);
	out->ci_lines = !out->quiet && !isatty(STDERR_FILENO) && ci && *ci;
	out->sweep = -1;
	out->eta_ns = -1;
	if (!out->progress)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_winch;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGWINCH, &sa, NULL);
	winch = 1;
}

/* The CI line of a completed sweep: pair `sweep` (0-based) of every row. */
static void print_sweep(struct cmd_output *out, int sweep)
{
	char t[32], e[32];
	int pairs = 0;
	size_t i;

	for (i = 0; out->run && i < out->run->nsamples; i++)
		if (out->run->samples[i].entry.pair + 1 > pairs)
			pairs = out->run->samples[i].entry.pair + 1;
	fprintf(stderr, "abtool: sweep %d of %d done (pair %d of every row) · %zu/%zu samples · %s "
		"elapsed%s%s\n", sweep + 1, pairs, sweep + 1, out->done, out->total,
		clock_text(t, sizeof(t), out->measure_start_ns ? ab_now_ns() - out->measure_start_ns : 0),
		out->eta_ns >= 0 ? " · ETA " : "", out->eta_ns >= 0 ? clock_text(e, sizeof(e), out->eta_ns) : "");
}

void cmd_progress_end(struct cmd_output *out, int completed)
{
	cmd_clear_progress(out);
	clock_stop();
	pthread_mutex_lock(&pr.lock);
	free(pr.row);
	free(pr.side);
	pr.row = pr.side = NULL;
	pthread_mutex_unlock(&pr.lock);
	if (out->ci_lines && completed && out->sweep >= 0) {
		out->done = out->total;
		out->eta_ns = -1;
		print_sweep(out, out->sweep);
		out->sweep = -1;
	}
}

static void on_build_start(void *ctx, const char *side, const char *oid, int cached)
{
	struct cmd_output *out = ctx;

	if (out->quiet)
		return;
	cmd_clear_progress(out);
	if (!out->progress)
		return;
	pthread_mutex_lock(&pr.lock);
	pr.out = out;
	snprintf(pr.build_side, sizeof(pr.build_side), "%s", side);
	snprintf(pr.build_oid, sizeof(pr.build_oid), "%.10s", oid ? oid : "");
	pr.build_cached = cached;
	pr.build_start_ns = ab_now_ns();
	if (winch) {
		winch = 0;
		pr.columns = cmd_fd_columns(STDERR_FILENO);
	}
	draw_build_locked();
	clock_set_locked(CLOCK_BUILD);
	pthread_mutex_unlock(&pr.lock);
}

static void on_build_done(void *ctx, const char *side, const struct ab_build *b)
{
	struct cmd_output *out = ctx;
	char t[32];

	cmd_clear_progress(out);
	if (out->quiet && b->status == AB_BUILD_OK)
		return;
	if (b->damaged && !out->quiet)
		fprintf(stderr, "%s: the cached build was damaged (%s); built it again\n", side,
			b->damaged);
	if (b->status == AB_BUILD_NO_ARTIFACT) {
		/* the build succeeded: its log is not about the artifact */
		fprintf(stderr, "abtool: %s build: %s (the build %s and succeeded; its log is in %s)\n",
			side, b->detail, b->cached ? "was reused from the cache" : "ran", b->log_path);
	} else if (b->status != AB_BUILD_OK) {
		char *tail = ab_build_log_tail(b, 20);
		fprintf(stderr, "abtool: %s build failed (%s); last lines of %s:\n%s%s", side,
			b->detail ? b->detail : ab_build_status_name(b->status), b->log_path, tail,
			*tail && tail[strlen(tail) - 1] != '\n' ? "\n" : "");
		free(tail);
	} else if (out->progress) {
		/* on a terminal one short line; the folder is in `abtool show` */
		char *line = b->cached ? ab_xasprintf("%s: build cached", side)
			     : b->no_command ? ab_xasprintf("%s: tree ready, no build command", side)
			     : ab_xasprintf("%s: built in %s", side,
					    ab_format_ns(t, sizeof(t), (double)b->duration_ns));
		char *cut = cmd_one_line(line, (size_t)cmd_fd_columns(STDERR_FILENO));

		fprintf(stderr, "%s\n", cut);
		free(cut);
		free(line);
	} else if (b->cached) {
		fprintf(stderr, "%s: build cached (%s)\n", side, b->dir);
	} else if (b->no_command) {
		fprintf(stderr, "%s: tree ready, no build command (%s)\n", side, b->dir);
	} else {
		fprintf(stderr, "%s: built in %s\n", side, ab_format_ns(t, sizeof(t), (double)b->duration_ns));
	}
}

/*
 * Before each sample: on a terminal the bar, samples done of planned,
 * elapsed, ETA and the row, pair and side measured, fitted to the width
 * (sample_text) and redrawn each second while the sample runs (the
 * clock); in CI a line per completed sweep. No ratio or interval: the
 * plan is fixed, and numbers that look good mid-run invite stopping
 * early.
 */
static void on_sample_start(void *ctx, const struct ab_plan_entry *e, const char *row, size_t done,
			    size_t total, int64_t eta_ns)
{
	struct cmd_output *out = ctx;

	if (!out->measure_start_ns)
		out->measure_start_ns = ab_now_ns();
	out->done = done;
	out->total = total;
	out->eta_ns = eta_ns;
	if (out->ci_lines && e->pair > out->sweep) {
		if (out->sweep >= 0)
			print_sweep(out, out->sweep);
		out->sweep = e->pair;
	}
	if (!out->progress)
		return;
	pthread_mutex_lock(&pr.lock);
	if (winch) {
		winch = 0;
		pr.columns = cmd_fd_columns(STDERR_FILENO);
	}
	pr.out = out;
	free(pr.row);
	pr.row = ab_xstrdup(row);
	if (e->pair >= 0)
		snprintf(pr.what, sizeof(pr.what), "pair %d", e->pair + 1);
	else
		snprintf(pr.what, sizeof(pr.what), "warmup %d", e->warmup + 1);
	free(pr.side);
	pr.side = ab_xstrdup(side_label(out, e->side));
	pr.done = done;
	pr.total = total;
	pr.eta_ns = eta_ns;
	pr.sample_start_ns = ab_now_ns();
	draw_sample_locked();
	clock_set_locked(CLOCK_SAMPLE);
	pthread_mutex_unlock(&pr.lock);
}

/* The last 2000 bytes of a captured stream. */
static void print_tail(const char *what, const char *text)
{
	size_t len = text ? strlen(text) : 0;

	if (len)
		fprintf(stderr, "--- its %s (tail) ---\n%s%s", what, len > 2000 ? text + len - 2000 : text,
			text[len - 1] == '\n' ? "" : "\n");
}

/* How to reproduce a failed sample: its folder and command, by hand. */
static void print_sample_hint(const struct ab_run *run, const struct ab_sample *s)
{
	struct ab_command cmd;
	char *dir, *quoted, *line;

	if (!run || !run->exp || !run->builds[s->entry.side].dir ||
	    ab_command_expand(&cmd, &run->exp->benchmark, run->exp, s->entry.row) < 0)
		return;
	dir = ab_path_absolute(run->builds[s->entry.side].dir, run->exp->workdir);
	quoted = ab_shell_quote(dir, 1);
	line = ab_command_display(&cmd);
	fprintf(stderr, "abtool: %sto see why, run it by hand: cd %s && %s\n",
		s->timed_out ? "if the benchmark is only slow, raise 'timeout:'; " : "", quoted, line);
	free(line);
	free(quoted);
	free(dir);
	ab_command_release(&cmd);
}

static void on_sample_done(void *ctx, const struct ab_sample *s, const char *row)
{
	struct cmd_output *out = ctx;
	const char *reads;
	char t[32];

	if (!ab_sample_ok(s)) {
		cmd_clear_progress(out);
		fprintf(stderr, "abtool: %s: %s sample %u failed: %s\n", row,
			side_label(out, s->entry.side), s->entry.seq, s->error ? s->error : "failed");
		/* A benchmark that ran to exit 0 failed on its output: show it. */
		if (s->exit_code == 0 && !s->signal && !s->timed_out)
			print_tail("stdout", s->stdout_text);
		print_tail("stderr", s->stderr_text);
		print_sample_hint(out->run, s);
		return;
	}
	reads = out->run && out->run->exp ? ab_experiment_stdout_reads(out->run->exp) : NULL;
	/* Only what was read from the kept text is affected (checksum
	 * {stdout: sha256} hashes the whole stream). */
	if ((s->flags & AB_FLAG_OUTPUT_TRUNCATED) && reads && !out->warned_truncated && !out->quiet) {
		cmd_clear_progress(out);
		cmd_warn("%s: %s sample %u printed more output than abtool keeps (the first 1 MiB and the "
			 "last 64 KiB of stdout and of stderr; flagged output_truncated): %s come from "
			 "what was kept; print less", row, side_label(out, s->entry.side),
			 s->entry.seq, reads);
		out->warned_truncated = 1;
	}
	if (out->verbose) {
		cmd_clear_progress(out);
		fprintf(stderr, "%s %s %s %s checksum %s\n", row,
			s->entry.pair >= 0 ? "pair" : "warmup", side_label(out, s->entry.side),
			ab_format_ns(t, sizeof(t), (double)s->wall_ns), s->checksum ? s->checksum : "-");
	}
}

static void on_build_waiting(void *ctx, const char *lock_path)
{
	struct cmd_output *out = ctx;

	if (out->quiet)
		return;
	cmd_clear_progress(out);
	fprintf(stderr, "abtool: another abtool is building the same tree; waiting for %s\n", lock_path);
}

/* A sequential plan's look is over: where the rows stand (stopping at a
 * look is valid, so showing it invites no peeking). */
static void on_look_done(void *ctx, size_t k, size_t pairs, size_t decided, size_t running, int budget,
			 int last, char *const *rows)
{
	struct cmd_output *out = ctx;
	char *const *r;

	if (out->quiet)
		return;
	cmd_clear_progress(out);
	if (budget)
		fprintf(stderr, "look %zu (%zu pairs): the budget is spent; %zu undecided row%s stop%s here "
			"(inconclusive)\n", k + 1, pairs, running, running == 1 ? "" : "s", running == 1 ? "s" : "");
	else if (running && last)
		fprintf(stderr, "look %zu (%zu pairs, the last): %zu row%s decided, %zu undecided row%s stop%s "
			"here (inconclusive)\n", k + 1, pairs, decided, decided == 1 ? "" : "s", running,
			running == 1 ? "" : "s", running == 1 ? "s" : "");
	else if (running)
		fprintf(stderr, "look %zu (%zu pairs): %zu row%s decided, %zu run%s on\n", k + 1, pairs, decided,
			decided == 1 ? "" : "s", running, running == 1 ? "s" : "");
	else
		fprintf(stderr, "look %zu (%zu pairs): every row is decided\n", k + 1, pairs);
	/* one line per row, cut to a terminal's width (the report has it all) */
	for (r = rows; r && *r; r++)
		fprintf(stderr, "  %.*s\n", isatty(2) ? cmd_fd_columns(2) - 3 : (int)strlen(*r), *r);
}

/* Before the builds: what the user should know about the plan and the
 * revisions. A plan whose rows stop before the fewest pairs that can give
 * an exact one-sided 95% bound (the smallest n with 2^-n <= 0.05 for the
 * sign-flip distribution of Wilcoxon's signed-rank statistic: 5) can only
 * be inconclusive: said now, not after the run. */
static void on_resolved(void *ctx, const struct ab_run *run)
{
	struct cmd_output *out = ctx;
	const struct ab_experiment *exp = run->exp;
	int most = exp->sequential && exp->seq.nlooks ? (int)exp->seq.looks[exp->seq.nlooks - 1]
						       : exp->pairs;
	int least;

	if (out->quiet)
		return;
	for (least = 1; ldexp(1, -least) > 0.05; least++)
		;
	if (most > 0 && most < least && strcmp(run->kind, "calibrate"))
		cmd_warn("%d pair%s per row at most: an exact one-sided 95%% bound needs %d (2^-%d <= 0.05), so "
			 "every inferential rule can only be inconclusive; plan 8 or more (--pairs, compare -r)",
			 most, most == 1 ? "" : "s", least, least);
	cmd_print_host(run->host);
	if (run->exp->has_sides)  /* two commands: no revisions to warn of */
		return;
	if (run->dirty)
		cmd_warn("the work tree of '%s' has uncommitted changes: they are not measured, only "
			 "commits are (commit them, or measure them in a commit of their own)",
			 run->revs.workdir ? run->revs.workdir : run->exp->repo);
	if (!run->revs.exact_parent && strcmp(run->kind, "calibrate"))
		cmd_warn("parent %.10s is not the exact parent of candidate %.10s (exact_parent: false "
			 "or --parent)", run->revs.parent_hex, run->revs.candidate_hex);
	if (run->revs.parent_descends)
		cmd_warn_swapped(&run->revs);
	if (run->candidate_only_experiment)
		cmd_warn("the candidate %.10s changes only the experiment file '%s': this run compares a "
			 "build with itself (measured because --candidate names it; the change is in its "
			 "parent %.10s)", run->revs.candidate_hex, run->exp->path, run->revs.parent_hex);
}

struct ab_run_events cmd_run_events(struct cmd_output *out)
{
	struct ab_run_events ev;

	memset(&ev, 0, sizeof(ev));
	ev.ctx = out;
	ev.build_start = on_build_start;
	ev.build_done = on_build_done;
	ev.build_waiting = on_build_waiting;
	ev.sample_start = on_sample_start;
	ev.sample_done = on_sample_done;
	ev.look_done = on_look_done;
	ev.resolved = on_resolved;
	return ev;
}
