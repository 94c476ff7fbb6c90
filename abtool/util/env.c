/* env.c - the host fingerprint, its warnings and the environment gate
 * (see env.h; fields and rules in docs/measurement.md).
 *
 * Every fact comes from a file under the root folder, read without
 * touching the error slot: a missing file is an unknown fact (null), not
 * an error. */
#include "env.h"
#include "error.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#define CPU_DIR "/sys/devices/system/cpu"

/* ---- reading files under the root ---- */

/* Whole content of root/path (new string, NUL-terminated; *len without
 * the NUL when len is not NULL), or NULL when unreadable. */
static char *slurp(const char *root, const char *path, size_t *len)
{
	char *full = ab_xasprintf("%s%s", root, path), *buf = NULL;
	size_t n = 0, alloc = 0, r;
	FILE *f = fopen(full, "rb");

	free(full);
	if (!f)
		return NULL;
	do {
		AB_GROW(buf, alloc, n + 4096);
		r = fread(buf + n, 1, alloc - n - 1, f);
		n += r;
	} while (r > 0);
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static char *trim(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* First line of root/path without surrounding blanks (new string), or
 * NULL when unreadable or empty. */
static char *first_line(const char *root, const char *path)
{
	char *text = slurp(root, path, NULL), *line, *out;

	if (!text)
		return NULL;
	text[strcspn(text, "\n")] = '\0';
	line = trim(text);
	out = *line ? ab_xstrdup(line) : NULL;
	free(text);
	return out;
}

static int exists(const char *root, const char *path)
{
	char *full = ab_xasprintf("%s%s", root, path);
	struct stat st;
	int ok = lstat(full, &st) == 0;

	free(full);
	return ok;
}

/* 0/1 from a file holding "0" or "1", or -1. */
static int read_flag(const char *root, const char *path)
{
	char *s = first_line(root, path);
	int v = s && (!strcmp(s, "0") || !strcmp(s, "1")) ? s[0] == '1' : -1;

	free(s);
	return v;
}

/* A non-negative decimal integer from the first line, or -1. */
static long long read_count(const char *root, const char *path)
{
	char *s = first_line(root, path), *end;
	long long v = -1;

	if (s && isdigit((unsigned char)*s)) {
		v = strtoll(s, &end, 10);
		if (*end)
			v = -1;
	}
	free(s);
	return v;
}

/* Takes ownership of s. */
static json_t *string_or_null(char *s)
{
	json_t *j = s ? json_string(s) : json_null();

	free(s);
	return j;
}

static json_t *flag_or_null(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static int is_cpu_entry(const char *name)
{
	if (strncmp(name, "cpu", 3) || !name[3])
		return 0;
	for (name += 3; *name; name++)
		if (!isdigit((unsigned char)*name))
			return 0;
	return 1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- the facts ---- */

/* /proc/cpuinfo: model, processor count, hypervisor flag. */
static void read_cpuinfo(json_t *fp, json_t *vm_hints, int *have_flags, const char *root)
{
	char *text = slurp(root, "/proc/cpuinfo", NULL), *line, *save = NULL, *model = NULL;
	long long nproc = 0;
	int hypervisor = 0;

	*have_flags = 0;
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':'), *key, *value, *tok, *tsave = NULL;
		if (!colon)
			continue;
		*colon = '\0';
		key = trim(line);
		value = trim(colon + 1);
		if (!strcmp(key, "processor")) {
			nproc++;
		} else if (!strcmp(key, "model name") && !model && *value) {
			model = ab_xstrdup(value);
		} else if (!strcmp(key, "flags")) {
			*have_flags = 1;
			for (tok = strtok_r(value, " \t", &tsave); tok; tok = strtok_r(NULL, " \t", &tsave))
				hypervisor |= !strcmp(tok, "hypervisor");
		}
	}
	free(text);
	json_object_set_new(fp, "cpu_model", string_or_null(model));
	json_object_set_new(fp, "logical_cpus", nproc > 0 ? json_integer(nproc) : json_null());
	if (hypervisor)
		json_array_append_new(vm_hints, json_string("cpu flag hypervisor"));
}

/* Number of CPUs in a kernel CPU list like "0-3,6,8-9", or -1. */
static long long count_cpu_list(const char *list)
{
	long long total = 0;
	const char *p = list;

	if (!*p)
		return -1;
	for (;;) {
		char *end;
		long long a, b;
		if (!isdigit((unsigned char)*p))
			return -1;
		a = b = strtoll(p, &end, 10);
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)*++p))
				return -1;
			b = strtoll(p, &end, 10);
			p = end;
		}
		if (b < a)
			return -1;
		total += b - a + 1;
		if (!*p)
			return total;
		if (*p++ != ',')
			return -1;
	}
}

static void read_online(json_t *fp, const char *root)
{
	char *list = first_line(root, CPU_DIR "/online");
	long long n = list ? count_cpu_list(list) : -1;

	json_object_set_new(fp, "online_cpus", n >= 0 ? json_integer(n) : json_null());
	json_object_set_new(fp, "online_cpu_list", string_or_null(list));
}

