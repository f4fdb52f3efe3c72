// SPDX-License-Identifier: GPL-2.0
/*
 * schedutil's closed loop over time, on the emulated DVFS platform
 * (dvfs_emu=): a periodic task of fixed work under schedutil, sampled,
 * and the schedutil model (sugov_model.h) for the work rate it was seen
 * to have. Not a test: it prints CSV and asserts nothing (make run's
 * closed-loop demo, and the data of its plot).
 *
 *   sugov_trace [--mhz W] [--ms D] [--every US] [--spin]
 *
 * The task needs W MHz (default: 40% of the 1-core turbo): it does, every
 * 16 ms, the work that keeps a CPU at W MHz busy. It runs on the last
 * CPU, asked for by schedutil; with --spin a spinner keeps the first CPU
 * busy, so that the turbo limit for two active cores caps the task's.
 * After 600 ms, the task's CPU is sampled every US us (default 4000; a
 * sample late by what the last took) for D ms (default 400) by this
 * process, on the first CPU.
 *
 * Output, one record per line:
 *   # ...                                     what was run, and the means
 *   cpu,<inv>,<t_ms>,<req>,<eff>,<util>,<est>  a sample of the CPU
 *   model,<inv>,<t_ms>,<req>,<eff>,<util>,<est> the model, as often
 * inv is 1 when the kernel is frequency invariant, req the request in
 * MHz, eff the effective frequency (0 while idle), util the task's
 * util_avg, est its util_est (fi_read_task_util_est()) while it runs, else 0.
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

static bool invariant;

static void model_line(void *arg, double t_us, unsigned int req, unsigned int eff,
		       double util, double est)
{
	(void)arg;
	printf("model,%d,%.1f,%u,%u,%.0f,%.0f\n", invariant, t_us / 1000, req, eff, util, est);
}

#define RATE_LIMIT	"/sys/devices/system/cpu/cpufreq/schedutil/rate_limit_us"

static const char * const state_keys[] = { "requested_mhz", "effective_mhz" };
static const char * const counter_keys[] = { "aperf", "mperf" };

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mhz", required_argument, NULL, 'w' },
		{ "ms", required_argument, NULL, 'd' },
		{ "every", required_argument, NULL, 'e' },
		{ "spin", no_argument, NULL, 's' },
		{}
	};
	double w = 0, ms = 400, every = 4000, req_sum = 0, ran, eff;
	int cpus[64], n, cpu, opt, samples = 0;
	long long ran0, ran1, u, est;
	unsigned long long st[2], c0[2], c1[2];
	struct sugov_result m;
	struct sugov_cfg mc;
	unsigned long iters;
	const char *why;
	bool spin = false;
	uint64_t inv, t0, t;
	pid_t task, spinner = -1;
	uint64_t rate;

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
	if (dvfs_booted(&why)) {
		fprintf(stderr, "sugov_trace: %s\n", why);
		return 1;
	}
	if (!w)
		w = 0.4 * plat.turbo[L1C];
	if (w < 100 || w > plat.turbo[L1C] || ms <= 0 || every < 1000) {
		fprintf(stderr, "sugov_trace: want W in 100..%u MHz, D > 0 ms, US >= 1000\n",
			plat.turbo[L1C]);
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
	mc = (struct sugov_cfg){
		.min = plat.min, .top = plat.turbo[L1C], .step = 100,
		.cap = spin ? plat.turbo[L2C] : plat.turbo[L1C],
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

	task = dvfs_start_fixed_work(cpus, n, cpu, PERIOD_US, PERIOD_US * w / plat.turbo[L1C],
				     &iters);
	if (task < 0) {
		fprintf(stderr, "sugov_trace: cannot calibrate or start the task\n");
		return 1;
	}
	if (spin)
		spinner = dvfs_spawn_idle_spinner(cpus[0]);
	if ((spin && spinner < 0) || dvfs_cpufreq_write(cpu, "scaling_governor", "schedutil") ||
	    fi_read_u64(RATE_LIMIT, &rate)) {
		fprintf(stderr, "sugov_trace: cannot put CPU %d under schedutil\n", cpu);
		fi_reap(spinner);
		fi_reap(task);
		return 1;
	}
	mc.rate_us = rate;
	printf("# platform %s %u..%u MHz, %sinvariant, CPU %d under schedutil",
	       plat.name, plat.min, plat.turbo[L1C], invariant ? "" : "not ", cpu);
	printf(" (rate limit %.0f us)%s\n", mc.rate_us,
	       spin ? ", the first CPU busy (cap: the 2-core turbo)" : "");
	fi_sleep_us(SETTLE_US);
	t0 = fi_now_us();
	if (fi_read_sched_ns(task, "se.sum_exec_runtime", &ran0) ||
	    dvfs_read_state(cpu, counter_keys, c0, 2))
		goto fail;
	while ((t = fi_now_us()) < t0 + ms * 1000) {
		if (dvfs_read_state(cpu, state_keys, st, 2) ||
		    fi_read_sched_field(task, "se.avg.util_avg", &u) ||
		    fi_read_task_util_est(task, &est))
			goto fail;
		printf("cpu,%d,%.1f,%llu,%llu,%lld,%lld\n", invariant, (t - t0) / 1000.0, st[0],
		       st[1], u, st[1] ? est : 0);
		req_sum += st[0];
		samples++;
		/* On a schedule: a sample takes time too */
		t = fi_now_us();
		if (t < t0 + samples * every)
			fi_sleep_us(t0 + samples * every - t);
	}
	if (fi_read_sched_ns(task, "se.sum_exec_runtime", &ran1) ||
	    dvfs_read_state(cpu, counter_keys, c1, 2) || c1[1] == c0[1])
		goto fail;
	ran = (ran1 - ran0) / 1000.0 / (fi_now_us() - t0) * PERIOD_US;
	/* In C0, MPERF counts at the base frequency's rate, APERF at f_eff */
	eff = (double)(c1[0] - c0[0]) / (c1[1] - c0[1]) * plat.base;
	fi_reap(spinner);
	fi_reap(task);

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
