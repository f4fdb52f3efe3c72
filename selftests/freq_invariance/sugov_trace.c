// SPDX-License-Identifier: GPL-2.0
/*
 * schedutil's closed loop over time under intel_cpufreq (intel_pstate's
 * passive mode) on a platform with APERF/MPERF (QEMU's, x-dvfs, or
 * hardware): a periodic task of fixed work under schedutil, sampled, and
 * the schedutil model (sugov_model.h) for the work rate it was seen to
 * have. Not a test: it prints CSV and asserts nothing (make run's
 * closed-loop demo, and the data of its plot).
 *
 *   sugov_trace [--mhz W] [--ms D] [--every US] [--spin]
 *
 * The task needs W MHz (default: 40% of the 1-core turbo): it does, every
 * 16 ms, the work that keeps a CPU at W MHz busy. It runs on the last
 * CPU, asked for by schedutil; with --spin a spinner keeps the first CPU
 * busy, so that the turbo limit for two active cores caps the task's.
 * After 600 ms, the task is sampled every US us (default 4000; a sample
 * late by what the last took) for D ms (default 400) by this process, on
 * the first CPU. The CPU's request at each sample comes afterwards from
 * intel_pstate's power:pstate_sample trace event (dvfs_trace_start()),
 * so that no sample disturbs the task's CPU.
 *
 * The part comes from CPU 0's MSRs (where they hide the turbo ratios,
 * from fi_platform=), invariance and its reference from the kernel.
 *
 * Output, one record per line:
 *   # ...                                     what was run, and the means
 *   cpu,<inv>,<t_ms>,<req>,<eff>,<util>,<est>  a sample of the CPU
 *   model,<inv>,<t_ms>,<req>,<eff>,<util>,<est> the model, as often
 * inv is 1 when the kernel is frequency invariant, req the request in
 * MHz, eff the frequency the platform runs the task at (the request
 * capped at the turbo limit) while it is runnable, 0 while it sleeps,
 * util the task's util_avg, est its util_est (fi_read_task_util_est())
 * while it is runnable, else 0.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "fi_util.h"
#include "dvfs_util.h"
#include "sugov_model.h"

#define PERIOD_US	16000
#define SETTLE_US	600000
#define MAX_SAMPLES	100000
#define MAX_EVENTS	100000
#define RATE_LIMIT	"/sys/devices/system/cpu/cpufreq/schedutil/rate_limit_us"

static bool invariant;

static void model_line(void *arg, double t_us, unsigned int req, unsigned int eff,
		       double util, double est)
{
	(void)arg;
	printf("model,%d,%.1f,%u,%u,%.0f,%.0f\n", invariant, t_us / 1000, req, eff, util, est);
}

/* A sample of the task: when (mono, us), whether runnable, its util */
static struct {
	double us;
	bool runnable;
	long long util, est;
} smp[MAX_SAMPLES];
static struct dvfs_req ev[MAX_EVENTS];

