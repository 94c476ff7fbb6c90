/* env_summary.c - the fingerprint in words: the one-line summary and the
 * warnings about the host (see env.h; the rules in docs/measurement.md). */
#include "env.h"
#include "error.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

char *ab_env_join_strings(const json_t *arr, const char *sep)
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
		char *list = ab_env_join_strings(gov, "/");
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
		char *names = ab_env_join_strings(gov, ", ");
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
		char *hints = ab_env_join_strings(json_object_get(fp, "vm_hints"), ", ");
		add_warning(list, "virtualized", "info",
		     ab_xasprintf("running in a virtual machine (%s): the hypervisor and other guests add noise; "
				  "expect wider intervals, or use bare metal", hints));
		free(hints);
	}
	if (is_true(fp, "container")) {
		char *hints = ab_env_join_strings(json_object_get(fp, "container_hints"), ", ");
		add_warning(list, "container", "info",
		     ab_xasprintf("looks like a container (%s): its CPU share and neighbours are set by the host; "
				  "give it dedicated CPUs (e.g. docker run --cpuset-cpus)", hints));
		free(hints);
	}
	return list;
}
