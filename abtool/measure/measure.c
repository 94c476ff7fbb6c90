/* measure.c - per-sample measurement around the runner (see measure.h). */
#include "measure.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

struct counter {
	size_t metric;        /* index in exp->metrics */
	int fd;               /* -1 when unavailable */
	char *why;            /* the reason it is unavailable (new), or NULL */
};

struct ab_measure {
	const struct ab_experiment *exp;
	uint64_t seed;
	long ticks_per_s;
	uint64_t busy_before;       /* jiffies */
	int have_busy;
	struct counter counters[2];
	size_t ncounters;
	long cachegrind;            /* index of cachegrind_instructions, or -1 */
	char *cachegrind_why;       /* valgrind is missing: the reason (new), or NULL */
};

/* Busy jiffies of all CPUs: user, nice, system, irq, softirq, steal. */
static int read_busy(uint64_t *out)
{
	unsigned long long v[8] = {0};
	char line[512];
	FILE *f = fopen("/proc/stat", "re");
	int n;

	if (!f)
		return -1;
	n = fgets(line, sizeof(line), f) ? sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
						   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) : 0;
	fclose(f);
	if (n < 8)
		return -1;
	*out = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	return 0;
}

static char *paranoid_note(void)
{
	char *text = NULL;
	size_t len;
	char *out;

	if (ab_read_file(&text, &len, "/proc/sys/kernel/perf_event_paranoid") < 0)
		return ab_xstrdup("");
	text[strcspn(text, "\n")] = '\0';
	out = ab_xasprintf(" (kernel.perf_event_paranoid=%s)", text);
	free(text);
	return out;
}

static void open_counter(struct counter *c, size_t metric, const char *name)
{
	struct perf_event_attr attr;
	char *note;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = !strcmp(name, "cycles") ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_HW_INSTRUCTIONS;
	attr.disabled = 1;
	attr.inherit = 1;        /* count the sample's process and its children */
	attr.exclude_kernel = 1; /* what an unprivileged user may count */
	attr.exclude_hv = 1;
	c->metric = metric;
	c->fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (c->fd < 0) {
		int e = errno;
		note = paranoid_note();
		c->why = ab_xasprintf("perf_event_open(%s): %s%s", name,
				      e == ENOENT || e == EOPNOTSUPP ? "no such hardware counter on this machine"
								    : strerror(e), note);
		free(note);
	}
}

/* Whether an executable `name` is on the PATH (/usr/bin:/bin without one). */
static int on_path(const char *name)
{
	const char *path = getenv("PATH");
	char *found = ab_path_search(path && *path ? path : "/usr/bin:/bin", name);
	int on = found != NULL;

	free(found);
	return on;
}

struct ab_measure *ab_measure_new(const struct ab_experiment *exp, uint64_t seed)
{
	struct ab_measure *m = ab_xcalloc(1, sizeof(*m));
	size_t i;

	m->exp = exp;
	m->seed = seed;
	m->ticks_per_s = sysconf(_SC_CLK_TCK);
	m->cachegrind = -1;
	for (i = 0; i < exp->nmetrics; i++) {
		const struct ab_metric *metric = &exp->metrics[i];
		if (metric->source == AB_METRIC_PERF && m->ncounters < 2)
			open_counter(&m->counters[m->ncounters++], i, metric->name);
		if (metric->source == AB_METRIC_CACHEGRIND) {
			m->cachegrind = (long)i;
			if (!on_path("valgrind"))
				m->cachegrind_why = ab_xstrdup("valgrind is not installed (apt-get install valgrind)");
		}
	}
	return m;
}

void ab_measure_free(struct ab_measure *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->ncounters; i++) {
		if (m->counters[i].fd >= 0)
			close(m->counters[i].fd);
		free(m->counters[i].why);
	}
	free(m->cachegrind_why);
	free(m);
}

void ab_measure_wrap(const struct ab_measure *m, const struct ab_command *cmd, char ***argv_out)
{
	char *const *a;

	*argv_out = NULL;
	if (m->cachegrind < 0 || m->cachegrind_why)
		return;
	/* Every process of the sample is counted (--trace-children), and
	 * nothing is written but the summary on stderr. */
	ab_strv_push(argv_out, ab_xstrdup("valgrind"));
	ab_strv_push(argv_out, ab_xstrdup("--tool=cachegrind"));
	ab_strv_push(argv_out, ab_xstrdup("--cache-sim=no"));
	ab_strv_push(argv_out, ab_xstrdup("--trace-children=yes"));
	ab_strv_push(argv_out, ab_xstrdup("--cachegrind-out-file=/dev/null"));
	if (cmd->shell) {
		ab_strv_push(argv_out, ab_xstrdup("/bin/sh"));
		ab_strv_push(argv_out, ab_xstrdup("-c"));
		ab_strv_push(argv_out, ab_xstrdup(cmd->shell));
	} else {
		for (a = cmd->argv; a && *a; a++)
			ab_strv_push(argv_out, ab_xstrdup(*a));
	}
}

char *ab_measure_padding(const struct ab_measure *m, const struct ab_plan_entry *e, int32_t *bytes)
{
	uint64_t state;
	size_t n;
	char *out;

	*bytes = -1;
	if (m->exp->env_padding <= 0)
		return NULL;
	state = m->seed ^ ((uint64_t)e->row << 40) ^ ((uint64_t)(uint32_t)(e->pair >= 0 ? e->pair : -1 - e->warmup) << 8);
	n = (size_t)(ab_stats_splitmix64(&state) % (uint64_t)(m->exp->env_padding + 1));
	out = ab_xmalloc(sizeof("ABTOOL_PADDING=") + n);
	memcpy(out, "ABTOOL_PADDING=", 15);
	memset(out + 15, 'x', n);
	out[15 + n] = '\0';
	*bytes = (int32_t)n;
	return out;
}

