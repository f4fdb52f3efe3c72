// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/sched/freq_invariance: the files exist for every
 * online CPU and parse, and the clocks behave as PELT defines them:
 *
 *   rq_clock_pelt = clock_pelt - lost_idle_time <= clock_task
 *   clock_pelt and lost_idle_time never go backwards
 *   clock_pelt == clock_task once the CPU idles (it syncs back)
 *   lost_idle_time only grows after a CPU was always running
 *
 * An offline CPU's files read "offline", also while other readers run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"

#define FI_DIR		FI_DEBUGFS
#define READS		200

/* fields[FIRST_SCALE..LAST_SCALE] are scales and capacities: 1..1024. */
#define FIRST_SCALE	6
#define LAST_SCALE	9
static const char * const fields[] = {
	"clock_task", "clock_pelt", "lost_idle_time", "rq_clock_pelt",
	"clock_pelt_idle", "clock_idle", "freq_scale", "cpu_scale",
	"capacity_orig", "capacity", "util_avg", "runnable_avg",
	"load_avg", "util_est",
};

static int cpus[64], nr_cpus, test_cpu, sampler_cpu;
static char hotplug_path[128];
static bool cpu_offlined, have_override, is_x86;

/* Where no override can force a scale, the tests that need one say so. */
static int skip_no_override(void)
{
	fi_info("no cpuN/freq_scale_override (CONFIG_X86_FREQ_SCALE_OVERRIDE)\n");
	return KSFT_SKIP;
}

static int read_field(int cpu, const char *field, uint64_t *val)
{
	char path[128];

	snprintf(path, sizeof(path), FI_DIR "/cpu%d/%s", cpu, field);
	return fi_read_u64(path, val);
}

static int test_files_parse(void)
{
	uint64_t v;
	char path[128];
	struct stat st;
	int i, f, ret;

	if (fi_read_u64(FI_DIR "/invariant", &v) || v > 1) {
		fi_err("expected 0 or 1 in %s/invariant", FI_DIR);
		return KSFT_FAIL;
	}
	fi_info("invariant: %llu\n", (unsigned long long)v);
	for (i = 0; i < nr_cpus; i++) {
		for (f = 0; f < ARRAY_SIZE(fields); f++) {
			snprintf(path, sizeof(path), FI_DIR "/cpu%d/%s", cpus[i], fields[f]);
			if (stat(path, &st)) {
				fi_err("%s: %m", path);
				return KSFT_FAIL;
			}
			if ((st.st_mode & 07777) != 0444) {
				fi_err("%s: expected mode 0444, got %04o",
				       path, st.st_mode & 07777);
				return KSFT_FAIL;
			}
			ret = fi_read_u64(path, &v);
			if (ret) {
				fi_err("%s: expected a number: %s", path, strerror(-ret));
				return KSFT_FAIL;
			}
			if (f >= FIRST_SCALE && f <= LAST_SCALE && (v < 1 || v > 1024)) {
				fi_err("%s: expected 1..1024, got %llu",
				       path, (unsigned long long)v);
				return KSFT_FAIL;
			}
		}
	}
	fi_info("%d CPUs x %zu files parse, mode 0444\n", nr_cpus, ARRAY_SIZE(fields));
	return KSFT_PASS;
}

/*
 * The capacities hold what they are: capacity_orig is the CPU's capacity
 * (arch_scale_cpu_capacity(); 6.1's rq->cpu_capacity_orig), 1024 on the
 * biggest CPU, and capacity
 * is what CFS has left of it. (The root cfs_rq's util_avg has no such
 * bound: it is the sum of its entities', and a task that migrates in
 * brings its own; cpu_util_cfs() clamps it for that reason.)
 */
