// SPDX-License-Identifier: GPL-2.0
/*
 * schedutil's closed loop on the emulated DVFS platform (dvfs_emu=): the
 * frequency it settles at for a periodic task, from 6.1's formula.
 *
 * A task pinned to one CPU does a fixed amount of work every 16 ms (a
 * counted loop, as dvfs_pelt_test's), w = 10, 25, 40 and 60% of the CPU
 * at the reference frequency f_ref (max_freq_ratio x base / 1024: the
 * 4-core turbo on the platform's Kaby Lake). First under the userspace
 * governor at f_ref, then under schedutil, which in 6.1 asks
 *
 *   next = 1.25 x F x util / 1024,  F = cpuinfo.max_freq if invariant,
 *                                   else the current request (policy->cur)
 *
 * with util = max(util_avg, util_est.enqueued) of the CPU (while the task
 * runs: its util_est, its util_avg at the last dequeue, the top of its
 * util_avg), resolved to the lowest step of the table at or above it
 * within [scaling_min_freq, scaling_max_freq], at most once per
 * transition_delay_us (1 ms here). Below f_ref an invariant task's
 * util_avg does not depend on the frequency, so the loop has a fixed point
 * that the pinned run predicts. Over a settled window, with the residency
 * counted while the CPU is in C0 (sampled from the platform's state: what
 * the request is while the CPU idles runs nothing, and blocked-load updates
 * from other CPUs may lower it then):
 *
 *  - invariant: the step the CPU ran at most is within one table step
 *    (100 MHz) of the formula's for the util_est the task had pinned at
 *    f_ref (the prediction) and for the one it had under schedutil (the
 *    util schedutil used), at least 90% of its running time was at the
 *    predicted step and one neighbour (util_est jitters by a tick's worth
 *    from one period to the next, and the request with it), and, where
 *    F = f_ref or util_avg instead of util_est would give a step two or
 *    more away, it is nearer the formula's than theirs; the task's mean
 *    util_avg is the one it had pinned at f_ref within 2% of 1024;
 *  - not invariant (the boot with dvfs_emu_no_turbo_ratios): the step is
 *    within one of the formula's with F = that step;
 *  - both: util_avg is the PELT model's for the running time the task was
 *    seen to have at the mean freq_scale seen, within 3% of 1024
 *    (dvfs_pelt_test's bar).
 *
 * cpuinfo.max_freq is the 1-core turbo while util is relative to f_ref,
 * so schedutil asks f_1C / f_ref more than the 1.25 x w x f_ref that
 * would leave the CPU 80% busy: the test prints what it asked and how busy
 * the CPU then was. DVFS_SU_EXPECT=invariant or not_invariant forces the
 * expectation (the control runs: each must fail in the other boot). Skips,
 * as expected, in a boot without dvfs_emu=; needs two CPUs (the sampler
 * does not share the task's).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"
#include "dvfs_util.h"
#include "pelt_model.h"

#define PERIOD_US	16000
#define CAL_PCT		20		/* calibrated: 20% of a period at f_1C */
#define SETTLE_US	600000		/* from a new task: 2^-18 left */
#define WINDOW_US	1600000		/* 100 periods */
#define MODEL_SETTLE_US	600000
#define SAMPLE_US	3000		/* the platform's state */
#define UTIL_EVERY	7		/* the task's PELT: every 7th sample */
#define STEP_MHZ	100
#define MAX_STEPS	256
#define RESIDENCY	0.90
#define PINNED_BAR	(0.02 * 1024)
#define MODEL_BAR	(0.03 * 1024)

static int cpus[64], nr_cpus, test_cpu;
static bool invariant;			/* what the kernel should do */
static unsigned int f_ref, f_max;	/* MHz; f_max: cpuinfo.max_freq */
static unsigned int s_min, s_max;	/* scaling_{min,max}_freq */
static pid_t task = -1;

static void stop_task(void)
{
	fi_reap(task);
	task = -1;
}

struct obs {
	double util;		/* mean util_avg of the task */
	double util_est;	/* mean max(util_est.ewma, util_est.enqueued) */
	double ran_us;		/* its running time per period */
	double scale;		/* mean freq_scale of its CPU in C0 */
	unsigned long busy;	/* samples with the CPU in C0 */
	unsigned long at[MAX_STEPS];	/* of those, at each step from s_min */
};