/* The distinct scaling governors of all CPUs: a string when they agree, a
 * sorted array when not, null when no CPU shows one. Also the driver. */
static void read_cpufreq(json_t *fp, const char *root)
{
	char *dirpath = ab_xasprintf("%s" CPU_DIR, root), **govs = NULL, *driver = NULL;
	DIR *d = opendir(dirpath);
	struct dirent *e;
	size_t n, i, j;
	json_t *gov;

	while (d && (e = readdir(d))) {
		char *path, *g;
		if (!is_cpu_entry(e->d_name))
			continue;
		path = ab_xasprintf(CPU_DIR "/%s/cpufreq/scaling_governor", e->d_name);
		if ((g = first_line(root, path)))
			ab_strv_push(&govs, g);
		free(path);
		if (!driver) {
			path = ab_xasprintf(CPU_DIR "/%s/cpufreq/scaling_driver", e->d_name);
			driver = first_line(root, path);
			free(path);
		}
	}
	if (d)
		closedir(d);
	free(dirpath);
	n = ab_strv_len(govs);
	if (n)
		qsort(govs, n, sizeof(*govs), cmp_str);
	for (i = j = 0; i < n; i++) {
		if (j && !strcmp(govs[j - 1], govs[i])) {
			free(govs[i]);
			continue;
		}
		govs[j++] = govs[i];
	}
	if (govs)
		govs[j] = NULL;
	if (j == 0) {
		gov = json_null();
	} else if (j == 1) {
		gov = json_string(govs[0]);
	} else {
		gov = json_array();
		for (i = 0; i < j; i++)
			json_array_append_new(gov, json_string(govs[i]));
	}
	ab_strv_free(govs);
	json_object_set_new(fp, "governor", gov);
	json_object_set_new(fp, "cpufreq_driver", string_or_null(driver));
}

/* Boost is on when either control says so: intel_pstate's no_turbo (0 =
 * turbo allowed) or cpufreq's boost (1 = on). */
static void read_boost(json_t *fp, const char *root)
{
	static const char *const intel = CPU_DIR "/intel_pstate/no_turbo", *const generic = CPU_DIR "/cpufreq/boost";
	int no_turbo = read_flag(root, intel), boost = read_flag(root, generic);
	const char *control = NULL;
	int on = -1;

	if (no_turbo >= 0) {
		on = !no_turbo;
		control = intel;
	}
	if (boost >= 0 && (on < 0 || (boost && !on))) {
		on = boost;
		control = generic;
	}
	json_object_set_new(fp, "boost", flag_or_null(on));
	json_object_set_new(fp, "boost_control", control ? json_string(control) : json_null());
}

static void read_loadavg(json_t *fp, const char *root)
{
	char *text = first_line(root, "/proc/loadavg");
	double l[3];
	long long running, total;
	int n = text ? sscanf(text, "%lf %lf %lf %lld/%lld", &l[0], &l[1], &l[2], &running, &total) : 0;

	free(text);
	json_object_set_new(fp, "load_1m", n >= 1 ? json_real(l[0]) : json_null());
	json_object_set_new(fp, "load_5m", n >= 2 ? json_real(l[1]) : json_null());
	json_object_set_new(fp, "load_15m", n >= 3 ? json_real(l[2]) : json_null());
	json_object_set_new(fp, "tasks_running", n >= 4 ? json_integer(running) : json_null());
	json_object_set_new(fp, "tasks_total", n >= 5 ? json_integer(total) : json_null());
}

void ab_env_record_load_after(json_t *fp, const char *root)
{
	char *text = first_line(root, "/proc/loadavg");
	double l[3];
	int n = text ? sscanf(text, "%lf %lf %lf", &l[0], &l[1], &l[2]) : 0;

	free(text);
	json_object_set_new(fp, "load_after_1m", n >= 1 ? json_real(l[0]) : json_null());
	json_object_set_new(fp, "load_after_5m", n >= 2 ? json_real(l[1]) : json_null());
	json_object_set_new(fp, "load_after_15m", n >= 3 ? json_real(l[2]) : json_null());
}

static void read_meminfo(json_t *fp, const char *root)
{
	char *text = slurp(root, "/proc/meminfo", NULL), *line, *save = NULL;
	long long total = -1, avail = -1;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':'), *end;
		long long kib;
		if (!colon)
			continue;
		*colon = '\0';
		kib = strtoll(colon + 1, &end, 10);
		if (end == colon + 1 || kib < 0 || strcmp(trim(end), "kB"))
			continue;
		if (!strcmp(line, "MemTotal"))
			total = kib * 1024;
		else if (!strcmp(line, "MemAvailable"))
			avail = kib * 1024;
	}
	free(text);
	json_object_set_new(fp, "memory_bytes", total >= 0 ? json_integer(total) : json_null());
	json_object_set_new(fp, "memory_available_bytes", avail >= 0 ? json_integer(avail) : json_null());
}