static int test_capacity(void)
{
	uint64_t scale, orig, cap, max_orig = 0;
	int i;

	for (i = 0; i < nr_cpus; i++) {
		if (read_field(cpus[i], "cpu_scale", &scale) ||
		    read_field(cpus[i], "capacity_orig", &orig) ||
		    read_field(cpus[i], "capacity", &cap)) {
			fi_err("cpu%d: cannot read the capacities", cpus[i]);
			return KSFT_FAIL;
		}
		if (orig != scale || cap > orig) {
			fi_err("cpu%d: expected capacity <= capacity_orig = cpu_scale, got %llu, %llu, %llu",
			       cpus[i], (unsigned long long)cap, (unsigned long long)orig,
			       (unsigned long long)scale);
			return KSFT_FAIL;
		}
		if (orig > max_orig)
			max_orig = orig;
	}
	if (max_orig != 1024) {
		fi_err("expected capacity_orig 1024 on the biggest CPU, got %llu",
		       (unsigned long long)max_orig);
		return KSFT_FAIL;
	}
	return KSFT_PASS;
}

/* Patch 2's lines in sched/debug: one of each per online CPU, in range. */
static int test_sched_debug_lines(void)
{
	int n_pelt = 0, n_lost = 0, n_scale = 0, bad = 0;
	char line[256], name[64];
	double val;
	FILE *f;

	f = fopen("/sys/kernel/debug/sched/debug", "r");
	if (!f) {
		fi_err("/sys/kernel/debug/sched/debug: %m");
		return KSFT_FAIL;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " .%63s : %lf", name, &val) != 2)
			continue;
		if (!strcmp(name, "clock_pelt"))
			n_pelt++, bad |= val <= 0;
		else if (!strcmp(name, "lost_idle_time"))
			n_lost++, bad |= val < 0;
		else if (!strcmp(name, "arch_scale_freq_capacity"))
			n_scale++, bad |= val < 1 || val > 1024;
	}
	fclose(f);
	if (bad || n_pelt != nr_cpus || n_lost != nr_cpus || n_scale != nr_cpus) {
		fi_err("expected .clock_pelt, .lost_idle_time, .arch_scale_freq_capacity once per CPU (%d) and in range, got %d, %d, %d%s",
		       nr_cpus, n_pelt, n_lost, n_scale, bad ? ", out of range" : "");
		return KSFT_FAIL;
	}
	return KSFT_PASS;
}

/* A CPU's .arch_scale_freq_capacity in sched/debug, -1 if not found. */
static long sched_debug_scale(int cpu)
{
	char line[256], head[32];
	long val = -1;
	bool in = false;
	FILE *f;

	f = fopen("/sys/kernel/debug/sched/debug", "r");
	if (!f)
		return -1;
	snprintf(head, sizeof(head), "cpu#%d", cpu);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "cpu#", 4))
			in = !strncmp(line, head, strlen(head)) &&
			     (line[strlen(head)] == ',' || line[strlen(head)] == '\n');
		if (in && sscanf(line, " .arch_scale_freq_capacity : %ld", &val) == 1)
			break;
	}
	fclose(f);
	return val;
}

/*
 * Since 6.12, hybrid_cpus: "off", where every CPU's capacity is 1024 (x86
 * has no other without hybrid scaling), or each CPU's capacity, which
 * must be its cpu_scale, and freq_ratio, at least 1024 as max_freq_ratio
 */
static int check_hybrid_cpus(void)
{
	unsigned long long cap, ratio;
	char line[128];
	uint64_t scale;
	int i, cpu, n = 0;
	bool off;
	FILE *f;

	f = fopen(FI_DIR "/hybrid_cpus", "r");
	if (!f) {
		fi_err("cannot open hybrid_cpus: %m");
		return -1;
	}
	off = fgets(line, sizeof(line), f) && !strcmp(line, "off\n");
	while (!off && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d %llu %llu", &cpu, &cap, &ratio) != 3 ||
		    read_field(cpu, "cpu_scale", &scale) || cap != scale || ratio < 1024) {
			fi_err("hybrid_cpus: \"%.*s\": want a CPU, its cpu_scale and a ratio >= 1024",
			       (int)strcspn(line, "\n"), line);
			fclose(f);
			return -1;
		}
		n++;
	}
	fclose(f);
	if (!off) {
		fi_info("hybrid capacity scaling on: %d CPUs\n", n);
		return n ? 0 : -1;
	}
	for (i = 0; i < nr_cpus; i++) {
		if (read_field(cpus[i], "cpu_scale", &scale) || scale != 1024) {
			fi_err("hybrid_cpus \"off\", but cpu%d's cpu_scale is not 1024", cpus[i]);
			return -1;
		}
	}
	fi_info("hybrid_cpus: off, every cpu_scale 1024\n");
	return 0;
}

