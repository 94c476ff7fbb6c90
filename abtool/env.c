/* env.c - the host fingerprint (see env.h). */
#include "env.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* First line of root/path, trimmed (new string), or NULL. */
static char *read_line(const char *root, const char *path)
{
	char *full = ab_xasprintf("%s%s", root, path), *text = NULL;
	size_t len;

	if (ab_read_file(&text, &len, full) < 0) {
		free(full);
		return NULL;
	}
	free(full);
	text[strcspn(text, "\n")] = '\0';
	return text;
}

/* Value of "key<sep>value" in a file of such lines (new string), or NULL. */
static char *read_field(const char *root, const char *path, const char *key)
{
	char *full = ab_xasprintf("%s%s", root, path), *text = NULL, *line, *save = NULL, *out = NULL;
	size_t len, klen = strlen(key);

	if (ab_read_file(&text, &len, full) == 0) {
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			if (strncmp(line, key, klen))
				continue;
			line += klen;
			while (*line == ' ' || *line == '\t' || *line == ':' || *line == '=')
				line++;
			out = ab_xstrdup(line);
			if (out[0] == '"') {  /* os-release quotes values */
				memmove(out, out + 1, strlen(out));
				out[strcspn(out, "\"")] = '\0';
			}
			break;
		}
	}
	free(text);
	free(full);
	return out;
}

static json_t *string_or_null(char *s)
{
	json_t *j = s ? json_string(s) : json_null();
	free(s);
	return j;
}

json_t *ab_env_fingerprint(const char *root)
{
	json_t *fp = json_object();
	struct utsname u;
	char *mem = read_field(root, "/proc/meminfo", "MemTotal"), *load = read_line(root, "/proc/loadavg");
	char *online = read_line(root, "/sys/devices/system/cpu/online");
	double l1;

	json_object_set_new(fp, "cpu_model", string_or_null(read_field(root, "/proc/cpuinfo", "model name")));
	json_object_set_new(fp, "logical_cpus", json_integer(sysconf(_SC_NPROCESSORS_CONF)));
	json_object_set_new(fp, "online_cpus", string_or_null(online));
	json_object_set_new(fp, "governor", string_or_null(read_line(
		root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")));
	json_object_set_new(fp, "memory_bytes",
			    mem ? json_integer((json_int_t)strtoll(mem, NULL, 10) * 1024) : json_null());
	free(mem);
	json_object_set_new(fp, "load_1m", load && sscanf(load, "%lf", &l1) == 1 ? json_real(l1) : json_null());
	free(load);
	if (uname(&u) == 0) {
		json_object_set_new(fp, "kernel", json_sprintf("%s %s", u.sysname, u.release));
		json_object_set_new(fp, "machine", json_string(u.machine));
		json_object_set_new(fp, "hostname", json_string(u.nodename));
	}
	json_object_set_new(fp, "os", string_or_null(read_field(root, "/etc/os-release", "PRETTY_NAME")));
	json_object_set_new(fp, "abtool_version", json_string(ABTOOL_VERSION));
	return fp;
}

char *ab_env_summary(const json_t *fp)
{
	const char *model = json_string_value(json_object_get(fp, "cpu_model"));
	const char *kernel = json_string_value(json_object_get(fp, "kernel"));
	const char *gov = json_string_value(json_object_get(fp, "governor"));
	const char *machine = json_string_value(json_object_get(fp, "machine"));
	json_t *mem = json_object_get(fp, "memory_bytes"), *load = json_object_get(fp, "load_1m");
	char membuf[32] = "memory unknown", loadbuf[32] = "unknown";

	if (json_is_number(load))
		snprintf(loadbuf, sizeof(loadbuf), "%.2f", json_number_value(load));
	if (json_is_integer(mem))
		ab_format_bytes(membuf, sizeof(membuf), (double)json_integer_value(mem));
	return ab_xasprintf("%lld-CPU %s%s%s%s, %s, %s%s%s%s, load %s",
			    (long long)json_integer_value(json_object_get(fp, "logical_cpus")),
			    machine ? machine : "", model ? " (" : "", model ? model : "", model ? ")" : "",
			    membuf, kernel ? kernel : "kernel unknown", gov ? ", governor `" : "",
			    gov ? gov : "", gov ? "`" : "", loadbuf);
}