int ab_measure_needs_fork(const struct ab_measure *m)
{
	size_t i;

	for (i = 0; i < m->ncounters; i++)
		if (m->counters[i].fd >= 0)
			return 1;
	return 0;
}

char *ab_measure_row_cpus(const struct ab_experiment *exp, size_t row)
{
	int cpus[1024];
	long n, want, i;
	char *out = NULL, *next;
	double lanes;

	if (!exp->affinity_cpus)
		return NULL;
	if (!exp->affinity_per_lane)
		return ab_xstrdup(exp->affinity_cpus);
	n = ab_measure_cpu_list(exp->affinity_cpus, cpus, 1024);
	if (n <= 0 || ab_parse_double(&lanes, ab_experiment_row_value(exp, row,
			(size_t)ab_experiment_param(exp, exp->affinity_per_lane))) < 0)
		return ab_xstrdup(exp->affinity_cpus);
	want = lanes < (double)n ? (long)lanes : n;
	for (i = 0; i < want; i++) {
		next = ab_xasprintf("%s%s%d", out ? out : "", out ? "," : "", cpus[i]);
		free(out);
		out = next;
	}
	return out;
}

void ab_measure_begin(struct ab_measure *m)
{
	size_t i;

	m->have_busy = read_busy(&m->busy_before) == 0;
	for (i = 0; i < m->ncounters; i++)
		if (m->counters[i].fd >= 0) {
			ioctl(m->counters[i].fd, PERF_EVENT_IOC_RESET, 0);
			ioctl(m->counters[i].fd, PERF_EVENT_IOC_ENABLE, 0);
		}
}

static void unavailable(json_t **obj, const char *metric, const char *why)
{
	if (!*obj)
		*obj = json_object();
	json_object_set_new(*obj, metric, json_string(why));
}

/* Sum of valgrind's "I refs" summaries (one per traced process). */
static double cachegrind_refs(const struct ab_output *err)
{
	const char *p = err->data, *end = err->data + err->len;
	double total = 0;
	int found = 0;

	while (p && p < end && (p = strstr(p, "I   refs:"))) {
		double v = 0;
		p += 9;
		while (*p == ' ')
			p++;
		for (; (*p >= '0' && *p <= '9') || *p == ','; p++)
			if (*p != ',')
				v = v * 10 + (*p - '0');
		total += v;
		found = 1;
	}
	return found ? total : NAN;
}

void ab_measure_end(struct ab_measure *m, struct ab_sample *s, const struct ab_runner_result *r)
{
	const struct ab_experiment *exp = m->exp;
	json_t *why = NULL;
	uint64_t busy_after;
	size_t i;

	s->other_cpu_ns = -1;
	if (m->have_busy && read_busy(&busy_after) == 0 && m->ticks_per_s > 0) {
		double tick_ns = 1e9 / (double)m->ticks_per_s;
		double other = (double)(busy_after - m->busy_before) * tick_ns - (double)(r->user_ns + r->sys_ns);
		s->other_cpu_ns = other > 0 ? (int64_t)other : 0;
		/* without the sample's own run-queue wait: the host's view */
		if (r->runq_ns < 0 && other > 0.5 * (double)r->wall_ns && other >= 3 * tick_ns)
			s->flags |= AB_FLAG_CONTENDED;
	}
	if (r->runq_ns >= 0 && (double)r->runq_ns > exp->contention.max_cpu_wait * (double)r->wall_ns)
		s->flags |= AB_FLAG_CONTENDED;
	for (i = 0; i < m->ncounters; i++) {
		struct counter *c = &m->counters[i];
		uint64_t value;
		if (c->fd < 0) {
			s->metrics[c->metric] = NAN;
			unavailable(&why, exp->metrics[c->metric].name, c->why);
			continue;
		}
		ioctl(c->fd, PERF_EVENT_IOC_DISABLE, 0);
		if (read(c->fd, &value, sizeof(value)) != sizeof(value)) {
			s->metrics[c->metric] = NAN;
			unavailable(&why, exp->metrics[c->metric].name, "the counter could not be read");
		} else {
			s->metrics[c->metric] = (double)value;
		}
	}
	if (m->cachegrind >= 0) {
		double refs = m->cachegrind_why ? NAN : cachegrind_refs(&r->err);
		s->metrics[m->cachegrind] = refs;
		if (isnan(refs))
			unavailable(&why, "cachegrind_instructions",
				    m->cachegrind_why ? m->cachegrind_why : "no 'I refs' summary from valgrind on stderr");
	}
	if (why) {
		free(s->unavailable);
		s->unavailable = json_dumps(why, JSON_COMPACT | JSON_SORT_KEYS);
		json_decref(why);
	}
}

long ab_measure_cpu_list(const char *text, int *cpus, long max)
{
	long n = 0;
	const char *p = text;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p || a < 0)
			return -1;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				return -1;
			p = end;
		}
		for (; a <= b; a++)
			if (n < max)
				cpus[n++] = (int)a;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return n;
}

int ab_measure_host_cpus(double *cpus, int64_t window_ns)
{
	long ticks = sysconf(_SC_CLK_TCK);
	uint64_t before, after;
	struct timespec ts = {(time_t)(window_ns / 1000000000), (long)(window_ns % 1000000000)};
	int64_t t0 = ab_now_ns(), took;

	if (ticks <= 0 || read_busy(&before) < 0)
		return -1;
	nanosleep(&ts, NULL);
	if (read_busy(&after) < 0)
		return -1;
	took = ab_now_ns() - t0;
	*cpus = took > 0 ? (double)(after - before) / (double)ticks * 1e9 / (double)took : 0;
	return 0;
}