/*
 * The x86 files (patch 5) agree with "invariant": "status" says "on"
 * exactly when it reads 1, max_freq_ratio is at least 1024 (the reference
 * is never below the base frequency) and has a source. An override
 * (patch 7) turns invariance on where it was off, shows in status, in the
 * CPU's freq_scale and in sched/debug; clearing it restores all of them.
 */
static int read_state(uint64_t *inv, char *status, size_t n)
{
	return fi_read_u64(FI_DIR "/invariant", inv) ||
	       fi_read_line(FI_DIR "/status", status, n);
}

static int test_x86_status(void)
{
	char status[128], source[128], status2[128];
	uint64_t inv, inv2, ratio, scale;
	bool on, invariant;
	long dbg;

	if (!is_x86) {
		fi_info("not x86: no status files\n");
		return KSFT_SKIP;
	}
	if (read_state(&inv, status, sizeof(status)) ||
	    fi_read_u64(FI_DIR "/max_freq_ratio", &ratio) ||
	    fi_read_line(FI_DIR "/max_freq_ratio_source", source, sizeof(source))) {
		fi_err("cannot read status, max_freq_ratio(_source): %m");
		return KSFT_FAIL;
	}
	fi_info("invariant %llu, status \"%s\", max_freq_ratio %llu (%s)\n",
		(unsigned long long)inv, status, (unsigned long long)ratio, source);
	on = !strncmp(status, "on", 2);
	invariant = inv == 1;
	if (on != invariant || ratio < 1024 || !source[0]) {
		fi_err("expected status \"on\" iff invariant, max_freq_ratio >= 1024, a source");
		return KSFT_FAIL;
	}
	if (fi_kernel_at_least(6, 12) && check_hybrid_cpus())
		return KSFT_FAIL;
	if (!have_override)
		return KSFT_PASS;

	if (fi_override(test_cpu, 384)) {
		fi_err("cpu%d: cannot set freq_scale_override: %m", test_cpu);
		return KSFT_FAIL;
	}
	fi_sleep_us(20000);	/* a few ticks: nothing may overwrite it */
	if (read_state(&inv2, status2, sizeof(status2)) ||
	    read_field(test_cpu, "freq_scale", &scale)) {
		fi_override(test_cpu, 0);
		fi_err("cannot read the state with an override: %m");
		return KSFT_FAIL;
	}
	dbg = sched_debug_scale(test_cpu);
	fi_override(test_cpu, 0);
	fi_info("override 384 on cpu%d: invariant %llu, status \"%s\", freq_scale %llu, sched/debug %ld\n",
		test_cpu, (unsigned long long)inv2, status2, (unsigned long long)scale, dbg);
	if (inv2 != 1 || strncmp(status2, "on: freq_scale overridden", 25) ||
	    scale != 384 || dbg != 384) {
		fi_err("expected invariant 1, status \"on: freq_scale overridden...\", freq_scale and sched/debug 384");
		return KSFT_FAIL;
	}
	if (read_state(&inv2, status2, sizeof(status2))) {
		fi_err("cannot read the state after clearing: %m");
		return KSFT_FAIL;
	}
	if (inv2 != inv || strcmp(status2, status)) {
		fi_err("expected invariant %llu and status \"%s\" back once cleared, got %llu, \"%s\"",
		       (unsigned long long)inv, status, (unsigned long long)inv2, status2);
		return KSFT_FAIL;
	}
	return KSFT_PASS;
}

