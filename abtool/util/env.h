/* env.h - the host fingerprint stored with each run (docs/measurement.md):
 * what machine, how loaded, how tuned; the warnings it
 * implies; and the `environment.require` gate evaluated on it.
 *
 * Everything is read from files under a root folder, never from system
 * calls, so tests can fake a machine with a tree of proc/, sys/ and etc/.
 * The field list is documented in docs/measurement.md; names are stable
 * because every run stores its fingerprint. */
#ifndef AB_ENV_H
#define AB_ENV_H

#include <jansson.h>

/* Default for ab_env_warnings' `load_threshold`: the 1-minute load average
 * (absolute, not per CPU) above which the host does not count as idle. */
#define AB_ENV_LOAD_THRESHOLD_DEFAULT 0.5

/* Default steal fraction above which ab_env_warnings warns (1%). */
#define AB_ENV_STEAL_THRESHOLD 0.01

/*
 * Read the fingerprint of the machine whose files live under `root`:
 * "" for the real system, a fake tree in tests. Returns a new reference to
 * an object holding every field of docs/measurement.md; a field that
 * cannot be read is null, never guessed. The one exception to "files only"
 * is "machine" on the real system, which falls back to uname(2) on kernels
 * without /proc/sys/kernel/arch. Never fails; does not touch the error
 * slot.
 */
json_t *ab_env_fingerprint(const char *root);

/*
 * Add to fingerprint `fp` (borrowed, modified) what the host's other
 * processes do now: "other_cpus", the CPUs every process but the caller
 * used on average over the next `window_ns` (the caller sleeps meanwhile;
 * utime + stime of root/proc/PID/stat, clock-tick resolution), and
 * "busy_processes", the five busiest of them that used at least 0.05 CPU,
 * [{pid, comm, cpus}], busiest first. A process started or ended within
 * the window is not counted. null and [] when root/proc cannot be read.
 * `root` as for ab_env_fingerprint. Never fails.
 */
void ab_env_busy_processes(json_t *fp, const char *root, int64_t window_ns);

/* The window ab_env_busy_processes watches at the start of a run. */
#define AB_ENV_BUSY_WINDOW_NS 100000000

/*
 * Add the load averages of now to fingerprint `fp` (borrowed, modified) as
 * "load_after_1m", "load_after_5m" and "load_after_15m" (numbers, or null
 * when root/proc/loadavg cannot be read), beside the "load_*" fields taken
 * with the fingerprint. A run calls it after its last sample, so the
 * fingerprint shows the load before and after. `root` as for
 * ab_env_fingerprint. Never fails; does not touch the error slot.
 */
void ab_env_record_load_after(json_t *fp, const char *root);

/*
 * One line for reports, with only what is known, e.g. "2-CPU x86_64 (Intel
 * Xeon …), 23.59 GiB, Linux 6.1.0, governor performance, boost off, AC
 * power, load 0.08" or, when the load after the samples was recorded,
 * "load 0.08 → 1.10" (1-minute averages). `fp` is borrowed; returns a new
 * string.
 */
char *ab_env_summary(const json_t *fp);

/* The strings of a JSON array joined with `sep` ("?" for an element that
 * is not a string), for the summary, the warnings and the unmet
 * requirements: "performance/powersave". `arr` is borrowed; returns a new
 * string ("" for an empty or missing array). */
char *ab_env_join_strings(const json_t *arr, const char *sep);

/*
 * The warnings that apply to fingerprint `fp` (borrowed), as a new
 * reference to an array of objects {"id", "level", "message"}, in a fixed
 * order:
 *   id            level    when
 *   "governor"    warning  a scaling governor other than "performance"
 *   "boost"       warning  boost/turbo on
 *   "load"        warning  load_1m > load_threshold, or (else) load_after_1m
 *                          > load_threshold: the load rose during the run
 *   "busy"        warning  other_cpus >= 0.5 (ab_env_busy_processes): names the
 *                          busiest processes and what they will cost a
 *                          single-threaded sample
 *   "battery"     warning  on_battery is true
 *   "steal"       warning  steal_fraction > AB_ENV_STEAL_THRESHOLD
 *   "throttled"   warning  thermal_throttle_count > 0
 *   "smt"         info     smt_active is true
 *   "virtualized" info     virtual_machine is true
 *   "container"   info     container is true
 * `level` is "warning" (results are likely noisier or biased) or "info"
 * (worth knowing, often unavoidable). `message` is one line, lowercase, no
 * final period, ending with what to do. Unknown (null) facts raise no
 * warning. `load_threshold` is an absolute 1-minute load average; pass
 * AB_ENV_LOAD_THRESHOLD_DEFAULT (a negative or NaN value means the default).
 */
json_t *ab_env_warnings(const json_t *fp, double load_threshold);

/*
 * Convert one entry of the experiment file's `environment.require` map
 * from its YAML scalar text to the JSON value ab_env_check_requirements
 * takes, so config.c can check each entry where it is written:
 *   out         receives a new reference on success (NULL on error)
 *   key         the key under `require`, e.g. "governor"
 *   value_text  the scalar as written, e.g. "performance", "false", "1%"
 * Keys and accepted values (docs/measurement.md):
 *   governor         performance|powersave|ondemand|conservative|
 *                    schedutil|userspace                     -> string
 *   boost            true|false                              -> bool
 *   smt              true|false                              -> bool
 *   ac_power         true|false                              -> bool
 *   max_load         number >= 0 (1-minute load average)     -> real
 *   max_steal        fraction 0..1 or percentage "1%"        -> real
 *   min_online_cpus  integer >= 1                            -> integer
 * Errors: AB_EINVALID with a message that carries no location ("expected
 * true or false"; "unknown key 'gvernor'; did you mean 'governor'?"),
 * for config.c to prefix with file:line:col.
 */
int ab_env_require_parse(json_t **out, const char *key, const char *value_text);

/*
 * Evaluate the requirement object `require` (borrowed; keys as for
 * ab_env_require_parse, values already typed) against fingerprint `fp`
 * (borrowed). `*unmet` receives a new NULL-terminated array with one
 * reason per unmet condition (free with ab_strv_free), or NULL when all
 * are met; reasons come in the key order listed above.
 *
 * A condition whose fact is null counts as unmet ("governor unknown on
 * this host"): a gate that passed on missing evidence would let a run on
 * an unchecked host through. Hosts that cannot show a fact (a VM has no
 * scaling governor) should not require it.
 *
 * Returns the number of unmet conditions (0 = all met), or AB_EINVALID
 * when `require` is not an object, has an unknown key or a value of the
 * wrong type (the message names the key); then *unmet is NULL.
 */
int ab_env_check_requirements(const json_t *fp, const json_t *require, char ***unmet);

#endif
