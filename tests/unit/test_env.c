/* test_env.c - the host fingerprint read from fake /proc, /sys and /etc
 * trees, the warnings it implies and the environment.require gate. Each
 * machine asserts every field, so a renamed or misread field fails. */
#include "testutil.h"
#include "env.h"
#include "error.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CPU "sys/devices/system/cpu/"
#define PS "sys/class/power_supply/"

/* Every field docs/measurement.md documents, in output order. */
static const char *const fields[] = {
	"abtool_version", "hostname", "os", "kernel", "machine", "cpu_model", "logical_cpus",
	"online_cpus", "online_cpu_list", "smt_active", "smt_control", "governor", "cpufreq_driver",
	"boost", "boost_control", "load_1m", "load_5m", "load_15m", "tasks_running", "tasks_total",
	"memory_bytes", "memory_available_bytes", "steal_fraction", "thermal_throttle_count",
	"power_source", "on_battery", "virtual_machine", "vm_hints", "dmi_sys_vendor",
	"dmi_product_name", "container", "container_hints",
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

/* ---- building fake machines ---- */

static void write_bytes(const char *dir, const char *name, const char *data, size_t len)
{
	char *path = ab_path_join(dir, name), *slash = strrchr(path, '/');

	*slash = '\0';
	assert_int_equal(ab_mkdir_p(path), 0);
	*slash = '/';
	assert_int_equal(ab_write_file(path, data, len), 0);
	free(path);
}

static void mkdir_in(const char *dir, const char *name)
{
	char *path = ab_path_join(dir, name);

	assert_int_equal(ab_mkdir_p(path), 0);
	free(path);
}

/* /proc/cpuinfo with n processors in x86 form. */
static void write_cpuinfo(const char *dir, int n, const char *model, const char *flags)
{
	char *text = ab_xstrdup(""), *next;
	int i;

	for (i = 0; i < n; i++) {
		next = ab_xasprintf("%sprocessor\t: %d\nvendor_id\t: GenuineIntel\nmodel name\t: %s\n"
				    "cpu MHz\t\t: 2100.000\nflags\t\t: %s\n\n", text, i, model, flags);
		free(text);
		text = next;
	}
	ab_test_write(dir, "proc/cpuinfo", text);
	free(text);
}

static void write_cpu_file(const char *dir, int cpu, const char *name, const char *text)
{
	char *path = ab_xasprintf(CPU "cpu%d/%s", cpu, name);

	ab_test_write(dir, path, text);
	free(path);
}

static void write_supply(const char *dir, const char *name, const char *type, const char *scope,
			 const char *online, const char *status)
{
	char *base = ab_xasprintf(PS "%s/", name), *path;

	path = ab_xasprintf("%stype", base);
	ab_test_write(dir, path, type);
	free(path);
	if (scope) {
		path = ab_xasprintf("%sscope", base);
		ab_test_write(dir, path, scope);
		free(path);
	}
	if (online) {
		path = ab_xasprintf("%sonline", base);
		ab_test_write(dir, path, online);
		free(path);
	}
	if (status) {
		path = ab_xasprintf("%sstatus", base);
		ab_test_write(dir, path, status);
		free(path);
	}
	free(base);
}

static void write_kernel(const char *dir, const char *host, const char *release)
{
	ab_test_write(dir, "proc/sys/kernel/hostname", host);
	ab_test_write(dir, "proc/sys/kernel/ostype", "Linux\n");
	ab_test_write(dir, "proc/sys/kernel/osrelease", release);
	ab_test_write(dir, "proc/sys/kernel/arch", "x86_64\n");
}

/* A tuned bare-metal server: 4 CPUs, SMT off, performance, boost off, idle,
 * no battery, no steal, no throttling, no VM or container hints. */
static char *make_tuned(void)
{
	char *dir = ab_test_mktemp("env-tuned");
	int i;

	write_kernel(dir, "bench1\n", "6.1.0-18-amd64\n");
	ab_test_write(dir, "etc/os-release", "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"
						"VERSION_ID=\"12\"\n");
	write_cpuinfo(dir, 4, "AMD EPYC 7302P 16-Core Processor", "fpu vme de pse tsc msr pae mce ht");
	ab_test_write(dir, CPU "online", "0-3\n");
	ab_test_write(dir, CPU "smt/active", "0\n");
	ab_test_write(dir, CPU "smt/control", "off\n");
	for (i = 0; i < 4; i++) {
		write_cpu_file(dir, i, "cpufreq/scaling_governor", "performance\n");
		write_cpu_file(dir, i, "cpufreq/scaling_driver", "acpi-cpufreq\n");
	}
	ab_test_write(dir, CPU "cpufreq/boost", "0\n");
	ab_test_write(dir, "proc/loadavg", "0.02 0.05 0.01 1/250 12345\n");
	ab_test_write(dir, "proc/meminfo", "MemTotal:       65536000 kB\nMemFree:        61000000 kB\n"
					   "MemAvailable:   60000000 kB\nBuffers:          100000 kB\n");
	ab_test_write(dir, "proc/stat", "cpu  1000 0 500 98000 500 0 0 0 0 0\ncpu0 250 0 125 24500 125 0 0 0 0 0\n"
					"intr 1 2 3\n");
	write_cpu_file(dir, 0, "thermal_throttle/core_throttle_count", "0\n");
	write_cpu_file(dir, 0, "thermal_throttle/package_throttle_count", "0\n");
	write_cpu_file(dir, 0, "thermal_throttle/core_power_limit_count", "7\n");
	mkdir_in(dir, PS);
	ab_test_write(dir, "sys/class/dmi/id/sys_vendor", "Supermicro\n");
	ab_test_write(dir, "sys/class/dmi/id/product_name", "Super Server\n");
	ab_test_write(dir, "proc/1/cgroup", "0::/init.scope\n");
	write_bytes(dir, "proc/1/environ", "HOME=/\0TERM=linux\0", 18);
	return dir;
}

/* A laptop on battery: 8 CPUs with SMT, powersave, turbo on, busy,
 * throttled; os-release only under /usr/lib; a mouse battery. */
static char *make_laptop(void)
{
	char *dir = ab_test_mktemp("env-laptop");
	int i;

	write_kernel(dir, "thinkpad\n", "6.6.9-200.fc39.x86_64\n");
	ab_test_write(dir, "usr/lib/os-release", "PRETTY_NAME='Fedora Linux 39 (Workstation Edition)'\n");
	write_cpuinfo(dir, 8, "Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz", "fpu vme ht tm pbe est");
	ab_test_write(dir, CPU "online", "0-7\n");
	ab_test_write(dir, CPU "smt/active", "1\n");
	ab_test_write(dir, CPU "smt/control", "on\n");
	for (i = 0; i < 8; i++) {
		write_cpu_file(dir, i, "cpufreq/scaling_governor", "powersave\n");
		write_cpu_file(dir, i, "cpufreq/scaling_driver", "intel_pstate\n");
	}
	ab_test_write(dir, CPU "intel_pstate/no_turbo", "0\n");
	ab_test_write(dir, "proc/loadavg", "3.50 2.10 1.05 5/1200 999\n");
	ab_test_write(dir, "proc/meminfo", "MemTotal:       16000000 kB\nMemAvailable:    4000000 kB\n");
	ab_test_write(dir, "proc/stat", "cpu  5000 100 2000 90000 2900 0 0 0 0 0\n");
	write_cpu_file(dir, 0, "thermal_throttle/core_throttle_count", "12\n");
	write_cpu_file(dir, 0, "thermal_throttle/package_throttle_count", "3\n");
	write_supply(dir, "AC", "Mains\n", NULL, "0\n", NULL);
	write_supply(dir, "BAT0", "Battery\n", "System\n", NULL, "Discharging\n");
	write_supply(dir, "hidpp_battery_0", "Battery\n", "Device\n", NULL, "Charging\n");
	ab_test_write(dir, "sys/class/dmi/id/sys_vendor", "LENOVO\n");
	ab_test_write(dir, "sys/class/dmi/id/product_name", "20L5CTO1WW\n");
	ab_test_write(dir, "proc/1/cgroup", "0::/init.scope\n");
	return dir;
}

/* A QEMU guest: hypervisor flag, 5% steal, governors that disagree, no
 * SMT, boost or power supply files. */
static char *make_vm(void)
{
	char *dir = ab_test_mktemp("env-vm");

	write_kernel(dir, "ci-runner\n", "5.15.0-91-generic\n");
	ab_test_write(dir, "etc/os-release", "PRETTY_NAME=\"Ubuntu 22.04.3 LTS\"\n");
	write_cpuinfo(dir, 2, "Intel Xeon Processor (Cascadelake)", "fpu vme hypervisor lahf_lm");
	ab_test_write(dir, CPU "online", "0-1\n");
	write_cpu_file(dir, 0, "cpufreq/scaling_governor", "performance\n");
	write_cpu_file(dir, 1, "cpufreq/scaling_governor", "schedutil\n");
	ab_test_write(dir, "proc/loadavg", "0.10 0.20 0.30 2/180 4242\n");
	ab_test_write(dir, "proc/meminfo", "MemTotal:        8000000 kB\nMemAvailable:    7000000 kB\n");
	ab_test_write(dir, "proc/stat", "cpu  4000 0 1000 90000 0 0 0 5000 300 0\n");
	ab_test_write(dir, "sys/class/dmi/id/sys_vendor", "QEMU\n");
	ab_test_write(dir, "sys/class/dmi/id/product_name", "Standard PC (Q35 + ICH9, 2009)\n");
	ab_test_write(dir, "proc/1/cgroup", "0::/init.scope\n");
	return dir;
}

/* A container: every container hint, a mouse battery only, no DMI,
 * an ARM-style cpuinfo without model name or flags. */
static char *make_container(void)
{
	char *dir = ab_test_mktemp("env-container");

	write_kernel(dir, "4f2a9c1e0b7d\n", "6.5.0-1015-azure\n");
	ab_test_write(dir, "proc/sys/kernel/arch", "aarch64\n");
	ab_test_write(dir, "etc/os-release", "PRETTY_NAME=\"Alpine Linux v3.19\"\n");
	ab_test_write(dir, "proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\n\n"
					   "processor\t: 1\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\n\n"
					   "processor\t: 2\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\n");
	ab_test_write(dir, CPU "online", "0-1,3\n");
	ab_test_write(dir, "proc/loadavg", "0.40 0.41 0.42 1/20 77\n");
	ab_test_write(dir, "proc/meminfo", "MemTotal:        2048000 kB\n");
	ab_test_write(dir, ".dockerenv", "");
	ab_test_write(dir, "run/.containerenv", "engine=\"podman-4.9\"\n");
	ab_test_write(dir, "proc/1/cgroup", "12:cpu,cpuacct:/docker/3f1c0a\n0::/docker/3f1c0a\n");
	write_bytes(dir, "proc/1/environ", "PATH=/bin\0container=podman\0HOME=/\0", 35);
	write_supply(dir, "hid-mouse-battery", "Battery\n", "Device\n", NULL, "Discharging\n");
	return dir;
}

/* ---- assertions on fields ---- */

static void assert_all_fields(const json_t *fp)
{
	size_t i;

	for (i = 0; i < NFIELDS; i++)
		if (!json_object_get(fp, fields[i]))
			fail_msg("field '%s' is missing", fields[i]);
	assert_int_equal(json_object_size(fp), NFIELDS);
}

static void expect_null(const json_t *fp, const char *key)
{
	json_t *v = json_object_get(fp, key);

	if (!json_is_null(v))
		fail_msg("%s: expected null", key);
}

static void expect_str(const json_t *fp, const char *key, const char *want)
{
	json_t *v = json_object_get(fp, key);

	if (!json_is_string(v))
		fail_msg("%s: expected the string '%s'", key, want);
	assert_string_equal(json_string_value(v), want);
}

static void expect_int(const json_t *fp, const char *key, long long want)
{
	json_t *v = json_object_get(fp, key);

	if (!json_is_integer(v))
		fail_msg("%s: expected the integer %lld", key, want);
	assert_int_equal(json_integer_value(v), want);
}

static void expect_real(const json_t *fp, const char *key, double want)
{
	json_t *v = json_object_get(fp, key);

	if (!json_is_real(v))
		fail_msg("%s: expected the number %g", key, want);
	assert_close(json_real_value(v), want, 6);
}

static void expect_bool(const json_t *fp, const char *key, int want)
{
	json_t *v = json_object_get(fp, key);

	if (!json_is_boolean(v) || json_is_true(v) != want)
		fail_msg("%s: expected %s", key, want ? "true" : "false");
}

/* `key` is an array of exactly the strings given (NULL-terminated). */
static void expect_strings(const json_t *fp, const char *key, ...)
{
	json_t *v = json_object_get(fp, key);
	const char *s;
	size_t i = 0;
	va_list ap;

	if (!json_is_array(v))
		fail_msg("%s: expected an array", key);
	va_start(ap, key);
	while ((s = va_arg(ap, const char *))) {
		if (i >= json_array_size(v))
			fail_msg("%s: missing '%s'", key, s);
		assert_string_equal(json_string_value(json_array_get(v, i)), s);
		i++;
	}
	va_end(ap);
	assert_int_equal(json_array_size(v), i);
}

/* ---- assertions on warnings ---- */

static const json_t *find_warning(const json_t *list, const char *id)
{
	size_t i;
	json_t *w;

	json_array_foreach(list, i, w)
		if (!strcmp(json_string_value(json_object_get(w, "id")), id))
			return w;
	return NULL;
}

/* The ids in `list` are exactly those given, in that order. */
static void assert_warning_ids(const json_t *list, ...)
{
	const char *id;
	size_t i = 0;
	va_list ap;

	va_start(ap, list);
	while ((id = va_arg(ap, const char *))) {
		if (i >= json_array_size(list))
			fail_msg("warning '%s' is missing", id);
		assert_string_equal(json_string_value(json_object_get(json_array_get(list, i), "id")), id);
		i++;
	}
	va_end(ap);
	assert_int_equal(json_array_size(list), i);
}

static void assert_warning(const json_t *list, const char *id, const char *level, const char *message)
{
	const json_t *w = find_warning(list, id);

	if (!w)
		fail_msg("warning '%s' is missing", id);
	assert_string_equal(json_string_value(json_object_get(w, "level")), level);
	assert_string_equal(json_string_value(json_object_get(w, "message")), message);
}

/* ---- requirements ---- */

static json_t *full_require(void)
{
	return json_pack("{s:s, s:b, s:b, s:b, s:f, s:f, s:i}", "governor", "performance", "boost", 0, "smt", 0,
			 "ac_power", 1, "max_load", 1.0, "max_steal", 0.01, "min_online_cpus", 2);
}

/* ab_env_check_requirements returns exactly the reasons given, in order. */
static void assert_unmet(const json_t *fp, const json_t *require, ...)
{
	char **unmet = (char **)"not set", *want;
	size_t i = 0;
	int n = ab_env_check_requirements(fp, require, &unmet);
	va_list ap;

	assert_true(n >= 0);
	va_start(ap, require);
	while ((want = va_arg(ap, char *))) {
		if ((size_t)n <= i || !unmet)
			fail_msg("reason '%s' is missing", want);
		assert_string_equal(unmet[i], want);
		i++;
	}
	va_end(ap);
	assert_int_equal(n, i);
	assert_int_equal(ab_strv_len(unmet), i);
	if (i == 0)
		assert_null(unmet);
	ab_strv_free(unmet);
}

/* ---- the machines ---- */

static void test_tuned_fields(void **state)
{
	char *dir = make_tuned();
	json_t *fp = ab_env_fingerprint(dir);

	(void)state;
	assert_all_fields(fp);
	expect_str(fp, "abtool_version", ABTOOL_VERSION);
	expect_str(fp, "hostname", "bench1");
	expect_str(fp, "os", "Debian GNU/Linux 12 (bookworm)");
	expect_str(fp, "kernel", "Linux 6.1.0-18-amd64");
	expect_str(fp, "machine", "x86_64");
	expect_str(fp, "cpu_model", "AMD EPYC 7302P 16-Core Processor");
	expect_int(fp, "logical_cpus", 4);
	expect_int(fp, "online_cpus", 4);
	expect_str(fp, "online_cpu_list", "0-3");
	expect_bool(fp, "smt_active", 0);
	expect_str(fp, "smt_control", "off");
	expect_str(fp, "governor", "performance");
	expect_str(fp, "cpufreq_driver", "acpi-cpufreq");
	expect_bool(fp, "boost", 0);
	expect_str(fp, "boost_control", "/sys/devices/system/cpu/cpufreq/boost");
	expect_real(fp, "load_1m", 0.02);
	expect_real(fp, "load_5m", 0.05);
	expect_real(fp, "load_15m", 0.01);
	expect_int(fp, "tasks_running", 1);
	expect_int(fp, "tasks_total", 250);
	expect_int(fp, "memory_bytes", 65536000LL * 1024);
	expect_int(fp, "memory_available_bytes", 60000000LL * 1024);
	expect_real(fp, "steal_fraction", 0.0);
	/* Only *_throttle_count files count, not core_power_limit_count. */
	expect_int(fp, "thermal_throttle_count", 0);
	expect_str(fp, "power_source", "no_battery");
	expect_bool(fp, "on_battery", 0);
	expect_bool(fp, "virtual_machine", 0);
	expect_strings(fp, "vm_hints", NULL);
	expect_str(fp, "dmi_sys_vendor", "Supermicro");
	expect_str(fp, "dmi_product_name", "Super Server");
	expect_bool(fp, "container", 0);
	expect_strings(fp, "container_hints", NULL);
	json_decref(fp);
	ab_test_rmtemp(dir);
}

static void test_tuned_warnings_and_gate(void **state)
{
	char *dir = make_tuned(), *line;
	json_t *fp = ab_env_fingerprint(dir), *w = ab_env_warnings(fp, AB_ENV_LOAD_THRESHOLD_DEFAULT);
	json_t *req = full_require();

	(void)state;
	assert_warning_ids(w, NULL);
	assert_unmet(fp, req, NULL);
	line = ab_env_summary(fp);
	assert_string_equal(line, "4-CPU x86_64 (AMD EPYC 7302P 16-Core Processor), 62.50 GiB, "
				  "Linux 6.1.0-18-amd64, governor performance, boost off, load 0.02");
	free(line);
	json_decref(req);
	json_decref(w);
	json_decref(fp);
	ab_test_rmtemp(dir);
}

static void test_laptop_fields(void **state)
{
	char *dir = make_laptop();
	json_t *fp = ab_env_fingerprint(dir);

	(void)state;
	assert_all_fields(fp);
	expect_str(fp, "hostname", "thinkpad");
	expect_str(fp, "os", "Fedora Linux 39 (Workstation Edition)");
	expect_str(fp, "kernel", "Linux 6.6.9-200.fc39.x86_64");
	expect_str(fp, "machine", "x86_64");
	expect_str(fp, "cpu_model", "Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz");
	expect_int(fp, "logical_cpus", 8);
	expect_int(fp, "online_cpus", 8);
	expect_str(fp, "online_cpu_list", "0-7");
	expect_bool(fp, "smt_active", 1);
	expect_str(fp, "smt_control", "on");
	expect_str(fp, "governor", "powersave");
	expect_str(fp, "cpufreq_driver", "intel_pstate");
	expect_bool(fp, "boost", 1);
	expect_str(fp, "boost_control", "/sys/devices/system/cpu/intel_pstate/no_turbo");
	expect_real(fp, "load_1m", 3.5);
	expect_real(fp, "load_5m", 2.1);
	expect_real(fp, "load_15m", 1.05);
	expect_int(fp, "tasks_running", 5);
	expect_int(fp, "tasks_total", 1200);
	expect_int(fp, "memory_bytes", 16000000LL * 1024);
	expect_int(fp, "memory_available_bytes", 4000000LL * 1024);
	expect_real(fp, "steal_fraction", 0.0);
	expect_int(fp, "thermal_throttle_count", 15);
	expect_str(fp, "power_source", "battery");
	expect_bool(fp, "on_battery", 1);
	expect_bool(fp, "virtual_machine", 0);
	expect_strings(fp, "vm_hints", NULL);
	expect_str(fp, "dmi_sys_vendor", "LENOVO");
	expect_str(fp, "dmi_product_name", "20L5CTO1WW");
	expect_bool(fp, "container", 0);
	expect_strings(fp, "container_hints", NULL);
	json_decref(fp);
	ab_test_rmtemp(dir);
}

static void test_laptop_warnings_and_gate(void **state)
{
	char *dir = make_laptop(), *line;
	json_t *fp = ab_env_fingerprint(dir), *w = ab_env_warnings(fp, AB_ENV_LOAD_THRESHOLD_DEFAULT);
	json_t *req = full_require();

	(void)state;
	assert_warning_ids(w, "governor", "boost", "load", "battery", "throttled", "smt", NULL);
	assert_warning(w, "governor", "warning",
		       "governor is 'powersave' (not performance): results vary with frequency scaling; "
		       "run 'sudo cpupower frequency-set -g performance'");
	assert_warning(w, "boost", "warning",
		       "boost/turbo is on: the clock follows temperature and power headroom, so samples drift; "
		       "run 'echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo'");
	assert_warning(w, "load", "warning",
		       "load average is 3.50 over the last minute (threshold 0.50): other work competes with the "
		       "benchmark for CPUs, caches and memory bandwidth; stop other jobs or wait for the host to "
		       "settle");
	assert_warning(w, "battery", "warning",
		       "running on battery: the firmware may lower clocks to save power; plug in AC power");
	assert_warning(w, "throttled", "warning",
		       "cpu0 was thermally throttled 15 times since boot: clocks drop when it runs hot; improve "
		       "cooling and check that the count does not grow during a run");
	assert_warning(w, "smt", "info",
		       "SMT (hyper-threading) is on: a sibling thread can share the core with the benchmark; to "
		       "rule it out run 'echo off | sudo tee /sys/devices/system/cpu/smt/control'");
	assert_unmet(fp, req, "governor is 'powersave', required 'performance'", "boost is on, required off",
		     "SMT is on, required off", "running on battery, AC power required",
		     "load average 3.50 (1 min) is above the maximum 1.00", NULL);
	line = ab_env_summary(fp);
	assert_string_equal(line, "8-CPU x86_64 (Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz), 15.26 GiB, "
				  "Linux 6.6.9-200.fc39.x86_64, governor powersave, boost on, on battery, load 3.50");
	free(line);
	json_decref(req);
	json_decref(w);
	json_decref(fp);
	ab_test_rmtemp(dir);
}

static void test_vm_fields(void **state)
{
	char *dir = make_vm();
	json_t *fp = ab_env_fingerprint(dir);

	(void)state;
	assert_all_fields(fp);
	expect_str(fp, "hostname", "ci-runner");
	expect_str(fp, "os", "Ubuntu 22.04.3 LTS");
	expect_str(fp, "kernel", "Linux 5.15.0-91-generic");
	expect_str(fp, "cpu_model", "Intel Xeon Processor (Cascadelake)");
	expect_int(fp, "logical_cpus", 2);
	expect_int(fp, "online_cpus", 2);
	expect_str(fp, "online_cpu_list", "0-1");
	expect_null(fp, "smt_active");
	expect_null(fp, "smt_control");
	expect_strings(fp, "governor", "performance", "schedutil", NULL);
	expect_null(fp, "cpufreq_driver");
	expect_null(fp, "boost");
	expect_null(fp, "boost_control");
	expect_real(fp, "load_1m", 0.10);
	expect_int(fp, "tasks_total", 180);
	expect_int(fp, "memory_bytes", 8000000LL * 1024);
	/* 5000 steal of 100000 jiffies; the guest column is not added. */
	expect_real(fp, "steal_fraction", 0.05);
	expect_null(fp, "thermal_throttle_count");
	expect_null(fp, "power_source");
	expect_null(fp, "on_battery");
	expect_bool(fp, "virtual_machine", 1);
	expect_strings(fp, "vm_hints", "cpu flag hypervisor", "dmi QEMU", NULL);
	expect_str(fp, "dmi_sys_vendor", "QEMU");
	expect_str(fp, "dmi_product_name", "Standard PC (Q35 + ICH9, 2009)");
	expect_bool(fp, "container", 0);
	expect_strings(fp, "container_hints", NULL);
	json_decref(fp);
	ab_test_rmtemp(dir);
}

static void test_vm_warnings_and_gate(void **state)
{
	char *dir = make_vm(), *line;
	json_t *fp = ab_env_fingerprint(dir), *w = ab_env_warnings(fp, AB_ENV_LOAD_THRESHOLD_DEFAULT);
	json_t *req = full_require();

	(void)state;
	assert_warning_ids(w, "governor", "steal", "virtualized", NULL);
	assert_warning(w, "governor", "warning",
		       "governors differ across CPUs (performance, schedutil): results vary with frequency "
		       "scaling; run 'sudo cpupower frequency-set -g performance'");
	assert_warning(w, "steal", "warning",
		       "steal time is 5.00% of CPU time since boot (above 1%): the hypervisor gives this guest's "
		       "CPUs to others; use a dedicated or bare-metal host");
	assert_warning(w, "virtualized", "info",
		       "running in a virtual machine (cpu flag hypervisor, dmi QEMU): the hypervisor and other "
		       "guests add noise; expect wider intervals, or use bare metal");
	assert_unmet(fp, req, "governors differ across CPUs (performance, schedutil), required 'performance' on all",
		     "boost unknown on this host", "SMT unknown on this host", "power source unknown on this host",
		     "steal time 5.00% is above the maximum 1.00%", NULL);
	line = ab_env_summary(fp);
	assert_string_equal(line, "2-CPU x86_64 (Intel Xeon Processor (Cascadelake)), 7.629 GiB, "
				  "Linux 5.15.0-91-generic, virtual machine, governors performance/schedutil, load 0.10");
	free(line);
	json_decref(req);
	json_decref(w);
	json_decref(fp);
	ab_test_rmtemp(dir);
}

static void test_container(void **state)
{
	char *dir = make_container(), *line;
	json_t *fp = ab_env_fingerprint(dir), *w;

	(void)state;
	assert_all_fields(fp);
	expect_str(fp, "hostname", "4f2a9c1e0b7d");
	expect_str(fp, "os", "Alpine Linux v3.19");
	/* No "model name" line (ARM) is an unknown model, not a guess. */
	expect_null(fp, "cpu_model");
	expect_int(fp, "logical_cpus", 3);
	expect_int(fp, "online_cpus", 3);
	expect_str(fp, "online_cpu_list", "0-1,3");
	expect_null(fp, "governor");
	expect_real(fp, "load_1m", 0.40);
	expect_real(fp, "load_15m", 0.42);
	expect_int(fp, "memory_bytes", 2048000LL * 1024);
	expect_null(fp, "memory_available_bytes");
	expect_null(fp, "steal_fraction");
	/* A mouse's battery (scope Device) does not power the host. */
	expect_str(fp, "power_source", "no_battery");
	expect_bool(fp, "on_battery", 0);
	/* No flags line and no DMI: nothing to judge a VM by. */
	expect_null(fp, "virtual_machine");
	expect_strings(fp, "vm_hints", NULL);
	expect_null(fp, "dmi_sys_vendor");
	expect_bool(fp, "container", 1);
	expect_strings(fp, "container_hints", "/.dockerenv", "/run/.containerenv", "/proc/1/cgroup docker",
		       "container=podman", NULL);
	w = ab_env_warnings(fp, AB_ENV_LOAD_THRESHOLD_DEFAULT);
	assert_warning_ids(w, "container", NULL);
	assert_warning(w, "container", "info",
		       "looks like a container (/.dockerenv, /run/.containerenv, /proc/1/cgroup docker, "
		       "container=podman): its CPU share and neighbours are set by the host; give it dedicated "
		       "CPUs (e.g. docker run --cpuset-cpus)");
	line = ab_env_summary(fp);
	assert_string_equal(line, "3-CPU aarch64, 1.953 GiB, Linux 6.5.0-1015-azure, container, load 0.40");
	free(line);
	json_decref(w);
	json_decref(fp);
	ab_test_rmtemp(dir);
}

/* A tree with nothing in it: every fact null, no warnings, every
 * requirement unmet because its evidence is missing. */
static void test_missing_files(void **state)
{
	char *dir = ab_test_mktemp("env-empty"), *line;
	json_t *fp = ab_env_fingerprint(dir), *w, *req = full_require();
	size_t i;

	(void)state;
	assert_all_fields(fp);
	expect_str(fp, "abtool_version", ABTOOL_VERSION);
	for (i = 0; i < NFIELDS; i++) {
		if (!strcmp(fields[i], "abtool_version") || strstr(fields[i], "_hints"))
			continue;
		expect_null(fp, fields[i]);
	}
	expect_strings(fp, "vm_hints", NULL);
	expect_strings(fp, "container_hints", NULL);
	w = ab_env_warnings(fp, AB_ENV_LOAD_THRESHOLD_DEFAULT);
	assert_warning_ids(w, NULL);
	assert_unmet(fp, req, "governor unknown on this host", "boost unknown on this host",
		     "SMT unknown on this host", "power source unknown on this host",
		     "load average unknown on this host", "steal time unknown on this host",
		     "online CPUs unknown on this host", NULL);
	line = ab_env_summary(fp);
	assert_string_equal(line, "CPU unknown");
	free(line);
	json_decref(req);
	json_decref(w);
	json_decref(fp);
	ab_test_rmtemp(dir);
}

/* The real system is readable and has the fields other code reads. */
static void test_real_system(void **state)
{
	json_t *fp = ab_env_fingerprint("");

	(void)state;
	assert_all_fields(fp);
	assert_true(json_is_string(json_object_get(fp, "kernel")));
	assert_true(json_is_string(json_object_get(fp, "machine")));
	assert_true(json_is_integer(json_object_get(fp, "logical_cpus")));
	assert_true(json_is_integer(json_object_get(fp, "memory_bytes")));
	assert_true(json_is_real(json_object_get(fp, "load_1m")));
	json_decref(fp);
}

/* ---- single rules ---- */

static void test_odd_files(void **state)
{
	char *dir = ab_test_mktemp("env-odd");
	json_t *fp;

	(void)state;
	ab_test_write(dir, CPU "online", "0-\n");                 /* malformed list */
	ab_test_write(dir, "proc/sys/kernel/osrelease", "6.8.0\n"); /* no ostype */
	ab_test_write(dir, "proc/loadavg", "0.75 0.50\n");
	ab_test_write(dir, "proc/stat", "cpu  10 20 30\n");          /* no steal column */
	ab_test_write(dir, "proc/meminfo", "MemTotal: lots\nMemAvailable: 1000 kB\n");
	ab_test_write(dir, CPU "smt/active", "maybe\n");
	ab_test_write(dir, CPU "intel_pstate/no_turbo", "1\n");
	ab_test_write(dir, CPU "cpufreq/boost", "1\n");
	write_cpu_file(dir, 0, "thermal_throttle/core_throttle_count", "n/a\n");
	fp = ab_env_fingerprint(dir);
	expect_null(fp, "online_cpus");
	expect_str(fp, "online_cpu_list", "0-");
	expect_str(fp, "kernel", "6.8.0");
	expect_real(fp, "load_1m", 0.75);
	expect_real(fp, "load_5m", 0.50);
	expect_null(fp, "load_15m");
	expect_null(fp, "tasks_running");
	expect_null(fp, "steal_fraction");
	expect_null(fp, "memory_bytes");
	expect_int(fp, "memory_available_bytes", 1024000);
	expect_null(fp, "smt_active");
	/* no_turbo says off but cpufreq/boost says on: on, named by the file that says so */
	expect_bool(fp, "boost", 1);
	expect_str(fp, "boost_control", "/sys/devices/system/cpu/cpufreq/boost");
	expect_null(fp, "thermal_throttle_count");
	json_decref(fp);

	ab_test_write(dir, CPU "online", "0-3,6,8-9\n");
	ab_test_write(dir, "proc/stat", "cpu  10 20 30 40 50 60 70\n");  /* before Linux 2.6.11: no steal */
	ab_test_write(dir, CPU "cpufreq/boost", "0\n");
	fp = ab_env_fingerprint(dir);
	expect_int(fp, "online_cpus", 7);
	expect_bool(fp, "boost", 0);
	expect_str(fp, "boost_control", "/sys/devices/system/cpu/intel_pstate/no_turbo");
	expect_null(fp, "steal_fraction");
	json_decref(fp);
	ab_test_rmtemp(dir);
}

/* Power: AC online wins over a full battery; a charging battery means AC;
 * a battery with no supply information is unknown. */
static void test_power_rules(void **state)
{
	char *dir = ab_test_mktemp("env-power");
	json_t *fp;

	(void)state;
	write_supply(dir, "BAT0", "Battery\n", NULL, NULL, "Full\n");
	fp = ab_env_fingerprint(dir);
	expect_null(fp, "power_source");
	expect_null(fp, "on_battery");
	json_decref(fp);

	write_supply(dir, "ucsi-source-psy-USBC000:001", "USB\n", NULL, "0\n", NULL);
	fp = ab_env_fingerprint(dir);
	expect_str(fp, "power_source", "battery");
	json_decref(fp);

	write_supply(dir, "ADP1", "Mains\n", NULL, "1\n", NULL);
	fp = ab_env_fingerprint(dir);
	expect_str(fp, "power_source", "ac");
	expect_bool(fp, "on_battery", 0);
	json_decref(fp);
	ab_test_rmtemp(dir);

	dir = ab_test_mktemp("env-power");
	write_supply(dir, "BAT1", "Battery\n", NULL, NULL, "Charging\n");
	fp = ab_env_fingerprint(dir);
	expect_str(fp, "power_source", "ac");
	json_decref(fp);
	ab_test_rmtemp(dir);
}

static json_t *fp_with(const char *key, json_t *value)
{
	json_t *fp = json_object();

	json_object_set_new(fp, key, value);
	return fp;
}

/* Summary parts the machines above do not reach. */
static void test_summary_parts(void **state)
{
	json_t *fp = json_pack("{s:i, s:i, s:s, s:s}", "logical_cpus", 8, "online_cpus", 4, "power_source", "ac",
			       "kernel", "Linux 6.1.0");
	char *line = ab_env_summary(fp);

	(void)state;
	assert_string_equal(line, "8-CPU (4 online), Linux 6.1.0, AC power");
	free(line);
	json_object_del(fp, "logical_cpus");
	json_object_set_new(fp, "cpu_model", json_string("Test CPU"));
	json_object_set_new(fp, "power_source", json_string("no_battery"));
	line = ab_env_summary(fp);
	assert_string_equal(line, "4-CPU (Test CPU), Linux 6.1.0");
	free(line);
	json_decref(fp);
}

/* The load after the samples: read from the fake tree, shown beside the
 * load at the start, and a warning when it rose above the threshold. */
static void test_load_after(void **state)
{
	char *dir = ab_test_mktemp("env-after"), *line;
	json_t *fp = json_pack("{s:f}", "load_1m", 0.42), *w;

	(void)state;
	ab_test_write(dir, "proc/loadavg", "1.10 0.90 0.70 3/200 555\n");
	ab_env_record_load_after(fp, dir);
	assert_close(json_real_value(json_object_get(fp, "load_after_1m")), 1.10, 6);
	assert_close(json_real_value(json_object_get(fp, "load_after_5m")), 0.90, 6);
	assert_close(json_real_value(json_object_get(fp, "load_after_15m")), 0.70, 6);
	line = ab_env_summary(fp);
	assert_string_equal(line, "CPU unknown, load 0.42 → 1.10");
	free(line);
	w = ab_env_warnings(fp, AB_ENV_LOAD_THRESHOLD_DEFAULT);
	assert_warning_ids(w, "load", NULL);
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(w, 0), "message")),
				"rose to 1.10"));
	json_decref(w);
	w = ab_env_warnings(fp, 1.5);
	assert_warning_ids(w, NULL);
	json_decref(w);
	/* an unreadable file: null, never a guessed zero */
	ab_env_record_load_after(fp, "/nonexistent-abtool-root");
	assert_true(json_is_null(json_object_get(fp, "load_after_1m")));
	line = ab_env_summary(fp);
	assert_string_equal(line, "CPU unknown, load 0.42");
	free(line);
	json_decref(fp);
	ab_test_rmtemp(dir);
}