/* Read PELT's clock first, clock_task second: pelt(t1) <= task(t1) <= task(t2). */
static int test_pelt_clock_not_ahead(void)
{
	uint64_t pelt, task;
	long long lag;
	int i, n, ret;

	for (n = 0; n < READS; n++) {
		for (i = 0; i < nr_cpus; i++) {
			ret = read_field(cpus[i], "rq_clock_pelt", &pelt);
			if (!ret)
				ret = read_field(cpus[i], "clock_task", &task);
			if (ret) {
				fi_err("cpu%d: cannot read the clocks: %s",
				       cpus[i], strerror(-ret));
				return KSFT_FAIL;
			}
			ret = fi_read_lag(cpus[i], &lag);
			if (ret) {
				fi_err("cpu%d: no line in cpus: %s", cpus[i], strerror(-ret));
				return KSFT_FAIL;
			}
			if (pelt > task) {
				fi_err("cpu%d: expected rq_clock_pelt <= clock_task, got %llu > %llu",
				       cpus[i], (unsigned long long)pelt,
				       (unsigned long long)task);
				return KSFT_FAIL;
			}
			if (lag < 0) {
				fi_err("cpu%d: expected lag >= 0 in one snapshot, got %lld ns",
				       cpus[i], lag);
				return KSFT_FAIL;
			}
		}
	}
	return KSFT_PASS;
}

static int test_clocks_monotonic(void)
{
	static const char * const mono[] = { "clock_pelt", "lost_idle_time", "rq_clock_pelt" };
	uint64_t last[64][3] = { 0 }, v;
	int i, f, n;

	for (n = 0; n < READS; n++) {
		for (i = 0; i < nr_cpus; i++) {
			for (f = 0; f < ARRAY_SIZE(mono); f++) {
				if (read_field(cpus[i], mono[f], &v)) {
					fi_err("cpu%d/%s: cannot read", cpus[i], mono[f]);
					return KSFT_FAIL;
				}
				if (v < last[i][f]) {
					fi_err("cpu%d/%s went backwards: %llu after %llu",
					       cpus[i], mono[f], (unsigned long long)v,
					       (unsigned long long)last[i][f]);
					return KSFT_FAIL;
				}
				last[i][f] = v;
			}
		}
	}
	return KSFT_PASS;
}

/*
 * At scale 512, a CPU that runs a spinner falls behind by half the time it
 * ran (clock_pelt runs at half speed), and syncs back once idle: lag 0.
 * The lag grows by (1 - cpu_scale x 512 / 1024^2) of what clock_task
 * advances while the rq is busy, whoever runs on it (a kworker too): so
 * the bar is on the growth of the lag between two snapshots against the
 * growth of clock_task, not against the spinner's own running time.
 */