/*
 * Over WINDOW_US: test_cpu's state every SAMPLE_US (in C0 or not, the
 * request, freq_scale), the task's PELT signals every UTIL_EVERY samples.
 */
static int observe(pid_t tid, struct obs *o)
{
	static const char * const keys[] = { "c0", "requested_mhz" };
	unsigned long long st[2];
	uint64_t fs;
	long long ran0, ran1, u, ewma, enq;
	double usum = 0, esum = 0, fsum = 0;
	char path[128];
	uint64_t t0, t1;
	long n = 0, nu = 0;

	memset(o, 0, sizeof(*o));
	snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/freq_scale", test_cpu);
	t0 = fi_now_us();
	if (fi_read_sched_ns(tid, "se.sum_exec_runtime", &ran0))
		return -1;
	while (fi_now_us() < t0 + WINDOW_US) {
		if (dvfs_read_state(test_cpu, keys, st, 2) || fi_read_u64(path, &fs))
			return -1;
		if (st[0]) {
			unsigned long long i = (st[1] - s_min) / STEP_MHZ;

			if (st[1] >= s_min && i < MAX_STEPS)
				o->at[i]++;
			o->busy++;
			fsum += fs;
		}
		if (!(n++ % UTIL_EVERY)) {
			if (fi_read_sched_field(tid, "se.avg.util_avg", &u) ||
			    fi_read_sched_field(tid, "se.avg.util_est.ewma", &ewma) ||
			    fi_read_sched_field(tid, "se.avg.util_est.enqueued", &enq))
				return -1;
			usum += u;
			esum += ewma > enq ? ewma : enq;
			nu++;
		}
		fi_sleep_us(SAMPLE_US);
	}
	if (fi_read_sched_ns(tid, "se.sum_exec_runtime", &ran1))
		return -1;
	t1 = fi_now_us();
	o->util = usum / nu;
	o->util_est = esum / nu;
	o->scale = o->busy ? fsum / o->busy : 0;
	o->ran_us = (ran1 - ran0) / 1000.0 / (t1 - t0) * PERIOD_US;
	return 0;
}

/* schedutil's request for @util with @f: 6.1's get_next_freq(), resolved */
static unsigned int formula(double f, double util)
{
	double want = f * (util + util / 4) / 1024;
	unsigned int step = (unsigned int)ceil(want / STEP_MHZ) * STEP_MHZ;

	return step < s_min ? s_min : step > s_max ? s_max : step;
}

/* The step the kernel's formula gives for @util at the current step @cur */
static unsigned int expected(unsigned int cur, double util)
{
	return formula(invariant ? f_max : cur, util);
}

/* test_cpu's cpufreq file @name in MHz, or 0 */
static unsigned int read_mhz(const char *name)
{
	char buf[32];

	if (dvfs_cpufreq_read(test_cpu, name, buf, sizeof(buf)))
		return 0;
	return strtoul(buf, NULL, 10) / 1000;
}

static int set_governor(const char *gov)
{
	if (dvfs_cpufreq_write(test_cpu, "scaling_governor", gov)) {
		fi_err("CPU %d: cannot select the %s governor", test_cpu, gov);
		return -1;
	}
	return 0;
}

static unsigned int step_of(unsigned int i)
{
	return s_min + i * STEP_MHZ;
}

static unsigned int dist(unsigned int a, unsigned int b)
{
	return a > b ? a - b : b - a;
}