/* Thresholds are strict: at the limit there is no warning. */
static void test_warning_thresholds(void **state)
{
	json_t *fp, *w;

	(void)state;
	fp = fp_with("load_1m", json_real(0.6));
	w = ab_env_warnings(fp, AB_ENV_LOAD_THRESHOLD_DEFAULT);
	assert_warning_ids(w, "load", NULL);
	json_decref(w);
	w = ab_env_warnings(fp, -1);  /* negative: the default */
	assert_warning_ids(w, "load", NULL);
	json_decref(w);
	w = ab_env_warnings(fp, 0.7);
	assert_warning_ids(w, NULL);
	json_decref(w);
	json_object_set_new(fp, "load_1m", json_real(0.4));
	w = ab_env_warnings(fp, -1);
	assert_warning_ids(w, NULL);
	json_decref(w);
	json_object_set_new(fp, "load_1m", json_real(0.6));
	w = ab_env_warnings(fp, NAN);  /* NaN: the default too */
	assert_warning_ids(w, "load", NULL);
	json_decref(w);
	json_object_set_new(fp, "load_1m", json_real(0.4));
	w = ab_env_warnings(fp, 0.3);
	assert_warning_ids(w, "load", NULL);
	json_decref(w);
	json_object_set_new(fp, "load_1m", json_real(0.6));
	w = ab_env_warnings(fp, 0.6);
	assert_warning_ids(w, NULL);
	json_decref(w);
	w = ab_env_warnings(fp, 2.0);
	assert_warning_ids(w, NULL);
	json_decref(w);
	json_decref(fp);

	fp = fp_with("steal_fraction", json_real(0.01));
	w = ab_env_warnings(fp, AB_ENV_LOAD_THRESHOLD_DEFAULT);
	assert_warning_ids(w, NULL);
	json_decref(w);
	json_object_set_new(fp, "steal_fraction", json_real(0.0101));
	w = ab_env_warnings(fp, AB_ENV_LOAD_THRESHOLD_DEFAULT);
	assert_warning_ids(w, "steal", NULL);
	json_decref(w);
	json_decref(fp);

	fp = fp_with("boost", json_true());
	json_object_set_new(fp, "boost_control", json_string("/sys/devices/system/cpu/cpufreq/boost"));
	w = ab_env_warnings(fp, AB_ENV_LOAD_THRESHOLD_DEFAULT);
	assert_warning(w, "boost", "warning",
		       "boost/turbo is on: the clock follows temperature and power headroom, so samples drift; "
		       "run 'echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost'");
	json_decref(w);
	json_decref(fp);

	fp = fp_with("governor", json_string("performance"));
	json_object_set_new(fp, "thermal_throttle_count", json_integer(0));
	json_object_set_new(fp, "on_battery", json_false());
	json_object_set_new(fp, "smt_active", json_false());
	w = ab_env_warnings(fp, AB_ENV_LOAD_THRESHOLD_DEFAULT);
	assert_warning_ids(w, NULL);
	json_decref(w);
	json_decref(fp);
}

