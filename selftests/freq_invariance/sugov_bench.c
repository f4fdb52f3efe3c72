// SPDX-License-Identifier: GPL-2.0
/*
 * The workloads of the article's experiment (make experiment), one run
 * at a time, on the architectural DVFS platform (QEMU's x-dvfs, or
 * hardware) under schedutil. Not a test: it prints CSV and asserts
 * nothing; qemu/experiment-guest traces the frequencies around it,
 * scripts/experiment-report reports.
 *
 *   sugov_bench platform          the part, from CPU 0's MSRs
 *   sugov_bench counters SFX      each CPU's request, APERF and MPERF
 *   sugov_bench calibrate         iterations of dvfs_work() per us and MHz
 *   sugov_bench mix K N MS        the periodic mix on the last N CPUs
 *   sugov_bench ramp N MS US      always-running tasks on the last N CPUs
 *   sugov_bench job K US          the work of US us at the 1-core turbo
 *
 * platform: the part as CPU 0's MSRs give it (where they hide the turbo
 * ratios, the part fi_platform= names, checked against them), as lines
 * "key value": min_mhz, base_mhz, turbo_{1c,2c,4c,all}_mhz, turbo
 * (enabled or disabled), and the turbo reference the boot code must
 * take by the design's rule (reference: 1c, 2c, 4c, all, or off where
 * the MSRs give none and invariance must be refused; max_freq_ratio).
 *
 * counters: for each online CPU, its request (IA32_PERF_CTL's ratio, or
 * with HWP enabled IA32_HWP_REQUEST's desired ratio) in MHz, its APERF
 * and MPERF, as lines "cpu<N>_req<SFX> MHz", "cpu<N>_aperf<SFX> count",
 * "cpu<N>_mperf<SFX> count".
 *
 * calibrate: the work of the last CPU, every CPU asked for the 1-core
 * turbo (the userspace governor, restored after), as K: dvfs_work()
 * iterations per us of a CPU at 1 MHz. The same K in every boot of an
 * experiment makes the work the same in all of them.
 *
 * mix: on each of the last N CPUs, three periodic tasks of fixed work
 * (SCHED_OTHER), whose needs add up to 30% of a CPU at the 1-core turbo
 * (MIX below), for MS ms, each from its own phase. Each activation's
 * completion time is from the start of its period to the end of its
 * work; one that ends after its period has missed it, and the task goes
 * on at the next period start. Output:
 *   task,<cpu>,<period_us>,<need_mhz>,<acts>,<missed>,<mean_us>,<p50_us>,<p95_us>,<max_us>
 * need_mhz: the frequency at which the task would be busy all the time.
 *
 * job: one job of the "build" (qemu/experiment-guest runs make -jN of
 * them): dvfs_work() for what takes US us at the 1-core turbo, then exit.
 *
 * ramp: one always-running task on each of the last N CPUs, forked, then
 * asleep for RAMP_SLEEP_US (a forked task starts at half its CPU's spare
 * capacity: 512 on an idle CPU, which decays to 0.1 in that time), all
 * woken together; every US us for MS ms from then, each task reads its
 * own util_avg and its CPU's freq_scale (a sampler beside it would be
 * starved: a reader of its own is the task itself, busy):
 *   ramp,<t_ms>,<cpu>,<util_avg>,<freq_scale>
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "fi_util.h"
#include "dvfs_util.h"

/* The mix, per CPU: period, and need as a fraction of the 1-core turbo */
static const struct {
	unsigned int period_us;
	double need;
} mix[] = {
	{ 4000, 0.05 },
	{ 16000, 0.15 },
	{ 64000, 0.10 },
};

#define MIX_TASKS	ARRAY_SIZE(mix)
#define MAX_CPUS	64
#define MAX_ACTS	8192
#define RAMP_SLEEP_US	400000

struct task_log {
	int acts, missed;
	double comp_us[MAX_ACTS];
};

