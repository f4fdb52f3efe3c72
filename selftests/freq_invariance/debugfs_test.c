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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"

#define FI_DIR		FI_DEBUGFS
#define READS		200

static const char * const fields[] = {
	"clock_task", "clock_pelt", "lost_idle_time", "rq_clock_pelt",
	"clock_pelt_idle", "clock_idle", "freq_scale", "cpu_scale",
	"capacity_orig", "capacity", "util_avg", "runnable_avg",
	"load_avg", "util_est",
};

static int cpus[64], nr_cpus, test_cpu, sampler_cpu;
static char hotplug_path[128];
static bool cpu_offlined;

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
		fi_fail("expected 0 or 1 in %s/invariant", FI_DIR);
		return KSFT_FAIL;
	}
	ksft_print_msg("invariant: %llu\n", (unsigned long long)v);
	for (i = 0; i < nr_cpus; i++) {
		for (f = 0; f < ARRAY_SIZE(fields); f++) {
			snprintf(path, sizeof(path), FI_DIR "/cpu%d/%s", cpus[i], fields[f]);
			if (stat(path, &st)) {
				fi_fail("%s: %m", path);
				return KSFT_FAIL;
			}
			if ((st.st_mode & 07777) != 0444) {
				fi_fail("%s: expected mode 0444, got %04o", path, st.st_mode & 07777);
				return KSFT_FAIL;
			}
			ret = fi_read_u64(path, &v);
			if (ret) {
				fi_fail("%s: expected a number: %s", path, strerror(-ret));
				return KSFT_FAIL;
			}
			if ((!strcmp(fields[f], "freq_scale") || !strcmp(fields[f], "cpu_scale")) &&
			    (v < 1 || v > 1024)) {
				fi_fail("%s: expected 1..1024, got %llu", path, (unsigned long long)v);
				return KSFT_FAIL;
			}
		}
	}
	ksft_print_msg("%d CPUs x %zu files parse, mode 0444\n", nr_cpus, ARRAY_SIZE(fields));
	return KSFT_PASS;
}