/* Other busy processes: no warning below half a CPU; at and above it, one
 * naming them and the cost: on 2 CPUs, 1.5 others leave a sample 2/2.5 of
 * a CPU, so it waits 20% of its time; 0.8 others leave it a whole CPU. The
 * real host is read over a window, and its own process is not counted. */
static void test_busy_processes(void **state)
{
	json_t *fp, *w, *list;

	(void)state;
	fp = fp_with("other_cpus", json_real(0.49));
	json_object_set_new(fp, "online_cpus", json_integer(2));
	w = ab_env_warnings(fp, -1);
	assert_warning_ids(w, NULL);
	json_decref(w);
	json_object_set_new(fp, "other_cpus", json_real(1.5));
	list = json_pack("[{s:i, s:s, s:f}, {s:i, s:s, s:f}]", "pid", 7, "comm", "cc1", "cpus", 1.0,
			 "pid", 9, "comm", "stress-ng", "cpus", 0.5);
	json_object_set_new(fp, "busy_processes", list);
	w = ab_env_warnings(fp, -1);
	assert_warning(w, "busy", "warning",
		       "other processes use 1.5 CPUs (cc1 1.0, stress-ng 0.5): on 2 CPUs a single-threaded "
		       "sample will wait for a CPU about 20% of its time, which stretches wall time, draws "
		       "both sides' times together and takes more pairs to decide; stop them, decide on "
		       "cpu_ns, or set "
		       "contention: {reruns: auto}");
	json_decref(w);
	json_object_set_new(fp, "other_cpus", json_real(0.8));
	w = ab_env_warnings(fp, -1);
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(w, 0), "message")),
			       "share caches, memory bandwidth"));
	json_decref(w);
	json_decref(fp);

	fp = json_object();
	ab_env_busy_processes(fp, "", 20000000);
	assert_true(json_is_number(json_object_get(fp, "other_cpus")));
	assert_true(json_number_value(json_object_get(fp, "other_cpus")) >= 0);
	{
		size_t i;
		json_t *p;
		json_array_foreach(json_object_get(fp, "busy_processes"), i, p)
			assert_int_not_equal(json_integer_value(json_object_get(p, "pid")), getpid());
		assert_true(json_array_size(json_object_get(fp, "busy_processes")) <= 5);
	}
	json_decref(fp);
	fp = json_object();
	ab_env_busy_processes(fp, "/nonexistent", 1000000);
	assert_true(json_is_null(json_object_get(fp, "other_cpus")));
	json_decref(fp);
}