/* steal / (user+nice+system+idle+iowait+irq+softirq+steal) of the "cpu"
 * line of /proc/stat: the share of time since boot a hypervisor gave this
 * guest's CPUs to others (proc(5); guest time is already in user). */
static void read_steal(json_t *fp, const char *root)
{
	char *text = slurp(root, "/proc/stat", NULL), *p;
	unsigned long long v[8], total = 0;
	int i, n = 0;

	if (text && !strncmp(text, "cpu ", 4)) {
		p = text + 4;
		for (n = 0; n < 8; n++) {
			char *end;
			while (*p == ' ')
				p++;
			if (!isdigit((unsigned char)*p))
				break;
			v[n] = strtoull(p, &end, 10);
			p = end;
		}
	}
	free(text);
	for (i = 0; i < n; i++)
		total += v[i];
	json_object_set_new(fp, "steal_fraction", n == 8 && total > 0 ? json_real((double)v[7] / (double)total)
								      : json_null());
}

/* Sum of cpu0's thermal_throttle/ *_throttle_count (core and package). */
static void read_throttle(json_t *fp, const char *root)
{
	char *dirpath = ab_xasprintf("%s" CPU_DIR "/cpu0/thermal_throttle", root);
	DIR *d = opendir(dirpath);
	struct dirent *e;
	long long sum = 0;
	int seen = 0;

	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char *path;
		long long v;
		if (len < 15 || strcmp(e->d_name + len - 15, "_throttle_count"))
			continue;
		path = ab_xasprintf(CPU_DIR "/cpu0/thermal_throttle/%s", e->d_name);
		if ((v = read_count(root, path)) >= 0) {
			sum += v;
			seen = 1;
		}
		free(path);
	}
	if (d)
		closedir(d);
	free(dirpath);
	json_object_set_new(fp, "thermal_throttle_count", seen ? json_integer(sum) : json_null());
}

/*
 * Power source from /sys/class/power_supply: "battery" when a system
 * battery discharges, or when external supplies exist and all are
 * offline; "ac" when one is online or a battery charges; "no_battery"
 * when the class lists no system battery (desktops, servers, most VMs
 * run on external power); null when the class cannot be read or says
 * nothing conclusive. Supplies with scope "Device" (a mouse's battery)
 * do not power the host and are skipped.
 */
static void read_power(json_t *fp, const char *root)
{
	char *dirpath = ab_xasprintf("%s/sys/class/power_supply", root);
	DIR *d = opendir(dirpath);
	struct dirent *e;
	int batteries = 0, discharging = 0, charging = 0, external = 0, online = 0;
	const char *source = NULL;

	free(dirpath);
	if (!d) {
		json_object_set_new(fp, "power_source", json_null());
		json_object_set_new(fp, "on_battery", json_null());
		return;
	}
	while ((e = readdir(d))) {
		char *base, *path, *scope, *type, *status;
		if (e->d_name[0] == '.')
			continue;
		base = ab_xasprintf("/sys/class/power_supply/%s", e->d_name);
		path = ab_xasprintf("%s/scope", base);
		scope = first_line(root, path);
		free(path);
		path = ab_xasprintf("%s/type", base);
		type = first_line(root, path);
		free(path);
		if (type && !(scope && !strcmp(scope, "Device"))) {
			if (!strcmp(type, "Battery")) {
				path = ab_xasprintf("%s/status", base);
				status = first_line(root, path);
				free(path);
				batteries++;
				discharging += status && !strcmp(status, "Discharging");
				charging += status && !strcmp(status, "Charging");
				free(status);
			} else if (!strcmp(type, "Mains") || !strncmp(type, "USB", 3)) {
				path = ab_xasprintf("%s/online", base);
				external++;
				online += read_count(root, path) > 0;
				free(path);
			}
		}
		free(scope);
		free(type);
		free(base);
	}
	closedir(d);
	if (discharging)
		source = "battery";
	else if (online || charging)
		source = "ac";
	else if (batteries && external)
		source = "battery";
	else if (!batteries)
		source = "no_battery";
	json_object_set_new(fp, "power_source", source ? json_string(source) : json_null());
	json_object_set_new(fp, "on_battery", source ? json_boolean(!strcmp(source, "battery")) : json_null());
}