static void bad_usage(void)
{
	fputs("usage: sugov_bench platform | counters SFX | calibrate | mix K N MS\n"
	      "       sugov_bench ramp N MS US | job K US\n", stderr);
	exit(2);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void sleep_until_ns(uint64_t t)
{
	struct timespec ts = { t / 1000000000, t % 1000000000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

static int calibrate(void)
{
	int cpus[MAX_CPUS], n, i;
	unsigned long iters;
	const char *why;

	n = dvfs_setup_cpus(cpus, MAX_CPUS, true, &why);
	if (n < 1) {
		fprintf(stderr, "sugov_bench: %s\n", why);
		return 1;
	}
	for (i = 0; i < n; i++)
		if (dvfs_set_req(cpus[i], plat.turbo[L1C])) {
			fprintf(stderr, "sugov_bench: cannot ask CPU %d for %u MHz\n", cpus[i],
				plat.turbo[L1C]);
			return 1;
		}
	fi_sleep_us(10000);
	iters = dvfs_calibrate(cpus[n - 1], cpus[0], 4000);
	if (!iters) {
		fputs("sugov_bench: cannot time the work\n", stderr);
		return 1;
	}
	printf("%.6f\n", iters / 4000.0 / plat.turbo[L1C]);
	return 0;
}

static int print_platform(void)
{
	static const char * const level[LEVELS] = { "1c", "2c", "4c", "all" };
	unsigned int ref = dvfs_turbo_reference(&dvfs_msrs) * 100;
	unsigned int ratio = dvfs_max_freq_ratio(&dvfs_msrs);
	const char *name = "off";
	int i;

	printf("min_mhz %u\nbase_mhz %u\n", plat.min, plat.base);
	for (i = 0; i < LEVELS; i++)
		printf("turbo_%s_mhz %u\n", level[i], plat.turbo[i]);
	printf("turbo %s\n",
	       dvfs_msrs.misc_enable & MISC_ENABLE_TURBO_DISABLE ? "disabled" : "enabled");
	for (i = LEVELS - 1; ratio && i >= 0; i--)
		if (plat.turbo[i] == ref)
			name = level[i];
	if (ratio && !strcmp(name, "off")) {
		fprintf(stderr, "sugov_bench: reference %u MHz: no limit of the part\n", ref);
		return 1;
	}
	printf("reference %s\nmax_freq_ratio %u\n", name, ratio);
	return 0;
}

static int print_counters(const char *sfx)
{
	int cpus[MAX_CPUS], n, i;

	n = fi_online_cpus(cpus, MAX_CPUS);
	for (i = 0; i < n; i++) {
		unsigned int req = dvfs_msr_request(cpus[i], dvfs_hwp_enabled(cpus[i]));
		uint64_t a, m;

		if (!req || dvfs_msr_read(cpus[i], MSR_IA32_APERF, &a) ||
		    dvfs_msr_read(cpus[i], MSR_IA32_MPERF, &m)) {
			fprintf(stderr, "sugov_bench: cannot read CPU %d's MSRs\n", cpus[i]);
			return 1;
		}
		printf("cpu%d_req%s %u\ncpu%d_aperf%s %llu\ncpu%d_mperf%s %llu\n", cpus[i], sfx,
		       req, cpus[i], sfx, (unsigned long long)a, cpus[i], sfx,
		       (unsigned long long)m);
	}
	return n < 1;
}

/* One task of the mix: its activations from @start to @end, into @log */
static void mix_task(int cpu, unsigned int period_us, unsigned long iters, uint64_t start,
		     uint64_t end, struct task_log *log)
{
	uint64_t period = period_us * 1000ull, next = start, t;

	if (fi_pin_self(cpu))
		_exit(1);
	while (next < end) {
		sleep_until_ns(next);
		dvfs_work(iters);
		t = now_ns();
		if (log->acts < MAX_ACTS)
			log->comp_us[log->acts] = (t - next) / 1000.0;
		log->acts++;
		next += period;
		if (t > next) {
			log->missed++;
			next = start + ((t - start) / period + 1) * period;
		}
	}
	_exit(0);
}

/* Wait for the @n children in @pids: 0 if all exited 0, else 1 */
static int wait_all(const pid_t *pids, int n)
{
	int i, status, failed = 0;

	for (i = 0; i < n; i++)
		if (waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed = 1;
	return failed;
}

static int run_mix(double k, int busy, double ms)
{
	int cpus[MAX_CPUS], n, c, j, failed = 0;
	pid_t pids[MAX_CPUS * MIX_TASKS];
	struct task_log *logs;
	uint64_t start, end;
	int nr = 0;

	n = fi_online_cpus(cpus, MAX_CPUS);
	if (busy < 1 || busy > n) {
		fprintf(stderr, "sugov_bench: N %d, online CPUs %d\n", busy, n);
		return 2;
	}
	logs = mmap(NULL, sizeof(*logs) * busy * MIX_TASKS, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (logs == MAP_FAILED) {
		perror("sugov_bench: mmap");
		return 1;
	}
	memset(logs, 0, sizeof(*logs) * busy * MIX_TASKS);
	/* Start once every task is forked; phases spread within the periods */
	start = now_ns() + 50000000;
	end = start + ms * 1e6;
	for (c = 0; c < busy; c++) {
		for (j = 0; j < (int)MIX_TASKS; j++) {
			unsigned long iters = k * mix[j].need * plat.turbo[L1C] * mix[j].period_us;
			uint64_t phase = (uint64_t)mix[j].period_us * 1000 * (2 * j + c + 1) /
					 (2 * MIX_TASKS + busy + 1);
			pid_t pid = fi_fork();

			if (!pid)
				mix_task(cpus[n - 1 - c], mix[j].period_us, iters, start + phase,
					 end, &logs[nr]);
			if (pid < 0) {
				perror("sugov_bench: fork");
				failed = 1;
				break;
			}
			pids[nr++] = pid;
		}
	}
	if (wait_all(pids, nr))
		failed = 1;
	if (failed) {
		fputs("sugov_bench: a task of the mix failed\n", stderr);
		return 1;
	}
	for (c = 0, nr = 0; c < busy; c++) {
		for (j = 0; j < (int)MIX_TASKS; j++, nr++) {
			struct task_log *l = &logs[nr];
			int m = l->acts < MAX_ACTS ? l->acts : MAX_ACTS, i;
			double sum = 0;

			if (!m)
				continue;
			for (i = 0; i < m; i++)
				sum += l->comp_us[i];
			qsort(l->comp_us, m, sizeof(double), fi_cmp_double);
			printf("task,%d,%u,%.0f,%d,%d,%.1f,%.1f,%.1f,%.1f\n", cpus[n - 1 - c],
			       mix[j].period_us, mix[j].need * plat.turbo[L1C], l->acts,
			       l->missed, sum / m, l->comp_us[m / 2],
			       l->comp_us[(int)(0.95 * (m - 1))], l->comp_us[m - 1]);
		}
	}
	return 0;
}

struct ramp_log {
	int n;
	double t_ms[MAX_ACTS];
	long long util[MAX_ACTS];
	uint64_t scale[MAX_ACTS];
};

/*
 * An always-running task on @cpu from @start to @end: every @every_us it
 * reads its own util_avg and its CPU's freq_scale (its own running time:
 * no other task needs the CPU), into @log.
 */
static void ramp_task(int cpu, uint64_t start, uint64_t end, double every_us,
		      struct ramp_log *log)
{
	uint64_t next = start, t;
	char path[128];

	snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/freq_scale", cpu);
	if (fi_pin_self(cpu))
		_exit(1);
	sleep_until_ns(start);
	while ((t = now_ns()) < end && log->n < MAX_ACTS) {
		if (t < next)
			continue;
		if (fi_read_sched_field(0, "se.avg.util_avg", &log->util[log->n]) ||
		    fi_read_u64(path, &log->scale[log->n]))
			_exit(1);
		log->t_ms[log->n++] = (t - start) / 1e6;
		next += every_us * 1000;
	}
	_exit(0);
}

static int run_ramp(int busy, double ms, double every)
{
	int cpus[MAX_CPUS], n, c, i;
	pid_t pids[MAX_CPUS];
	struct ramp_log *logs;
	uint64_t start;

	n = fi_online_cpus(cpus, MAX_CPUS);
	if (busy < 1 || busy > n || ms <= 0 || every < 500) {
		fprintf(stderr, "sugov_bench: N 1..%d, MS > 0, US >= 500\n", n);
		return 2;
	}
	logs = mmap(NULL, sizeof(*logs) * busy, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (logs == MAP_FAILED) {
		perror("sugov_bench: mmap");
		return 1;
	}
	memset(logs, 0, sizeof(*logs) * busy);
	/* Forked tasks start at half a CPU: they sleep until it decayed */
	start = now_ns() + RAMP_SLEEP_US * 1000ull;
	for (c = 0; c < busy; c++) {
		pids[c] = fi_fork();
		if (!pids[c])
			ramp_task(cpus[n - 1 - c], start, start + ms * 1e6, every, &logs[c]);
		if (pids[c] < 0) {
			perror("sugov_bench: fork");
			while (c--)
				fi_reap(pids[c]);
			return 1;
		}
	}
	if (wait_all(pids, busy)) {
		fputs("sugov_bench: cannot sample the tasks\n", stderr);
		return 1;
	}
	for (c = 0; c < busy; c++)
		for (i = 0; i < logs[c].n; i++)
			printf("ramp,%.1f,%d,%lld,%llu\n", logs[c].t_ms[i], cpus[n - 1 - c],
			       logs[c].util[i], (unsigned long long)logs[c].scale[i]);
	return 0;
}

int main(int argc, char **argv)
{
	const char *why;

	if (argc < 2)
		bad_usage();
	fi_teardown_on_signals();
	why = dvfs_arch_platform();
	if (why) {
		fprintf(stderr, "sugov_bench: %s\n", why);
		return 1;
	}
	if (dvfs_turbo_from_part() < 0) {
		fputs("sugov_bench: fi_platform= disagrees with the MSRs\n", stderr);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "platform") && argc == 2)
		return print_platform();
	if (!strcmp(argv[1], "counters") && argc == 3)
		return print_counters(argv[2]);
	if (!strcmp(argv[1], "calibrate") && argc == 2)
		return calibrate();
	if (!strcmp(argv[1], "mix") && argc == 5 && atof(argv[2]) > 0 && atof(argv[4]) > 0)
		return run_mix(atof(argv[2]), atoi(argv[3]), atof(argv[4]));
	if (!strcmp(argv[1], "job") && argc == 4 && atof(argv[2]) > 0 && atof(argv[3]) > 0) {
		dvfs_work(atof(argv[2]) * plat.turbo[L1C] * atof(argv[3]));
		return 0;
	}
	if (!strcmp(argv[1], "ramp") && argc == 5)
		return run_ramp(atoi(argv[2]), atof(argv[3]), atof(argv[4]));
	bad_usage();
	return 2;
}