/* Met, unmet and unknown for each key on its own, at the boundaries. */
static void test_requirements_each_key(void **state)
{
	json_t *fp = json_pack("{s:s, s:b, s:b, s:b, s:f, s:f, s:i}", "governor", "performance", "boost", 1,
			       "smt_active", 0, "on_battery", 0, "load_1m", 1.0, "steal_fraction", 0.02,
			       "online_cpus", 1);
	json_t *req;

	(void)state;
	req = json_pack("{s:s}", "governor", "performance");
	assert_unmet(fp, req, NULL);
	json_decref(req);
	req = json_pack("{s:s}", "governor", "schedutil");
	assert_unmet(fp, req, "governor is 'performance', required 'schedutil'", NULL);
	json_decref(req);
	req = json_pack("{s:b}", "boost", 1);
	assert_unmet(fp, req, NULL);
	json_decref(req);
	req = json_pack("{s:b}", "boost", 0);
	assert_unmet(fp, req, "boost is on, required off", NULL);
	json_decref(req);
	req = json_pack("{s:b}", "smt", 1);
	assert_unmet(fp, req, "SMT is off, required on", NULL);
	json_decref(req);
	req = json_pack("{s:b}", "ac_power", 0);
	assert_unmet(fp, req, "not running on battery, battery required", NULL);
	json_decref(req);
	req = json_pack("{s:f}", "max_load", 1.0);  /* at the maximum: met */
	assert_unmet(fp, req, NULL);
	json_decref(req);
	req = json_pack("{s:f}", "max_load", 0.99);
	assert_unmet(fp, req, "load average 1.00 (1 min) is above the maximum 0.99", NULL);
	json_decref(req);
	req = json_pack("{s:f}", "max_steal", 0.02);
	assert_unmet(fp, req, NULL);
	json_decref(req);
	req = json_pack("{s:f}", "max_steal", 0.01);
	assert_unmet(fp, req, "steal time 2.00% is above the maximum 1.00%", NULL);
	json_decref(req);
	req = json_pack("{s:i}", "min_online_cpus", 1);
	assert_unmet(fp, req, NULL);
	json_decref(req);
	req = json_pack("{s:i}", "min_online_cpus", 2);
	assert_unmet(fp, req, "1 CPU online, at least 2 required", NULL);
	json_decref(req);
	req = json_object();
	assert_unmet(fp, req, NULL);
	json_decref(req);
	json_decref(fp);
}