/* DMI strings of virtual hardware (after systemd-detect-virt's table). */
static const char *dmi_vm_vendor(const char *vendor, const char *product)
{
	static const char *const prefixes[] = {
		"QEMU", "KVM", "VMware", "VMW", "VirtualBox", "innotek GmbH", "Xen", "Bochs",
		"Parallels", "BHYVE", "Google Compute Engine", "OpenStack", "KubeVirt",
		"Apple Virtualization",
	};
	const char *const fields[] = {vendor, product};
	size_t i, f;

	for (f = 0; f < 2; f++)
		for (i = 0; fields[f] && i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
			if (!strncmp(fields[f], prefixes[i], strlen(prefixes[i])))
				return fields[f];
	if (vendor && product && !strcmp(vendor, "Microsoft Corporation") && !strcmp(product, "Virtual Machine"))
		return "Microsoft Virtual Machine";
	return NULL;
}

static void read_virt(json_t *fp, json_t *vm_hints, int have_flags, const char *root)
{
	char *vendor = first_line(root, "/sys/class/dmi/id/sys_vendor");
	char *product = first_line(root, "/sys/class/dmi/id/product_name");
	const char *dmi = dmi_vm_vendor(vendor, product);
	json_t *vm;

	if (dmi)
		json_array_append_new(vm_hints, json_sprintf("dmi %s", dmi));
	if (json_array_size(vm_hints))
		vm = json_true();
	else if (have_flags || vendor || product)
		vm = json_false();
	else
		vm = json_null();
	json_object_set_new(fp, "virtual_machine", vm);
	json_object_set_new(fp, "vm_hints", vm_hints);
	json_object_set_new(fp, "dmi_sys_vendor", string_or_null(vendor));
	json_object_set_new(fp, "dmi_product_name", string_or_null(product));
}

/* Container hints: marker files of docker and podman, runtime names in
 * pid 1's cgroup paths, and `container=` in pid 1's environment (set by
 * systemd-nspawn, podman, lxc; readable only with privileges). */
static void read_container(json_t *fp, const char *root)
{
	static const char *const runtimes[] = {"docker", "kubepods", "containerd", "libpod", "lxc", "crio"};
	json_t *hints = json_array();
	char *cgroup = slurp(root, "/proc/1/cgroup", NULL), *environ;
	size_t len, i;

	if (exists(root, "/.dockerenv"))
		json_array_append_new(hints, json_string("/.dockerenv"));
	if (exists(root, "/run/.containerenv"))
		json_array_append_new(hints, json_string("/run/.containerenv"));
	for (i = 0; cgroup && i < sizeof(runtimes) / sizeof(runtimes[0]); i++) {
		if (strstr(cgroup, runtimes[i])) {
			json_array_append_new(hints, json_sprintf("/proc/1/cgroup %s", runtimes[i]));
			break;
		}
	}
	if ((environ = slurp(root, "/proc/1/environ", &len))) {
		size_t off;
		for (off = 0; off < len; off += strlen(environ + off) + 1) {
			if (!strncmp(environ + off, "container=", 10) && environ[off + 10]) {
				json_array_append_new(hints, json_string(environ + off));
				break;
			}
		}
		free(environ);
	}
	json_object_set_new(fp, "container", json_array_size(hints) ? json_true()
							 : cgroup ? json_false() : json_null());
	json_object_set_new(fp, "container_hints", hints);
	free(cgroup);
}

/* PRETTY_NAME of os-release(5): /etc/os-release, else /usr/lib/os-release. */
static char *read_os(const char *root)
{
	static const char *const paths[] = {"/etc/os-release", "/usr/lib/os-release"};
	char *text = NULL, *line, *save = NULL, *out = NULL;
	size_t i;

	for (i = 0; i < 2 && !text; i++)
		text = slurp(root, paths[i], NULL);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line && !out; line = strtok_r(NULL, "\n", &save)) {
		char *v, *w;
		if (strncmp(line, "PRETTY_NAME=", 12))
			continue;
		v = trim(line + 12);
		if ((*v == '"' || *v == '\'') && strlen(v) >= 2 && v[strlen(v) - 1] == *v) {
			char q = *v;
			v[strlen(v) - 1] = '\0';
			v++;
			for (w = line; *v; v++) {  /* shell quoting: \" \\ \$ \` in "…" */
				if (q == '"' && *v == '\\' && v[1] && strchr("\"\\$`", v[1]))
					v++;
				*w++ = *v;
			}
			*w = '\0';
			v = line;
		}
		if (*v)
			out = ab_xstrdup(v);
	}
	free(text);
	return out;
}

static json_t *read_kernel(const char *root)
{
	char *type = first_line(root, "/proc/sys/kernel/ostype");
	char *release = first_line(root, "/proc/sys/kernel/osrelease");
	json_t *k = !release ? json_null() : type ? json_sprintf("%s %s", type, release) : json_string(release);

	free(type);
	free(release);
	return k;
}

static char *read_machine(const char *root)
{
	char *m = first_line(root, "/proc/sys/kernel/arch");
	struct utsname u;

	/* Kernels before 6.1 lack kernel/arch; uname is the same fact but
	 * describes the real system only. */
	if (!m && !*root && uname(&u) == 0)
		m = ab_xstrdup(u.machine);
	return m;
}

