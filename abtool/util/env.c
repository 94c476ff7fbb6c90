/* env.c - the host fingerprint (see env.h; fields in docs/measurement.md);
 * its summary and warnings are env_summary.c, the environment gate
 * (environment.require) env_require.c, the busy processes env_busy.c.
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
