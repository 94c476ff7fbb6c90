/* env_busy.c - the other processes busy on the host when a run starts
 * (env.h, ab_env_busy_processes). */
#include "env.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One process's CPU time so far, in clock ticks, and its name. */
struct proc_time {
	long pid;
	unsigned long long ticks;
	char comm[32];
};

/* utime + stime and comm of root/proc/PID/stat: 0, or -1 (gone). */
static int read_proc(const char *root, long pid, struct proc_time *out)
{
	char path[128], buf[1024], *open_paren, *close_paren;
	unsigned long long ut, st;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/proc/%ld/stat", root, pid);
	if (!(f = fopen(path, "re")))
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "PID (comm) S ppid ...": comm may hold spaces and parentheses */
	if (!(open_paren = strchr(buf, '(')) || !(close_paren = strrchr(buf, ')')) || close_paren < open_paren)
		return -1;
	/* after ") ": state, then fields 4.. ; utime and stime are fields 14 and 15 */
	if (sscanf(close_paren + 2, "%*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu %llu", &ut, &st) != 2)
		return -1;
	out->pid = pid;
	out->ticks = ut + st;
	n = (size_t)(close_paren - open_paren - 1);
	if (n >= sizeof(out->comm))
		n = sizeof(out->comm) - 1;
	memcpy(out->comm, open_paren + 1, n);
	out->comm[n] = '\0';
	return 0;
}

/* Every process under root/proc but `self`: new array, count in *n. */
static struct proc_time *snapshot(const char *root, long self, size_t *n)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	struct proc_time *out = NULL;
	size_t cap = 0;

	*n = 0;
	snprintf(path, sizeof(path), "%s/proc", root);
	if (!(d = opendir(path)))
		return NULL;
	while ((e = readdir(d))) {
		struct proc_time t;
		long pid;

		if (!isdigit((unsigned char)e->d_name[0]) || (pid = atol(e->d_name)) == self ||
		    read_proc(root, pid, &t) < 0)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			out = ab_xrealloc(out, cap * sizeof(*out));
		}
		out[(*n)++] = t;
	}
	closedir(d);
	return out;
}

static int by_cpus(const void *pa, const void *pb)
{
	double a = json_number_value(json_object_get(*(json_t *const *)pa, "cpus"));
	double b = json_number_value(json_object_get(*(json_t *const *)pb, "cpus"));

	return (a < b) - (a > b);
}

void ab_env_busy_processes(json_t *fp, const char *root, int64_t window_ns)
{
	long ticks = sysconf(_SC_CLK_TCK), self = (long)getpid();
	struct timespec ts = {(time_t)(window_ns / 1000000000), (long)(window_ns % 1000000000)};
	struct proc_time *before, *after;
	size_t nb, na, i, j, k, n = 0;
	json_t *list = json_array(), **items = NULL;
	double total = 0;
	int64_t t0 = ab_now_ns(), took;

	before = snapshot(root, self, &nb);
	if (before)  /* nothing to watch: no wait */
		nanosleep(&ts, NULL);
	after = before ? snapshot(root, self, &na) : NULL;
	took = ab_now_ns() - t0;
	if (!before || !after || ticks <= 0 || took <= 0) {
		json_object_set_new(fp, "other_cpus", json_null());
		json_object_set_new(fp, "busy_processes", list);
		free(before);
		free(after);
		return;
	}
	items = ab_xcalloc(na + 1, sizeof(*items));
	for (i = 0, j = 0; i < na; i++) {
		double cpus;

		/* both lists are in readdir order; look the pid up from where the last match was */
		for (k = 0; k < nb && before[(j + k) % nb].pid != after[i].pid; k++)
			;
		if (k == nb || after[i].ticks < before[(j + k) % nb].ticks)
			continue;  /* new since the first snapshot, or a reused pid: unknown share */
		j = (j + k) % nb;
		cpus = (double)(after[i].ticks - before[j].ticks) / (double)ticks * 1e9 / (double)took;
		total += cpus;
		if (cpus >= 0.05)
			items[n++] = json_pack("{s:I, s:s, s:f}", "pid", (json_int_t)after[i].pid, "comm",
					       after[i].comm, "cpus", round(cpus * 100) / 100);
	}
	qsort(items, n, sizeof(*items), by_cpus);
	for (i = 0; i < n; i++) {
		if (i < 5)
			json_array_append_new(list, items[i]);
		else
			json_decref(items[i]);
	}
	json_object_set_new(fp, "other_cpus", json_real(round(total * 100) / 100));
	json_object_set_new(fp, "busy_processes", list);
	free(items);
	free(before);
	free(after);
}