/* The request held at @us: the last traced before it, else the first's "from" or @req0 */
static unsigned int req_at(double us, const struct dvfs_req *e, int n, unsigned int req0)
{
	int i;

	for (i = 0; i < n && e[i].us <= us; i++)
		;
	return i ? e[i - 1].mhz : n ? e[0].from : req0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mhz", required_argument, NULL, 'w' },
		{ "ms", required_argument, NULL, 'd' },
		{ "every", required_argument, NULL, 'e' },
		{ "spin", no_argument, NULL, 's' },
		{}
	};
	double w = 0, ms = 400, every = 4000, req_sum = 0, ran, eff, t0;
	int cpus[64], n, cpu, opt, samples = 0, nev, i;
	uint64_t a0, m0, a1, m1, bracket, inv, rate;
	unsigned int req0, cap;
	struct sugov_result m;
	struct sugov_cfg mc;
	unsigned long iters;
	long long ran0, ran1;
	const char *why;
	bool spin = false, hwp;
	char st;
	pid_t task, spinner = -1;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'w':
			w = atof(optarg);
			break;
		case 'd':
			ms = atof(optarg);
			break;
		case 'e':
			every = atof(optarg);
			break;
		case 's':
			spin = true;
			break;
		default:
			fputs("usage: sugov_trace [--mhz W] [--ms D] [--every US] [--spin]\n",
			      stderr);
			return 2;
		}
	}
	fi_teardown_on_signals();
	why = dvfs_arch_platform();
	if (why || dvfs_turbo_from_part() < 0) {
		fprintf(stderr, "sugov_trace: %s\n",
			why ? why : "fi_platform= names another base or minimum than the MSRs'");
		return 1;
	}
	if (!w)
		w = 0.4 * plat.turbo[L1C];
	if (w < 100 || w > plat.turbo[L1C] || ms <= 0 || every < 1000 ||
	    ms * 1000 / every + 2 > MAX_SAMPLES) {
		fprintf(stderr, "sugov_trace: want W in 100..%u MHz, D > 0 ms, US >= 1000, %s\n",
			plat.turbo[L1C], "at most 100000 samples");
		return 2;
	}
	if (fi_read_u64(FI_DEBUGFS "/invariant", &inv)) {
		fprintf(stderr, "sugov_trace: cannot read %s/invariant\n", FI_DEBUGFS);
		return 1;
	}
	invariant = inv;
	n = dvfs_setup_cpus(cpus, ARRAY_SIZE(cpus), true, &why);
	if (n < 2) {
		fprintf(stderr, "sugov_trace: %s\n", n < 0 ? why : "needs two CPUs");
		return 1;
	}
	cpu = cpus[n - 1];
	hwp = dvfs_hwp_enabled(cpu);
	cap = spin ? plat.turbo[L2C] : plat.turbo[L1C];
	mc = (struct sugov_cfg){
		.min = plat.min, .top = plat.turbo[L1C], .step = 100, .cap = cap,
		.period_us = PERIOD_US, .start_mhz = plat.turbo[L1C], .seed = 1,
		.kick_us = spin ? 33000 : 0, .trace = model_line, .trace_us = every,
	};
	if (invariant) {
		uint64_t ratio;

		if (fi_read_u64(FI_DEBUGFS "/max_freq_ratio", &ratio) || !ratio) {
			fprintf(stderr, "sugov_trace: cannot read max_freq_ratio\n");
			return 1;
		}
		mc.f_ref = ratio * plat.base / 1024.0;
	}
	atexit(dvfs_trace_stop);
	if (dvfs_trace_start()) {
		fprintf(stderr, "sugov_trace: cannot trace intel_pstate's requests\n");
		return 1;
	}

	task = dvfs_start_fixed_work(cpus, n, cpu, PERIOD_US, PERIOD_US * w / plat.turbo[L1C],
				     &iters);
	if (task < 0) {
		fprintf(stderr, "sugov_trace: cannot calibrate or start the task\n");
		return 1;
	}
	if (spin)
		spinner = dvfs_spawn_idle_spinner(cpus[0]);
	if ((spin && spinner < 0) || dvfs_cpufreq_write(cpu, "scaling_governor", "schedutil") ||
	    fi_read_u64(RATE_LIMIT, &rate) || dvfs_trace_clear(cpu)) {
		fprintf(stderr, "sugov_trace: cannot put CPU %d under schedutil\n", cpu);
		fi_reap(spinner);
		fi_reap(task);
		return 1;
	}
	mc.rate_us = rate;
	printf("# platform: model %u, %u..%u MHz, %sinvariant, CPU %d under schedutil",
	       dvfs_msrs.model, plat.min, plat.turbo[L1C], invariant ? "" : "not ", cpu);
	printf(" (intel_cpufreq%s, rate limit %.0f us)%s\n", hwp ? " with HWP" : "", mc.rate_us,
	       spin ? ", the first CPU busy (cap: the 2-core turbo)" : "");
	fi_sleep_us(SETTLE_US);
	t0 = fi_now_us();
	req0 = dvfs_msr_request(cpu, hwp);
	if (!req0 || fi_read_sched_ns(task, "se.sum_exec_runtime", &ran0) ||
	    dvfs_read_am(cpu, &a0, &m0, &bracket))
		goto fail;
	while (fi_now_us() < t0 + ms * 1000) {
		smp[samples].us = fi_now_us();
		st = fi_task_state(task);
		if (!st || fi_read_sched_field(task, "se.avg.util_avg", &smp[samples].util) ||
		    fi_read_task_util_est(task, &smp[samples].est))
			goto fail;
		smp[samples++].runnable = st == 'R';
		/* On a schedule: a sample takes time too */
		if (fi_now_us() < t0 + samples * every)
			fi_sleep_us(t0 + samples * every - fi_now_us());
	}
	if (fi_read_sched_ns(task, "se.sum_exec_runtime", &ran1) ||
	    dvfs_read_am(cpu, &a1, &m1, &bracket) || m1 == m0)
		goto fail;
	ran = (ran1 - ran0) / 1000.0 / (fi_now_us() - t0) * PERIOD_US;
	/* In C0, MPERF counts at the base frequency's rate, APERF at f_eff */
	eff = (double)(a1 - a0) / (m1 - m0) * plat.base;
	nev = dvfs_trace_requests(cpu, ev, MAX_EVENTS);
	fi_reap(spinner);
	fi_reap(task);
	if (nev < 0)
		return 1;
	for (i = 0; i < samples; i++) {
		unsigned int req = req_at(smp[i].us, ev, nev, req0);

		printf("cpu,%d,%.1f,%u,%u,%lld,%lld\n", invariant, (smp[i].us - t0) / 1000.0, req,
		       smp[i].runnable ? (req < cap ? req : cap) : 0, smp[i].util,
		       smp[i].runnable ? smp[i].est : 0);
		req_sum += req;
	}

	/* The model for the work rate seen: the running time at the mean C0 frequency */
	printf("# the CPU: the task ran %.0f us every %d us at %.0f MHz in C0 (w %.0f MHz,",
	       ran, PERIOD_US, eff, eff * ran / PERIOD_US);
	printf(" %.0f asked for); mean request sampled %.0f MHz\n", w,
	       samples ? req_sum / samples : 0);
	mc.work = eff * ran;
	if (sugov_simulate(&mc, SETTLE_US, ms * 1000, &m)) {
		fprintf(stderr, "sugov_trace: the model cannot run a table of %u..%u MHz\n",
			mc.min, mc.top);
		return 1;
	}
	printf("# the model for w %.0f MHz: mean request %.0f MHz, effective %.0f, %.1f %s\n",
	       eff * ran / PERIOD_US, m.mean_req, m.eff_mhz, m.trans_s, "transitions/s");
	return 0;
fail:
	fprintf(stderr, "sugov_trace: cannot sample CPU %d or task %d\n", cpu, task);
	fi_reap(spinner);
	fi_reap(task);
	return 1;
}