json_t *ab_env_fingerprint(const char *root)
{
	json_t *fp = json_object(), *vm_hints = json_array();
	int have_flags;

	json_object_set_new(fp, "abtool_version", json_string(ABTOOL_VERSION));
	json_object_set_new(fp, "hostname", string_or_null(first_line(root, "/proc/sys/kernel/hostname")));
	json_object_set_new(fp, "os", string_or_null(read_os(root)));
	json_object_set_new(fp, "kernel", read_kernel(root));
	json_object_set_new(fp, "machine", string_or_null(read_machine(root)));
	read_cpuinfo(fp, vm_hints, &have_flags, root);
	read_online(fp, root);
	json_object_set_new(fp, "smt_active", flag_or_null(read_flag(root, CPU_DIR "/smt/active")));
	json_object_set_new(fp, "smt_control", string_or_null(first_line(root, CPU_DIR "/smt/control")));
	read_cpufreq(fp, root);
	read_boost(fp, root);
	read_loadavg(fp, root);
	read_meminfo(fp, root);
	read_steal(fp, root);
	read_throttle(fp, root);
	read_power(fp, root);
	read_virt(fp, vm_hints, have_flags, root);
	read_container(fp, root);
	return fp;
}

/* ---- summary ---- */

/* Append ", text" (or text when first) to *line; takes ownership. */
static void part(char **line, char *text)
{
	char *next = *line ? ab_xasprintf("%s, %s", *line, text) : ab_xstrdup(text);

	free(*line);
	free(text);
	*line = next;
}

static int is_true(const json_t *fp, const char *key)
{
	return json_is_true(json_object_get(fp, key));
}

/* "a/b/c" of an array of strings (new string). */
static char *join_strings(const json_t *arr, const char *sep)
{
	char *out = ab_xstrdup(""), *next;
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v) {
		next = ab_xasprintf("%s%s%s", out, i ? sep : "", json_string_value(v) ? json_string_value(v) : "?");
		free(out);
		out = next;
	}
	return out;
}

char *ab_env_summary(const json_t *fp)
{
	const char *model = json_string_value(json_object_get(fp, "cpu_model"));
	const char *machine = json_string_value(json_object_get(fp, "machine"));
	const char *kernel = json_string_value(json_object_get(fp, "kernel"));
	const char *power = json_string_value(json_object_get(fp, "power_source"));
	json_t *logical = json_object_get(fp, "logical_cpus"), *online = json_object_get(fp, "online_cpus");
	json_t *mem = json_object_get(fp, "memory_bytes"), *load = json_object_get(fp, "load_1m");
	json_t *after = json_object_get(fp, "load_after_1m");
	json_t *gov = json_object_get(fp, "governor"), *boost = json_object_get(fp, "boost");
	char *line = NULL, *cpus = NULL, *head;
	char buf[32];

	if (json_is_integer(logical) && json_is_integer(online) &&
	    json_integer_value(online) != json_integer_value(logical))
		cpus = ab_xasprintf("%lld-CPU (%lld online)", (long long)json_integer_value(logical),
				    (long long)json_integer_value(online));
	else if (json_is_integer(logical) || json_is_integer(online))
		cpus = ab_xasprintf("%lld-CPU", (long long)json_integer_value(
					    json_is_integer(logical) ? logical : online));
	head = cpus;
	if (machine) {
		char *next = head ? ab_xasprintf("%s %s", head, machine) : ab_xstrdup(machine);
		free(head);
		head = next;
	}
	if (model) {
		char *next = head ? ab_xasprintf("%s (%s)", head, model) : ab_xstrdup(model);
		free(head);
		head = next;
	}
	part(&line, head ? head : ab_xstrdup("CPU unknown"));
	if (json_is_integer(mem))
		part(&line, ab_xstrdup(ab_format_bytes(buf, sizeof(buf), (double)json_integer_value(mem))));
	if (kernel)
		part(&line, ab_xstrdup(kernel));
	if (is_true(fp, "virtual_machine"))
		part(&line, ab_xstrdup("virtual machine"));
	if (is_true(fp, "container"))
		part(&line, ab_xstrdup("container"));
	if (json_is_string(gov))
		part(&line, ab_xasprintf("governor %s", json_string_value(gov)));
	else if (json_is_array(gov)) {
		char *list = join_strings(gov, "/");
		part(&line, ab_xasprintf("governors %s", list));
		free(list);
	}
	if (json_is_boolean(boost))
		part(&line, ab_xasprintf("boost %s", json_is_true(boost) ? "on" : "off"));
	if (power && !strcmp(power, "ac"))
		part(&line, ab_xstrdup("AC power"));
	else if (power && !strcmp(power, "battery"))
		part(&line, ab_xstrdup("on battery"));
	if (json_is_number(load) && json_is_number(after))
		part(&line, ab_xasprintf("load %.2f → %.2f", json_number_value(load), json_number_value(after)));
	else if (json_is_number(load))
		part(&line, ab_xasprintf("load %.2f", json_number_value(load)));
	else if (json_is_number(after))
		part(&line, ab_xasprintf("load ? → %.2f", json_number_value(after)));
	return line;
}

/* ---- warnings ---- */

static void add_warning(json_t *list, const char *id, const char *level, char *message)
{
	json_array_append_new(list, json_pack("{s:s, s:s, s:s}", "id", id, "level", level, "message", message));
	free(message);
}