static void test_requirements_invalid(void **state)
{
	json_t *fp = json_object(), *req;
	char **unmet = (char **)"not set";

	(void)state;
	req = json_pack("{s:s}", "gvernor", "performance");
	assert_int_equal(ab_env_check_requirements(fp, req, &unmet), AB_EINVALID);
	assert_null(unmet);
	assert_string_equal(ab_error_last(), "environment.require: unknown key 'gvernor'; did you mean 'governor'?");
	json_decref(req);
	req = json_pack("{s:s}", "cpu_count", "4");
	assert_int_equal(ab_env_check_requirements(fp, req, &unmet), AB_EINVALID);
	assert_string_equal(ab_error_last(), "environment.require: unknown key 'cpu_count'; expected governor, "
					     "boost, smt, ac_power, max_load, max_steal or min_online_cpus");
	json_decref(req);
	req = json_pack("{s:s}", "boost", "false");
	assert_int_equal(ab_env_check_requirements(fp, req, &unmet), AB_EINVALID);
	assert_string_equal(ab_error_last(), "environment.require.boost: expected true or false");
	json_decref(req);
	req = json_pack("{s:f}", "max_steal", 1.5);
	assert_int_equal(ab_env_check_requirements(fp, req, &unmet), AB_EINVALID);
	assert_string_equal(ab_error_last(), "environment.require.max_steal: expected a fraction from 0 to 1");
	json_decref(req);
	req = json_pack("{s:f}", "min_online_cpus", 2.0);
	assert_int_equal(ab_env_check_requirements(fp, req, &unmet), AB_EINVALID);
	assert_string_equal(ab_error_last(), "environment.require.min_online_cpus: expected a whole number >= 1");
	json_decref(req);
	req = json_pack("{s:f}", "max_load", -1.0);
	assert_int_equal(ab_env_check_requirements(fp, req, &unmet), AB_EINVALID);
	json_decref(req);
	req = json_pack("[s]", "governor");
	assert_int_equal(ab_env_check_requirements(fp, req, &unmet), AB_EINVALID);
	assert_string_equal(ab_error_last(), "environment.require: expected a map of requirements");
	json_decref(req);
	json_decref(fp);
}