static int test_idle_cpu_catches_up(void)
{
	unsigned long long cs = 0, task0 = 0, task1 = 0;
	long long lag = -1, lag0 = -1, lag1 = -1, ran_ns = 0;
	double want, tol, grew;
	pid_t pid;
	int n;

	if (!have_override)
		return skip_no_override();
	if (fi_override(test_cpu, 512)) {
		fi_err("cpu%d: cannot set freq_scale_override: %m", test_cpu);
		return KSFT_FAIL;
	}
	pid = fi_spawn_spinner(test_cpu);
	if (pid < 0) {
		fi_err("fork: %m");
		fi_override(test_cpu, 0);
		return KSFT_FAIL;
	}
	fi_sleep_us(20000);
	n = fi_read_clocks(test_cpu, &cs, &task0, &lag0);
	fi_sleep_us(200000);
	n = n ?: fi_read_clocks(test_cpu, &cs, &task1, &lag1);
	n = n ?: fi_read_sched_ns(pid, "se.sum_exec_runtime", &ran_ns);
	fi_reap(pid);
	fi_override(test_cpu, 0);
	if (n) {
		fi_err("cpu%d: cannot read the clocks or the spinner's runtime", test_cpu);
		return KSFT_FAIL;
	}

	/*
	 * Each snapshot is of one clock update, so the growth is exact but
	 * for cap_scale()'s rounding; 5% and 1 ms are slack. If the rq went
	 * idle in between, the lag was reset and the growth is short.
	 */
	want = (1 - cs * 512.0 / (1024.0 * 1024.0)) * (task1 - task0) / 1e6;
	grew = (lag1 - lag0) / 1e6;
	tol = 0.05 * want + 1;
	fi_info("cpu%d at scale 512: lag %.1f -> %.1f ms while clock_task advanced %.1f ms (spinner ran %.1f ms); growth %.1f, model %.1f +- %.1f\n",
		test_cpu, lag0 / 1e6, lag1 / 1e6, (task1 - task0) / 1e6, ran_ns / 1e6,
		grew, want, tol);
	if (task1 <= task0 || (task1 - task0) < 100000000ULL || fabs(grew - want) > tol) {
		fi_err("cpu%d: expected the lag to grow by %.1f +- %.1f ms (clock_task advanced %.1f ms, at least 100 ms, at cpu_scale %llu) while busy, got %.1f ms",
		       test_cpu, want, tol, (task1 - task0) / 1e6, cs, grew);
		return KSFT_FAIL;
	}
	for (n = 0; n < 50; n++) {
		fi_sleep_us(10000);
		if (fi_read_lag(test_cpu, &lag)) {
			fi_err("cpu%d: not in the cpus table", test_cpu);
			return KSFT_FAIL;
		}
		if (lag == 0)
			break;
	}
	if (lag != 0) {
		fi_err("cpu%d: expected lag 0 once idle, got %lld ns after %d ms",
		       test_cpu, lag, (n + 1) * 10);
		return KSFT_FAIL;
	}
	return KSFT_PASS;
}

/*
 * A 20% duty cycle at scale 512 (40% of the CPU) never saturates it: the
 * lag of each burst is given back at idle, no idle time is lost.
 */
static int test_lost_idle_time_steady(void)
{
	uint64_t before, after, end;
	int status;
	pid_t pid;

	if (!have_override)
		return skip_no_override();
	/*
	 * The premise: a CPU that is not saturated. One that a case before
	 * left saturated still counts lost idle time at its first idle
	 * entries, until its util_sum decays: idle for 500 ms (PELT halves in
	 * 32 ms, so under 2^-15 of it is left) before the window opens.
	 */
	fi_sleep_us(500000);
	if (read_field(test_cpu, "lost_idle_time", &before) || fi_override(test_cpu, 512))
		return KSFT_FAIL;
	pid = fi_fork();
	if (!pid) {
		if (fi_pin_self(test_cpu))
			_exit(2);
		end = fi_now_us() + 300000;
		while (fi_now_us() < end) {
			fi_spin_us(2000);
			fi_sleep_us(8000);
		}
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fi_override(test_cpu, 0);
		fi_err("the duty cycle did not run on cpu%d (%s)", test_cpu,
		       pid < 0 ? "fork failed" : "its child could not pin itself, or died");
		return KSFT_FAIL;
	}
	fi_override(test_cpu, 0);
	if (read_field(test_cpu, "lost_idle_time", &after))
		return KSFT_FAIL;
	if (after != before) {
		fi_err("cpu%d: expected lost_idle_time %llu kept at a 20%% duty, got %llu",
		       test_cpu, (unsigned long long)before, (unsigned long long)after);
		return KSFT_FAIL;
	}
	return KSFT_PASS;
}

static void restore_cpu(void)
{
	if (cpu_offlined && !fi_write_str(hotplug_path, "1"))
		cpu_offlined = false;
}