/*
 * What other processes busy at the start will cost: with U CPUs used by
 * them on C online CPUs, a single-threaded sample that shares the CPUs
 * fairly gets C/(U+1) of one when U+1 > C, so it waits for a CPU about
 * 1 - C/(U+1) of its wall time; below that it shares caches, memory
 * bandwidth and the power budget only.
 */
static void busy_warning(json_t *list, const json_t *fp)
{
	const json_t *v = json_object_get(fp, "other_cpus"), *p;
	double used = json_number_value(v), cpus = (double)json_integer_value(json_object_get(fp, "online_cpus"));
	char *names, *next, *cost;
	size_t i;

	if (!json_is_number(v) || used < 0.5)
		return;
	names = ab_xstrdup("");
	json_array_foreach(json_object_get(fp, "busy_processes"), i, p) {
		next = ab_xasprintf("%s%s%s %.1f", names, i ? ", " : "",
				    json_string_value(json_object_get(p, "comm")),
				    json_number_value(json_object_get(p, "cpus")));
		free(names);
		names = next;
	}
	if (cpus > 0 && used + 1 > cpus)
		cost = ab_xasprintf("on %.0f CPU%s a single-threaded sample will wait for a CPU about %.0f%% of "
				    "its time, which stretches wall time, draws both sides' times together and takes "
				    "more pairs to decide", cpus, cpus == 1 ? "" : "s", 100 * (1 - cpus / (used + 1)));
	else
		cost = ab_xstrdup("samples share caches, memory bandwidth and the power budget with them, which "
				  "adds noise and takes more pairs to decide");
	add_warning(list, "busy", "warning",
		    ab_xasprintf("other processes use %.1f CPUs (%s): %s; stop them, decide on cpu_ns, or set "
				 "contention: {reruns: auto}", used, *names ? names : "many short ones", cost));
	free(names);
	free(cost);
}

json_t *ab_env_warnings(const json_t *fp, double load_threshold)
{
	json_t *list = json_array(), *gov = json_object_get(fp, "governor"), *v;
	const char *control = json_string_value(json_object_get(fp, "boost_control"));

	if (!(load_threshold >= 0))
		load_threshold = AB_ENV_LOAD_THRESHOLD_DEFAULT;
	if (json_is_string(gov) && strcmp(json_string_value(gov), "performance"))
		add_warning(list, "governor", "warning",
		     ab_xasprintf("governor is '%s' (not performance): results vary with frequency scaling; "
				  "run 'sudo cpupower frequency-set -g performance'", json_string_value(gov)));
	else if (json_is_array(gov)) {
		char *names = join_strings(gov, ", ");
		add_warning(list, "governor", "warning",
		     ab_xasprintf("governors differ across CPUs (%s): results vary with frequency scaling; "
				  "run 'sudo cpupower frequency-set -g performance'", names));
		free(names);
	}
	if (is_true(fp, "boost")) {
		char *todo = !control ? ab_xstrdup("turn it off in the firmware settings")
			     : strstr(control, "no_turbo") ? ab_xasprintf("run 'echo 1 | sudo tee %s'", control)
							   : ab_xasprintf("run 'echo 0 | sudo tee %s'", control);
		add_warning(list, "boost", "warning",
		     ab_xasprintf("boost/turbo is on: the clock follows temperature and power headroom, so samples "
				  "drift; %s", todo));
		free(todo);
	}
	v = json_object_get(fp, "load_1m");
	if (json_is_number(v) && json_number_value(v) > load_threshold)
		add_warning(list, "load", "warning",
		     ab_xasprintf("load average is %.2f over the last minute (threshold %.2f): other work competes "
				  "with the benchmark for CPUs, caches and memory bandwidth; stop other jobs or wait "
				  "for the host to settle", json_number_value(v), load_threshold));
	else if (json_is_number(json_object_get(fp, "load_after_1m")) &&
		 json_number_value(json_object_get(fp, "load_after_1m")) > load_threshold)
		add_warning(list, "load", "warning",
		     ab_xasprintf("load average rose to %.2f over the last minute of the run (threshold %.2f): "
				  "other work started competing with the benchmark; stop other jobs during runs",
				  json_number_value(json_object_get(fp, "load_after_1m")), load_threshold));
	busy_warning(list, fp);
	if (is_true(fp, "on_battery"))
		add_warning(list, "battery", "warning",
		     ab_xstrdup("running on battery: the firmware may lower clocks to save power; plug in AC power"));
	v = json_object_get(fp, "steal_fraction");
	if (json_is_number(v) && json_number_value(v) > AB_ENV_STEAL_THRESHOLD)
		add_warning(list, "steal", "warning",
		     ab_xasprintf("steal time is %.2f%% of CPU time since boot (above 1%%): the hypervisor gives this "
				  "guest's CPUs to others; use a dedicated or bare-metal host",
				  100 * json_number_value(v)));
	v = json_object_get(fp, "thermal_throttle_count");
	if (json_is_integer(v) && json_integer_value(v) > 0)
		add_warning(list, "throttled", "warning",
		     ab_xasprintf("cpu0 was thermally throttled %lld time%s since boot: clocks drop when it runs hot; "
				  "improve cooling and check that the count does not grow during a run",
				  (long long)json_integer_value(v), json_integer_value(v) == 1 ? "" : "s"));
	if (is_true(fp, "smt_active"))
		add_warning(list, "smt", "info",
		     ab_xstrdup("SMT (hyper-threading) is on: a sibling thread can share the core with the "
				"benchmark; to rule it out run 'echo off | sudo tee "
				"/sys/devices/system/cpu/smt/control'"));
	if (is_true(fp, "virtual_machine")) {
		char *hints = join_strings(json_object_get(fp, "vm_hints"), ", ");
		add_warning(list, "virtualized", "info",
		     ab_xasprintf("running in a virtual machine (%s): the hypervisor and other guests add noise; "
				  "expect wider intervals, or use bare metal", hints));
		free(hints);
	}
	if (is_true(fp, "container")) {
		char *hints = join_strings(json_object_get(fp, "container_hints"), ", ");
		add_warning(list, "container", "info",
		     ab_xasprintf("looks like a container (%s): its CPU share and neighbours are set by the host; "
				  "give it dedicated CPUs (e.g. docker run --cpuset-cpus)", hints));
		free(hints);
	}
	return list;
}