/* The checks of one task's run under schedutil against its pinned run */
static int judge(int w_pct, const struct obs *pinned, const struct obs *su)
{
	struct pelt_cfg cfg = { .mode = PELT_TIME_SCALING };
	unsigned long best = 0, near, up, down;
	unsigned int mode = 0, want, used, i;
	int ret = KSFT_PASS;
	double model;

	for (i = 0; i < MAX_STEPS; i++)
		if (su->at[i] > best) {
			best = su->at[i];
			mode = step_of(i);
		}
	if (!su->busy || !best) {
		fi_err("w %d%%: the CPU was never seen in C0 at a step", w_pct);
		return KSFT_FAIL;
	}
	used = expected(mode, su->util_est);
	want = invariant ? expected(mode, pinned->util_est) : used;
	/* The predicted step and the busier of its neighbours */
	i = (want - s_min) / STEP_MHZ;
	up = i + 1 < MAX_STEPS ? su->at[i + 1] : 0;
	down = i ? su->at[i - 1] : 0;
	near = su->at[i] + (up > down ? up : down);
	cfg.scale = lround(su->scale);
	model = pelt_periodic(&cfg, PERIOD_US, su->ran_us, MODEL_SETTLE_US).seen;

	fi_info("w %2d%%: pinned at %u MHz: ran %5.0f us a period, util_avg %5.1f, util_est %5.1f\n",
		w_pct, f_ref, pinned->ran_us, pinned->util, pinned->util_est);
	fi_info("       schedutil: util_est %5.1f, the formula's step %u MHz (%u predicted); ran at %u MHz most, %.0f%% at %u and a neighbour\n",
		su->util_est, used, want, mode, 100.0 * near / su->busy, want);
	fi_info("       ran %5.0f us a period (%.0f%% busy), util_avg %5.1f (model %5.1f at scale %.1f)\n",
		su->ran_us, 100 * su->ran_us / PERIOD_US, su->util, model, su->scale);
	if (invariant)
		fi_info("       asked 1.25 x %u x %.1f / 1024 = %.0f MHz, %.0f%% more than the %.0f MHz (1.25 x w x f_ref) that would leave it 80%% busy\n",
			f_max, su->util_est, 1.25 * f_max * su->util_est / 1024,
			100.0 * ((double)f_max / f_ref - 1),
			1.25 * pinned->ran_us / PERIOD_US * f_ref);

	if (dist(mode, want) > STEP_MHZ || dist(mode, used) > STEP_MHZ) {
		fi_err("w %d%%: ran at %u MHz most, the formula's step is %u MHz (%u predicted): want within %d",
		       w_pct, mode, used, want, STEP_MHZ);
		ret = KSFT_FAIL;
	}
	if ((double)near / su->busy < RESIDENCY) {
		fi_err("w %d%%: %.0f%% of the running time at %u MHz and a neighbour, want %.0f%%",
		       w_pct, 100.0 * near / su->busy, want, 100 * RESIDENCY);
		ret = KSFT_FAIL;
	}
	if (invariant) {
		/* What the other formulas would have asked, where they differ */
		unsigned int by_ref = formula(f_ref, su->util_est);
		unsigned int by_avg = formula(f_max, su->util);

		if (dist(by_ref, used) >= 2 * STEP_MHZ && dist(mode, used) >= dist(mode, by_ref)) {
			fi_err("w %d%%: %u MHz is no nearer the formula's %u than F = f_ref's %u",
			       w_pct, mode, used, by_ref);
			ret = KSFT_FAIL;
		}
		if (dist(by_avg, used) >= 2 * STEP_MHZ && dist(mode, used) >= dist(mode, by_avg)) {
			fi_err("w %d%%: %u MHz is no nearer the formula's %u than util_avg's %u",
			       w_pct, mode, used, by_avg);
			ret = KSFT_FAIL;
		}
		if (fabs(su->util - pinned->util) > PINNED_BAR) {
			fi_err("w %d%%: util_avg %.1f under schedutil, %.1f pinned at f_ref: want within %.1f",
			       w_pct, su->util, pinned->util, PINNED_BAR);
			ret = KSFT_FAIL;
		}
	}
	if (fabs(su->util - model) > MODEL_BAR) {
		fi_err("w %d%%: util_avg %.1f, the model's %.1f for %.0f us a period at scale %.1f: want within %.1f",
		       w_pct, su->util, model, su->ran_us, su->scale, MODEL_BAR);
		ret = KSFT_FAIL;
	}
	return ret;
}