/* Parse text and compare the JSON it yields. */
static void assert_parses(const char *key, const char *text, const char *want_json)
{
	json_t *out = (json_t *)"not set", *want = json_loads(want_json, JSON_DECODE_ANY, NULL);

	if (ab_env_require_parse(&out, key, text) < 0)
		fail_msg("%s: '%s' rejected: %s", key, text, ab_error_last());
	if (!json_equal(out, want))
		fail_msg("%s: '%s' parsed to something other than %s", key, text, want_json);
	json_decref(out);
	json_decref(want);
}

static void assert_rejects(const char *key, const char *text, const char *message)
{
	json_t *out = (json_t *)"not set";

	assert_int_equal(ab_env_require_parse(&out, key, text), AB_EINVALID);
	assert_null(out);
	assert_string_equal(ab_error_last(), message);
}

static void test_require_parse(void **state)
{
	json_t *fp, *req = json_object(), *v;
	char **unmet;

	(void)state;
	assert_parses("governor", "performance", "\"performance\"");
	assert_parses("governor", "schedutil", "\"schedutil\"");
	assert_rejects("governor", "perfromance", "unknown governor 'perfromance'; did you mean 'performance'?");
	assert_rejects("governor", "turbo", "unknown governor 'turbo'; expected performance, powersave, ondemand, "
					    "conservative, schedutil or userspace");
	assert_parses("boost", "false", "false");
	assert_parses("boost", "True", "true");
	assert_parses("smt", "FALSE", "false");
	assert_parses("ac_power", "true", "true");
	assert_rejects("ac_power", "yes", "expected true or false");
	assert_parses("max_load", "1", "1.0");
	assert_parses("max_load", "0.25", "0.25");
	assert_rejects("max_load", "-1", "expected a load average like 1.0 (a number >= 0)");
	assert_rejects("max_load", "low", "expected a load average like 1.0 (a number >= 0)");
	assert_parses("max_steal", "1%", "0.01");
	assert_parses("max_steal", "0.02", "0.02");
	assert_rejects("max_steal", "150%", "expected a percentage like 1% or a fraction from 0 to 1");
	assert_rejects("max_steal", "2", "expected a percentage like 1% or a fraction from 0 to 1");
	assert_parses("min_online_cpus", "2", "2");
	assert_rejects("min_online_cpus", "0", "expected a whole number of CPUs >= 1");
	assert_rejects("min_online_cpus", "2.5", "expected a whole number of CPUs >= 1");
	assert_rejects("max_laod", "1", "unknown key 'max_laod'; did you mean 'max_load'?");
	assert_rejects("nice", "1", "unknown key 'nice'; expected governor, boost, smt, ac_power, max_load, "
				    "max_steal or min_online_cpus");

	/* What parse yields, check accepts: the round trip config.c makes. */
	assert_int_equal(ab_env_require_parse(&v, "max_steal", "1%"), 0);
	json_object_set_new(req, "max_steal", v);
	assert_int_equal(ab_env_require_parse(&v, "min_online_cpus", "2"), 0);
	json_object_set_new(req, "min_online_cpus", v);
	fp = json_pack("{s:f, s:i}", "steal_fraction", 0.001, "online_cpus", 2);
	assert_int_equal(ab_env_check_requirements(fp, req, &unmet), 0);
	assert_null(unmet);
	json_decref(fp);
	json_decref(req);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tuned_fields),
		cmocka_unit_test(test_tuned_warnings_and_gate),
		cmocka_unit_test(test_laptop_fields),
		cmocka_unit_test(test_laptop_warnings_and_gate),
		cmocka_unit_test(test_vm_fields),
		cmocka_unit_test(test_vm_warnings_and_gate),
		cmocka_unit_test(test_container),
		cmocka_unit_test(test_missing_files),
		cmocka_unit_test(test_real_system),
		cmocka_unit_test(test_odd_files),
		cmocka_unit_test(test_power_rules),
		cmocka_unit_test(test_summary_parts),
		cmocka_unit_test(test_load_after),
		cmocka_unit_test(test_warning_thresholds),
		cmocka_unit_test(test_busy_processes),
		cmocka_unit_test(test_requirements_each_key),
		cmocka_unit_test(test_requirements_invalid),
		cmocka_unit_test(test_require_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