/* ---- environment.require ---- */

enum req_kind { REQ_GOVERNOR, REQ_BOOL, REQ_LOAD, REQ_FRACTION, REQ_COUNT };

/* Keys in evaluation order: the fingerprint field each one reads. */
static const struct req_key {
	const char *key;
	enum req_kind kind;
	const char *field;
} req_keys[] = {
	{"governor", REQ_GOVERNOR, "governor"},
	{"boost", REQ_BOOL, "boost"},
	{"smt", REQ_BOOL, "smt_active"},
	{"ac_power", REQ_BOOL, "on_battery"},
	{"max_load", REQ_LOAD, "load_1m"},
	{"max_steal", REQ_FRACTION, "steal_fraction"},
	{"min_online_cpus", REQ_COUNT, "online_cpus"},
};
#define NREQ (sizeof(req_keys) / sizeof(req_keys[0]))

static const char *const governors[] = {
	"performance", "powersave", "ondemand", "conservative", "schedutil", "userspace",
};
#define NGOV (sizeof(governors) / sizeof(governors[0]))

static const struct req_key *find_req(const char *key)
{
	size_t i;

	for (i = 0; i < NREQ; i++)
		if (!strcmp(req_keys[i].key, key))
			return &req_keys[i];
	return NULL;
}

static int unknown_key(const char *prefix, const char *key)
{
	const char *names[NREQ], *near;
	size_t i;

	for (i = 0; i < NREQ; i++)
		names[i] = req_keys[i].key;
	if ((near = ab_suggest(key, names, NREQ)))
		return ab_error_set(AB_EINVALID, "%sunknown key '%s'; did you mean '%s'?", prefix, key, near);
	return ab_error_set(AB_EINVALID, "%sunknown key '%s'; expected governor, boost, smt, ac_power, max_load, "
			    "max_steal or min_online_cpus", prefix, key);
}

int ab_env_require_parse(json_t **out, const char *key, const char *value_text)
{
	const struct req_key *k = find_req(key);
	const char *near;
	double d;
	int64_t n;
	size_t i;

	*out = NULL;
	if (!k)
		return unknown_key("", key);
	if (!value_text)
		value_text = "";
	switch (k->kind) {
	case REQ_GOVERNOR:
		for (i = 0; i < NGOV; i++)
			if (!strcmp(value_text, governors[i]))
				return *out = json_string(value_text), 0;
		if ((near = ab_suggest(value_text, governors, NGOV)))
			return ab_error_set(AB_EINVALID, "unknown governor '%s'; did you mean '%s'?", value_text, near);
		return ab_error_set(AB_EINVALID, "unknown governor '%s'; expected performance, powersave, ondemand, "
				    "conservative, schedutil or userspace", value_text);
	case REQ_BOOL:
		if (!strcmp(value_text, "true") || !strcmp(value_text, "True") || !strcmp(value_text, "TRUE"))
			return *out = json_true(), 0;
		if (!strcmp(value_text, "false") || !strcmp(value_text, "False") || !strcmp(value_text, "FALSE"))
			return *out = json_false(), 0;
		return ab_error_set(AB_EINVALID, "expected true or false");
	case REQ_LOAD:
		if (ab_parse_double(&d, value_text) < 0 || d < 0)
			return ab_error_set(AB_EINVALID, "expected a load average like 1.0 (a number >= 0)");
		return *out = json_real(d), 0;
	case REQ_FRACTION:
		if ((ab_parse_percent(&d, value_text) < 0 && ab_parse_double(&d, value_text) < 0) || d < 0 || d > 1)
			return ab_error_set(AB_EINVALID, "expected a percentage like 1%% or a fraction from 0 to 1");
		return *out = json_real(d), 0;
	case REQ_COUNT:
		if (ab_parse_int64(&n, value_text) < 0 || n < 1 || n > 1 << 20)
			return ab_error_set(AB_EINVALID, "expected a whole number of CPUs >= 1");
		return *out = json_integer(n), 0;
	}
	return ab_error_set(AB_ERROR, "unhandled requirement '%s'", key);
}