/* The task needing @w_pct of the CPU at f_ref, @per_us iterations per us at f_max */
static int fixed_point(int w_pct, double per_us)
{
	double busy_ref = PERIOD_US * w_pct / 100.0;
	struct obs pinned, su;
	int ret = KSFT_FAIL;

	/* At f_ref the work takes f_max / f_ref times its time at f_max */
	task = dvfs_start_periodic(test_cpu, PERIOD_US,
				   per_us * busy_ref * f_ref / f_max, 0);
	if (task < 0 || dvfs_set_req(test_cpu, f_ref)) {
		fi_err("cannot start the task at %u MHz", f_ref);
		goto out;
	}
	fi_sleep_us(SETTLE_US);
	if (observe(task, &pinned) || set_governor("schedutil"))
		goto out;
	fi_sleep_us(SETTLE_US);
	if (observe(task, &su)) {
		fi_err("cannot observe the task or CPU %d under schedutil", test_cpu);
		goto out;
	}
	ret = judge(w_pct, &pinned, &su);
out:
	stop_task();
	if (set_governor("userspace"))
		ret = KSFT_FAIL;
	return ret;
}

static int test_fixed_point(void)
{
	static const int w[] = { 10, 25, 40, 60 };
	double cal = PERIOD_US * CAL_PCT / 100.0, ran;
	int ret = KSFT_PASS;
	unsigned long n;
	size_t i;

	/* Calibrated at f_max, then as the periodic task runs (dvfs_pelt_test) */
	for (i = 0; i < (size_t)nr_cpus; i++)
		if (dvfs_set_req(cpus[i], f_max))
			return KSFT_FAIL;
	n = dvfs_calibrate(test_cpu, cpus[0], cal);
	task = n ? dvfs_start_periodic(test_cpu, PERIOD_US, n, 0) : -1;
	if (task < 0 || dvfs_ran_per_period(task, PERIOD_US, &ran)) {
		fi_err("cannot calibrate or start the periodic task");
		stop_task();
		return KSFT_FAIL;
	}
	stop_task();
	for (i = 0; i < ARRAY_SIZE(w); i++)
		if (fixed_point(w[i], n / ran) != KSFT_PASS)
			ret = KSFT_FAIL;
	return ret;
}

static struct fi_test tests[] = {
	{ "schedutil_settles_at_the_formulas_step", test_fixed_point },
};

int main(void)
{
	const char *why, *expect = getenv("DVFS_SU_EXPECT");
	bool withheld;
	uint64_t ratio;
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	i = dvfs_booted(&why);
	if (i > 0)
		ksft_exit_skip("%s\n", why);
	if (i < 0)
		ksft_exit_fail_msg("%s\n", why);
	if (expect && strcmp(expect, "invariant") && strcmp(expect, "not_invariant"))
		ksft_exit_fail_msg("DVFS_SU_EXPECT=%s: want invariant or not_invariant\n", expect);
	withheld = dvfs_cmdline_has("dvfs_emu_no_turbo_ratios");
	invariant = expect ? !strcmp(expect, "invariant") : !withheld;
	nr_cpus = dvfs_setup_cpus(cpus, ARRAY_SIZE(cpus), true, &why);
	if (nr_cpus < 0)
		ksft_exit_fail_msg("%s\n", why);
	if (nr_cpus < 2)
		ksft_exit_skip("needs two CPUs: the sampler must not share the task's\n");
	test_cpu = cpus[nr_cpus - 1];
	f_max = read_mhz("cpuinfo_max_freq");
	s_min = read_mhz("scaling_min_freq");
	s_max = read_mhz("scaling_max_freq");
	if (!f_max || !s_min || !s_max)
		ksft_exit_fail_msg("cannot read CPU %d's cpuinfo_max_freq or scaling_*_freq\n",
				   test_cpu);
	if (withheld)	/* no ratio: the reference the platform would give */
		ratio = plat.turbo[L4C] * 1024ULL / plat.base;
	else if (fi_read_u64(FI_DEBUGFS "/max_freq_ratio", &ratio) || !ratio)
		ksft_exit_fail_msg("cannot read max_freq_ratio\n");
	/* To the table's step: the ratio is the frequency's, truncated */
	f_ref = lround(ratio * plat.base / 1024.0 / STEP_MHZ) * STEP_MHZ;
	fi_info("platform %s: %u..%u MHz, f_ref %u MHz; expectation: %s%s\n", plat.name,
		s_min, f_max, f_ref, invariant ? "invariant, F = cpuinfo.max_freq" :
		"not invariant, F = the current request",
		expect ? " (DVFS_SU_EXPECT: a control run)" : "");
	atexit(stop_task);
	fi_run_tests(tests, ARRAY_SIZE(tests));
}
