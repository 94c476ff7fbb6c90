# abtool env: the fingerprint of a fake laptop tree (--root) printed as
# aligned fields and warnings, the same as JSON; the real host exits 0.
. "$(dirname "$0")/lib.sh"

R="$T/root"
C="$R/sys/devices/system/cpu"
mkdir -p "$R/proc/sys/kernel" "$R/etc" "$C/smt" "$C/intel_pstate" "$C/cpu0/cpufreq" "$C/cpu1/cpufreq" \
	"$C/cpu0/thermal_throttle" "$R/sys/class/power_supply/BAT0" "$R/sys/class/power_supply/AC"
echo laptop >"$R/proc/sys/kernel/hostname"
echo Linux >"$R/proc/sys/kernel/ostype"
echo 6.6.9 >"$R/proc/sys/kernel/osrelease"
echo x86_64 >"$R/proc/sys/kernel/arch"
echo 'PRETTY_NAME="Test OS 1.0"' >"$R/etc/os-release"
printf 'processor\t: 0\nmodel name\t: Test CPU @ 2.00GHz\nflags\t\t: fpu ht\n\nprocessor\t: 1\nmodel name\t: Test CPU @ 2.00GHz\nflags\t\t: fpu ht\n' \
	>"$R/proc/cpuinfo"
echo 0-1 >"$C/online"
echo 1 >"$C/smt/active"
echo on >"$C/smt/control"
echo powersave >"$C/cpu0/cpufreq/scaling_governor"
echo powersave >"$C/cpu1/cpufreq/scaling_governor"
echo intel_pstate >"$C/cpu0/cpufreq/scaling_driver"
echo 0 >"$C/intel_pstate/no_turbo"
echo 2 >"$C/cpu0/thermal_throttle/core_throttle_count"
echo '1.25 0.50 0.25 2/300 4000' >"$R/proc/loadavg"
printf 'MemTotal:        8388608 kB\nMemAvailable:    4194304 kB\n' >"$R/proc/meminfo"
echo 'cpu  900 0 50 9000 0 0 0 50 0 0' >"$R/proc/stat"
echo Battery >"$R/sys/class/power_supply/BAT0/type"
echo Discharging >"$R/sys/class/power_supply/BAT0/status"
echo Mains >"$R/sys/class/power_supply/AC/type"
echo 0 >"$R/sys/class/power_supply/AC/online"

expect_exit 0 "$ABTOOL" env --root "$R"
cat >"$T/want" <<EOF
abtool_version:         $("$ABTOOL" --version | cut -d' ' -f2)
hostname:               laptop
os:                     Test OS 1.0
kernel:                 Linux 6.6.9
machine:                x86_64
cpu_model:              Test CPU @ 2.00GHz
logical_cpus:           2
online_cpus:            2
online_cpu_list:        0-1
smt_active:             yes
smt_control:            on
governor:               powersave
cpufreq_driver:         intel_pstate
boost:                  yes
boost_control:          /sys/devices/system/cpu/intel_pstate/no_turbo
load_1m:                1.25
load_5m:                0.50
load_15m:               0.25
tasks_running:          2
tasks_total:            300
memory_bytes:           8589934592 (8.000 GiB)
memory_available_bytes: 4294967296 (4.000 GiB)
steal_fraction:         0.005 (0.50%)
thermal_throttle_count: 2
power_source:           battery
on_battery:             yes
virtual_machine:        no
vm_hints:               none
dmi_sys_vendor:         unknown
dmi_product_name:       unknown
container:              unknown
container_hints:        none
other_cpus:             unknown
busy_processes:         none

warning: governor is 'powersave' (not performance): results vary with frequency scaling; run 'sudo cpupower frequency-set -g performance'
warning: boost/turbo is on: the clock follows temperature and power headroom, so samples drift; run 'echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo'
warning: load average is 1.25 over the last minute (threshold 0.50): other work competes with the benchmark for CPUs, caches and memory bandwidth; stop other jobs or wait for the host to settle
warning: running on battery: the firmware may lower clocks to save power; plug in AC power
warning: cpu0 was thermally throttled 2 times since boot: clocks drop when it runs hot; improve cooling and check that the count does not grow during a run
note: SMT (hyper-threading) is on: a sibling thread can share the core with the benchmark; to rule it out run 'echo off | sudo tee /sys/devices/system/cpu/smt/control'
EOF
diff -u "$T/want" "$T/out" || fail "abtool env --root: output differs"

# --json: {fingerprint, warnings} with the same facts, reals as written.
expect_exit 0 "$ABTOOL" env --root "$R" --json
[ "$(jqv "$T/out" '.fingerprint.load_1m')" = 1.25 ] || fail "load_1m"
[ "$(jqv "$T/out" '.fingerprint.steal_fraction')" = 0.005 ] || fail "steal_fraction"
[ "$(jqv "$T/out" '.fingerprint.container')" = null ] || fail "container"
[ "$(jqv "$T/out" '.fingerprint | length')" = 34 ] || fail "field count"
[ "$(jqv "$T/out" '[.warnings[].id] | join(",")')" = governor,boost,load,battery,throttled,smt ] ||
	fail "warning ids"
[ "$(jqv "$T/out" '.warnings[5].level')" = info ] || fail "smt is informational"

# The real host: exit 0, the fields other code reads are present.
expect_exit 0 "$ABTOOL" env --json
for k in cpu_model logical_cpus kernel hostname memory_bytes governor load_1m; do
	[ "$(jqv "$T/out" ".fingerprint | has(\"$k\")")" = true ] || fail "real host: no field $k"
done
expect_exit 0 "$ABTOOL" env
assert_contains "$T/out" "kernel:                 Linux "

# Usage errors.
expect_exit 64 "$ABTOOL" env --bogus
# one argument is an experiment file (environment.commands); two are too many
expect_exit 64 "$ABTOOL" env extra
assert_contains "$T/err" "'extra': no such file"
expect_exit 64 "$ABTOOL" env a.yaml extra
assert_contains "$T/err" "unexpected argument 'extra'"
echo ok