/* Check the JSON type of one requirement value. */
static int check_value(const struct req_key *k, const json_t *v)
{
	double d = json_number_value(v);

	switch (k->kind) {
	case REQ_GOVERNOR:
		if (json_is_string(v) && *json_string_value(v))
			return 0;
		return ab_error_set(AB_EINVALID, "environment.require.%s: expected a governor name", k->key);
	case REQ_BOOL:
		if (json_is_boolean(v))
			return 0;
		return ab_error_set(AB_EINVALID, "environment.require.%s: expected true or false", k->key);
	case REQ_LOAD:
		if (json_is_number(v) && d >= 0 && isfinite(d))
			return 0;
		return ab_error_set(AB_EINVALID, "environment.require.%s: expected a number >= 0", k->key);
	case REQ_FRACTION:
		if (json_is_number(v) && d >= 0 && d <= 1)
			return 0;
		return ab_error_set(AB_EINVALID, "environment.require.%s: expected a fraction from 0 to 1", k->key);
	case REQ_COUNT:
		if (json_is_integer(v) && json_integer_value(v) >= 1)
			return 0;
		return ab_error_set(AB_EINVALID, "environment.require.%s: expected a whole number >= 1", k->key);
	}
	return ab_error_set(AB_ERROR, "unhandled requirement '%s'", k->key);
}

/* The reason `want` is not met by fact `have`, or NULL when it is. */
static char *evaluate(const struct req_key *k, const json_t *have, const json_t *want)
{
	const char *name = json_string_value(want);
	double limit = json_number_value(want), x = json_number_value(have);

	if (!strcmp(k->key, "governor")) {
		if (json_is_string(have))
			return !strcmp(json_string_value(have), name) ? NULL
			       : ab_xasprintf("governor is '%s', required '%s'", json_string_value(have), name);
		if (json_is_array(have)) {
			char *list = join_strings(have, ", "), *r;
			r = ab_xasprintf("governors differ across CPUs (%s), required '%s' on all", list, name);
			free(list);
			return r;
		}
		return ab_xstrdup("governor unknown on this host");
	}
	if (!strcmp(k->key, "boost") || !strcmp(k->key, "smt")) {
		const char *what = !strcmp(k->key, "boost") ? "boost" : "SMT";
		if (!json_is_boolean(have))
			return ab_xasprintf("%s unknown on this host", what);
		return json_equal(have, want) ? NULL
		       : ab_xasprintf("%s is %s, required %s", what, json_is_true(have) ? "on" : "off",
				      json_is_true(want) ? "on" : "off");
	}
	if (!strcmp(k->key, "ac_power")) {
		if (!json_is_boolean(have))
			return ab_xstrdup("power source unknown on this host");
		if (json_is_true(want) == !json_is_true(have))
			return NULL;
		return ab_xstrdup(json_is_true(want) ? "running on battery, AC power required"
						     : "not running on battery, battery required");
	}
	if (!strcmp(k->key, "max_load")) {
		if (!json_is_number(have))
			return ab_xstrdup("load average unknown on this host");
		return x <= limit ? NULL
		       : ab_xasprintf("load average %.2f (1 min) is above the maximum %.2f", x, limit);
	}
	if (!strcmp(k->key, "max_steal")) {
		if (!json_is_number(have))
			return ab_xstrdup("steal time unknown on this host");
		return x <= limit ? NULL
		       : ab_xasprintf("steal time %.2f%% is above the maximum %.2f%%", 100 * x, 100 * limit);
	}
	if (!json_is_integer(have))
		return ab_xstrdup("online CPUs unknown on this host");
	return json_integer_value(have) >= json_integer_value(want) ? NULL
	       : ab_xasprintf("%lld CPU%s online, at least %lld required", (long long)json_integer_value(have),
			      json_integer_value(have) == 1 ? "" : "s", (long long)json_integer_value(want));
}

int ab_env_check_requirements(const json_t *fp, const json_t *require, char ***unmet)
{
	const char *key;
	json_t *v;
	char **list = NULL, *reason;
	size_t i;
	int err;

	*unmet = NULL;
	if (!json_is_object(require))
		return ab_error_set(AB_EINVALID, "environment.require: expected a map of requirements");
	json_object_foreach((json_t *)require, key, v) {
		const struct req_key *k = find_req(key);
		if (!k)
			return unknown_key("environment.require: ", key);
		if ((err = check_value(k, v)) < 0)
			return err;
	}
	for (i = 0; i < NREQ; i++) {
		if (!(v = json_object_get(require, req_keys[i].key)))
			continue;
		if ((reason = evaluate(&req_keys[i], json_object_get(fp, req_keys[i].field), v)))
			ab_strv_push(&list, reason);
	}
	*unmet = list;
	return (int)ab_strv_len(list);
}