/* Readers keep reading every file while a CPU goes offline and back. */
static int test_offline_cpu(void)
{
	char path[128], buf[32];
	int ret = KSFT_FAIL, status, i, f;
	pid_t reader;

	snprintf(hotplug_path, sizeof(hotplug_path),
		 "/sys/devices/system/cpu/cpu%d/online", test_cpu);
	if (access(hotplug_path, W_OK)) {
		fi_info("cpu%d cannot be taken offline (%s): %m\n", test_cpu, hotplug_path);
		return KSFT_SKIP;
	}

	reader = fi_fork();
	if (!reader) {
		fi_pin_self(sampler_cpu);
		for (;;) {
			for (i = 0; i < nr_cpus; i++)
				for (f = 0; f < ARRAY_SIZE(fields); f++) {
					snprintf(path, sizeof(path), FI_DIR "/cpu%d/%s",
						 cpus[i], fields[f]);
					fi_read_line(path, buf, sizeof(buf));
				}
			fi_read_line(FI_DIR "/cpus", buf, sizeof(buf));
		}
	}

	if (fi_write_str(hotplug_path, "0")) {
		fi_err("cannot offline cpu%d: %m", test_cpu);
		goto out;
	}
	cpu_offlined = true;
	fi_sleep_us(100000);
	snprintf(path, sizeof(path), FI_DIR "/cpu%d/clock_pelt", test_cpu);
	if (fi_read_line(path, buf, sizeof(buf)) || strcmp(buf, "offline")) {
		fi_err("%s: expected \"offline\", got \"%s\"", path, buf);
		goto out;
	}
	restore_cpu();
	if (cpu_offlined) {
		fi_err("cannot bring cpu%d back online: %m", test_cpu);
		goto out;
	}
	fi_sleep_us(100000);
	if (fi_read_line(path, buf, sizeof(buf)) || !strcmp(buf, "offline")) {
		fi_err("%s: expected a value once online, got \"%s\"", path, buf);
		goto out;
	}
	ret = KSFT_PASS;
out:
	restore_cpu();
	if (waitpid(reader, &status, WNOHANG) == reader) {
		fi_err("the reader died while cpu%d went offline and back (status %#x)",
		       test_cpu, status);
		ret = KSFT_FAIL;
	}
	fi_reap(reader);
	return ret;
}

static const struct fi_test tests[] = {
	{ "files_parse", test_files_parse },
	{ "capacities_in_range", test_capacity },
	{ "sched_debug_prints_pelt_clocks", test_sched_debug_lines },
	{ "x86_status_override_coherent", test_x86_status },
	{ "pelt_clock_not_ahead_of_clock_task", test_pelt_clock_not_ahead },
	{ "clock_pelt_lost_idle_time_monotonic", test_clocks_monotonic },
	{ "idle_cpu_pelt_clock_catches_up", test_idle_cpu_catches_up },
	{ "lost_idle_time_steady_without_saturation", test_lost_idle_time_steady },
	{ "offline_cpu_reads_offline", test_offline_cpu },
};

int main(void)
{
	struct utsname uts;
	char path[128];
	struct stat st;

	ksft_print_header();
	if (stat("/sys/kernel/debug/sched", &st))
		ksft_exit_skip("no /sys/kernel/debug/sched: needs root, debugfs, SCHED_DEBUG\n");
	if (stat(FI_DIR, &st))
		ksft_exit_skip(FI_DIR " is missing: the kernel lacks the freq_invariance files\n");
	nr_cpus = fi_online_cpus(cpus, ARRAY_SIZE(cpus));
	if (nr_cpus < 2)
		ksft_exit_skip("needs two CPUs\n");
	sampler_cpu = cpus[0];
	test_cpu = cpus[nr_cpus - 1];
	if (fi_pin_self(sampler_cpu))
		ksft_exit_fail_msg("cannot pin to CPU %d: %m\n", sampler_cpu);
	atexit(restore_cpu);
	snprintf(path, sizeof(path), FI_DIR "/cpu%d/freq_scale_override", test_cpu);
	have_override = !access(path, W_OK);
	is_x86 = !uname(&uts) && (!strcmp(uts.machine, "x86_64") || !strcmp(uts.machine, "i686"));

	fi_run_tests(tests, ARRAY_SIZE(tests));
}