/* Read PELT's clock first, clock_task second: pelt(t1) <= task(t1) <= task(t2). */
static int test_pelt_clock_not_ahead(void)
{
	uint64_t pelt, task;
	long long lag;
	int i, n;

	for (n = 0; n < READS; n++) {
		for (i = 0; i < nr_cpus; i++) {
			if (read_field(cpus[i], "rq_clock_pelt", &pelt) ||
			    read_field(cpus[i], "clock_task", &task) ||
			    fi_read_lag(cpus[i], &lag)) {
				fi_fail("cpu%d: cannot read the clocks", cpus[i]);
				return KSFT_FAIL;
			}
			if (pelt > task) {
				fi_fail("cpu%d: expected rq_clock_pelt <= clock_task, got %llu > %llu",
					cpus[i], (unsigned long long)pelt, (unsigned long long)task);
				return KSFT_FAIL;
			}
			if (lag < 0) {
				fi_fail("cpu%d: expected clock_pelt <= clock_task in one snapshot, got lag %lld ns",
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
					fi_fail("cpu%d/%s: cannot read", cpus[i], mono[f]);
					return KSFT_FAIL;
				}
				if (v < last[i][f]) {
					fi_fail("cpu%d/%s went backwards: %llu after %llu",
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

/* After a busy phase, the idle CPU's clock_pelt syncs back to clock_task. */
static int test_idle_cpu_catches_up(void)
{
	long long lag = -1, busy_lag = -1;
	pid_t pid;
	int n;

	pid = fi_spawn_spinner(test_cpu);
	if (pid < 0) {
		fi_fail("fork: %m");
		return KSFT_FAIL;
	}
	fi_sleep_us(200000);
	fi_read_lag(test_cpu, &busy_lag);
	fi_reap(pid);

	for (n = 0; n < 50; n++) {
		fi_sleep_us(10000);
		if (fi_read_lag(test_cpu, &lag)) {
			fi_fail("cpu%d: not in the cpus table", test_cpu);
			return KSFT_FAIL;
		}
		if (lag == 0)
			break;
	}
	if (lag != 0) {
		fi_fail("cpu%d: expected clock_pelt == clock_task once idle, got lag %lld ns after %d ms",
			test_cpu, lag, (n + 1) * 10);
		return KSFT_FAIL;
	}
	ksft_print_msg("cpu%d: lag %lld ns while busy, 0 once idle\n", test_cpu, busy_lag);
	return KSFT_PASS;
}

/* A 20% duty cycle never saturates the CPU: no idle time is lost. */
static int test_lost_idle_time_steady(void)
{
	uint64_t before, after, end;

	if (read_field(test_cpu, "lost_idle_time", &before))
		return KSFT_FAIL;
	if (!fork()) {
		fi_pin_self(test_cpu);
		end = fi_now_us() + 300000;
		while (fi_now_us() < end) {
			fi_spin_us(2000);
			fi_sleep_us(8000);
		}
		_exit(0);
	}
	wait(NULL);
	if (read_field(test_cpu, "lost_idle_time", &after))
		return KSFT_FAIL;
	if (after != before) {
		fi_fail("cpu%d: expected lost_idle_time to stay %llu under a 20%% duty cycle, got %llu",
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
		ksft_print_msg("cpu%d cannot be taken offline (%s): %m\n", test_cpu, hotplug_path);
		return KSFT_SKIP;
	}

	reader = fork();
	if (!reader) {
		fi_pin_self(sampler_cpu);
		for (;;) {
			for (i = 0; i < nr_cpus; i++)
				for (f = 0; f < ARRAY_SIZE(fields); f++) {
					snprintf(path, sizeof(path), FI_DIR "/cpu%d/%s", cpus[i], fields[f]);
					fi_read_line(path, buf, sizeof(buf));
				}
			fi_read_line(FI_DIR "/cpus", buf, sizeof(buf));
		}
	}

	if (fi_write_str(hotplug_path, "0")) {
		fi_fail("cannot offline cpu%d: %m", test_cpu);
		goto out;
	}
	cpu_offlined = true;
	fi_sleep_us(100000);
	snprintf(path, sizeof(path), FI_DIR "/cpu%d/clock_pelt", test_cpu);
	if (fi_read_line(path, buf, sizeof(buf)) || strcmp(buf, "offline")) {
		fi_fail("%s: expected \"offline\", got \"%s\"", path, buf);
		goto out;
	}
	restore_cpu();
	if (cpu_offlined) {
		fi_fail("cannot bring cpu%d back online: %m", test_cpu);
		goto out;
	}
	fi_sleep_us(100000);
	if (fi_read_line(path, buf, sizeof(buf)) || !strcmp(buf, "offline")) {
		fi_fail("%s: expected a value once online, got \"%s\"", path, buf);
		goto out;
	}
	ret = KSFT_PASS;
out:
	restore_cpu();
	if (waitpid(reader, &status, WNOHANG) == reader) {
		fi_fail("the reader died while cpu%d went offline and back (status %#x)",
			test_cpu, status);
		ret = KSFT_FAIL;
	}
	fi_reap(reader);
	return ret;
}

static const struct fi_test tests[] = {
	{ "files_parse", test_files_parse },
	{ "pelt_clock_not_ahead_of_clock_task", test_pelt_clock_not_ahead },
	{ "clock_pelt_lost_idle_time_monotonic", test_clocks_monotonic },
	{ "idle_cpu_pelt_clock_catches_up", test_idle_cpu_catches_up },
	{ "lost_idle_time_steady_without_saturation", test_lost_idle_time_steady },
	{ "offline_cpu_reads_offline", test_offline_cpu },
};

int main(void)
{
	struct stat st;

	ksft_print_header();
	if (stat("/sys/kernel/debug/sched", &st))
		ksft_exit_skip("/sys/kernel/debug/sched is missing: mount debugfs, run as root, CONFIG_SCHED_DEBUG\n");
	if (stat(FI_DIR, &st))
		ksft_exit_skip(FI_DIR " is missing: the kernel lacks the freq_invariance debugfs patches\n");
	nr_cpus = fi_online_cpus(cpus, ARRAY_SIZE(cpus));
	if (nr_cpus < 2)
		ksft_exit_skip("needs two CPUs\n");
	sampler_cpu = cpus[0];
	test_cpu = cpus[nr_cpus - 1];
	if (fi_pin_self(sampler_cpu))
		ksft_exit_fail_msg("cannot pin to CPU %d: %m\n", sampler_cpu);
	atexit(restore_cpu);

	fi_run_tests(tests, ARRAY_SIZE(tests));
}
