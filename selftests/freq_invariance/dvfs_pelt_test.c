// SPDX-License-Identifier: GPL-2.0
/*
 * PELT's frequency invariance on the emulated DVFS platform (dvfs_emu=),
 * the LISA way: nothing is stretched by the test. A periodic task
 * (SCHED_OTHER, pinned to one CPU) does a fixed amount of work every 16
 * ms: a counted loop that takes 20% of the period at the 1-core turbo,
 * measured as the task runs. At 8 frequencies from 0.4 x the 1-core turbo
 * up, set with the userspace governor, the CPU really runs slower and the
 * task runs longer; the mean of its util_avg over a settled window must be
 * the PELT model's mean for the run/sleep pattern the task was observed to
 * have (its running time per period, se.sum_exec_runtime) at the scale the
 * kernel should apply, within 1% of 1024 on average over the frequencies
 * and 3% at worst:
 *
 *   invariance on:   scale = min(f / f_ref, 1), f_ref = max_freq_ratio x
 *                    base / 1024; util stays put up to f_ref and falls as
 *                    f_ref / f above it (the scale clips)
 *   invariance off:  scale = 1; util grows as the task runs longer
 *
 * The observed pattern, not a wall-clock assumption: under multi-threaded
 * TCG a vCPU's speed follows the host's load. The sampler runs on another
 * CPU, reading every 23 ms: on the task's CPU, its reads keep the
 * runqueue busy while the task sleeps, and time-scaled PELT then decays
 * the task's util_avg at the CPU's scale instead of in wall time. (rt-app,
 * whose run event this loop stands for, would do under multi-threaded
 * TCG; its ldexp() loop is too slow under -icount, whose one vCPU leaves
 * the sampler no other CPU anyway.)
 *
 * A second task is busy for 20% of each period by the clock instead, as
 * stress-ng's --cpu-load drives a CPU (whose own loop does not hold its
 * duty under TCG): it does less work as f drops, and its util_avg is the
 * model's for the running time it is seen to have at the same scale (P x
 * min(f / f_ref, 1) x 1024 for a duty P that holds), at 4 frequencies,
 * within the same bars. Its running time still grows as f drops: a
 * tick's spin is not cut at the end of its window, and what is left is
 * paid at the next period.
 *
 * The second expectation is for the boot with dvfs_emu_no_turbo_ratios,
 * where the boot code must refuse invariance ("base or turbo ratio reads
 * 0"); a second test, run only in that boot, checks the refusal. DVFS_PELT_EXPECT=invariant or
 * not_invariant forces the expectation (the control runs: each must fail
 * in the other boot); DVFS_PELT_FREQS=MHz,... chooses the frequencies
 * (make run's demonstration). Skips, as expected, in a boot without
 * dvfs_emu=; needs two CPUs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"
#include "dvfs_util.h"
#include "pelt_model.h"

#define PERIOD_US	16000
#define WORK_PCT	20		/* of the period, at the 1-core turbo */
#define SETTLE_US	300000		/* 9 half-lives: 0.2% of a step left */
#define FIRST_SETTLE_US	600000		/* from a new task's util */
#define WINDOW_US	1600000		/* 100 periods */
#define MODEL_SETTLE_US	600000		/* from util 0: 2^-18 left */
/*
 * The sampler's period: prime to the task's, so that the samples fall at
 * every phase of it, and long enough that its vCPU leaves the host's CPUs
 * to the task's (a read of /proc/PID/sched costs a few hundred us under
 * TCG).
 */
#define SAMPLE_US	23000

static int cpus[64], nr_cpus, test_cpu;
static bool invariant;			/* what the kernel should do */
static uint64_t ratio;			/* max_freq_ratio, when invariant */
static pid_t task = -1;

static void stop_task(void)
{
	fi_reap(task);
	task = -1;
}

/* The scale the kernel should apply to a CPU at @mhz, x 1024 */
static double want_scale(unsigned int mhz)
{
	double s;

	if (!invariant)
		return 1024;
	s = (double)mhz / plat.base * 1024 * 1024 / ratio;
	return s > 1024 ? 1024 : s;
}

/*
 * The task @tid at each of the @n frequencies @f: the mean of its util_avg
 * against the model's for its observed running time per PERIOD_US at the
 * scale the kernel should apply, within 3% of 1024 each and 1% on average.
 */
static int at_frequencies(pid_t tid, const unsigned int *f, int n)
{
	double err_sum = 0, worst = 0;
	int ret = KSFT_PASS, i;

	fi_info("expectation: %s\n",
		invariant ? "invariant, scale min(f / f_ref, 1)" : "not invariant, scale 1");
	fi_info("   MHz  scale (seen)  ran_us/period  util_avg  model  error\n");
	for (i = 0; i < n; i++) {
		struct pelt_cfg cfg = { .mode = PELT_TIME_SCALING };
		double scale = want_scale(f[i]), util, ran, model, err;
		struct dvfs_seen seen;

		cfg.scale = lround(scale);
		if (dvfs_set_req(test_cpu, f[i]) ||
		    dvfs_observe(test_cpu, tid, PERIOD_US, i ? SETTLE_US : FIRST_SETTLE_US,
				 WINDOW_US, SAMPLE_US, &seen)) {
			fi_err("%u MHz: cannot set the frequency or observe task %d", f[i], tid);
			return KSFT_FAIL;
		}
		util = seen.util;
		ran = seen.ran_us;
		if (ran >= PERIOD_US) {
			fi_err("%u MHz: the task ran %.0f us of each %d us: not periodic",
			       f[i], ran, PERIOD_US);
			return KSFT_FAIL;
		}
		model = pelt_periodic(&cfg, PERIOD_US, ran, MODEL_SETTLE_US).seen;
		err = util - model;
		err_sum += fabs(err);
		worst = fmax(worst, fabs(err));
		fi_info("%6u %6.1f %6.1f %14.0f %9.1f %6.1f %+6.1f\n", f[i], scale, seen.scale, ran,
			util, model, err);
		if (fabs(err) > 0.03 * 1024) {
			fi_err("%u MHz: util_avg %.1f, the model's %.1f for %.0f us of %d at scale %.1f, want +- 3%% of 1024",
			       f[i], util, model, ran, PERIOD_US, scale);
			ret = KSFT_FAIL;
		}
	}
	fi_info("off the model by %.1f on average, %.1f at worst\n", err_sum / n, worst);
	if (err_sum / n > 0.01 * 1024) {
		fi_err("util_avg off the model by %.1f on average, want 1%% of 1024", err_sum / n);
		ret = KSFT_FAIL;
	}
	return ret;
}

/* @n frequencies from 0.4 x the 1-core turbo (or the minimum) to it */
static void frequencies(unsigned int *f, int n)
{
	unsigned int f1c = plat.turbo[L1C], lo = (f1c * 4 / 10 + 99) / 100 * 100;
	int i;

	if (lo < plat.min)
		lo = plat.min;
	for (i = 0; i < n; i++)
		f[i] = (lo + (f1c - lo) * i / (n - 1)) / 100 * 100;
}

static unsigned int env_f[16], env_n;	/* DVFS_PELT_FREQS */

/* A periodic task, its work fixed: it runs longer as f drops */
static int test_periodic(void)
{
	unsigned int f[16], n_f = 8;
	unsigned long n;
	int ret;

	frequencies(f, 8);
	if (env_n) {
		memcpy(f, env_f, sizeof(env_f));
		n_f = env_n;
	}
	task = dvfs_start_fixed_work(cpus, nr_cpus, test_cpu, PERIOD_US,
				     PERIOD_US * WORK_PCT / 100.0, &n);
	if (task < 0) {
		fi_err("cannot calibrate or start the periodic task");
		return KSFT_FAIL;
	}
	fi_info("task %d: %lu iterations, %d%% of %d us at %u MHz\n", task, n, WORK_PCT,
		PERIOD_US, plat.turbo[L1C]);
	ret = at_frequencies(task, f, n_f);
	stop_task();
	return ret;
}

/* A task busy for a fixed share of the clock: its work drops with f */
static int test_timed(void)
{
	unsigned int f[16], n_f = 4;
	int ret;

	frequencies(f, 4);
	if (env_n) {
		memcpy(f, env_f, sizeof(env_f));
		n_f = env_n;
	}
	task = dvfs_start_periodic(test_cpu, PERIOD_US, 0, PERIOD_US * WORK_PCT / 100);
	if (task < 0) {
		fi_err("cannot start the timed task");
		return KSFT_FAIL;
	}
	fi_info("task %d: busy %d%% of %d us by the clock\n", task, WORK_PCT, PERIOD_US);
	ret = at_frequencies(task, f, n_f);
	stop_task();
	return ret;
}

/*
 * An always-running task on a CPU at the platform's minimum (the case of
 * commit 23127296889f ("sched/fair: Update scale invariance of PELT")):
 * clock_pelt runs at the scale, so util_avg still reaches the top,
 * later; when the saturated CPU idles, what clock_pelt fell
 * behind, (1 - scale / 1024) of the running time, is lost idle time.
 * Without invariance the scale is 1024 and nothing is lost. Slack as
 * invariance_test's: 10 ms and 5%.
 */
static int test_saturated(void)
{
	double scale = want_scale(plat.min), want, got, tol;
	struct fi_saturation r;

	if (dvfs_set_req(test_cpu, plat.min) ||
	    fi_saturate(test_cpu, 1000000 * fmax(1, 512 / scale), &r)) {
		fi_err("cannot run a spinner on CPU %d at %u MHz", test_cpu, plat.min);
		return KSFT_FAIL;
	}
	want = (1 - scale / 1024) * r.ran_ns / 1e6;
	got = r.lost_ns / 1e6;
	tol = 0.05 * want + 10;
	fi_info("%u MHz (scale %.1f), always running %.0f ms: util_avg %lld, lost_idle_time +%.1f ms (model %.1f +- %.1f)\n",
		plat.min, scale, r.ran_ns / 1e6, r.util, got, want, tol);
	if (r.util < 0.95 * 1024) {
		fi_err("util_avg %lld, want >= 95%% of 1024: an always-running task reaches the top at any scale",
		       r.util);
		return KSFT_FAIL;
	}
	if (fabs(got - want) > tol) {
		fi_err("lost_idle_time +%.1f ms, want +%.1f +- %.1f ms", got, want, tol);
		return KSFT_FAIL;
	}
	return KSFT_PASS;
}

/*
 * In the boot with the turbo ratios withheld: the boot code refused
 * invariance for that reason, a busy CPU below the base keeps freq_scale
 * 1024, and the turbo reference cannot be chosen (-ENODEV).
 */
static int test_refused(void)
{
	char buf[128], path[128];
	int ret = KSFT_PASS, err;
	uint64_t scale = 0;
	pid_t pid;

	if (fi_read_line(FI_DEBUGFS "/status", buf, sizeof(buf)) ||
	    strcmp(buf, "off: base or turbo ratio reads 0")) {
		fi_err("status \"%s\", want \"off: base or turbo ratio reads 0\"", buf);
		ret = KSFT_FAIL;
	}
	if (!dvfs_reference_refused(&err)) {
		fi_err("choosing a reference with invariance off: %s, want ENODEV",
		       err ? strerror(-err) : "accepted");
		ret = KSFT_FAIL;
	}
	pid = fi_spawn_spinner(test_cpu);
	if (pid < 0 || dvfs_set_req(test_cpu, plat.min))
		ret = KSFT_FAIL;
	fi_sleep_us(50000);
	snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/freq_scale", test_cpu);
	if (fi_read_u64(path, &scale) || scale != 1024) {
		fi_err("CPU %d busy at %u MHz: freq_scale %llu, want 1024 (no invariance)",
		       test_cpu, plat.min, (unsigned long long)scale);
		ret = KSFT_FAIL;
	}
	fi_reap(pid);
	return ret;
}

/* DVFS_PELT_FREQS: 0, or -1 if not a list of the platform's frequencies */
static int parse_freqs(const char *arg)
{
	const char *p = arg;
	char *end;

	for (env_n = 0; env_n < ARRAY_SIZE(env_f); env_n++) {
		unsigned long mhz = strtoul(p, &end, 10);

		if (end == p || mhz < plat.min || mhz > plat.turbo[L1C] || mhz % 100)
			return -1;
		env_f[env_n] = mhz;
		if (!*end) {
			env_n++;
			return 0;
		}
		if (*end != ',')
			return -1;
		p = end + 1;
	}
	return -1;
}

static struct fi_test tests[] = {
	{ "periodic_util_is_pelt_of_its_run_at_the_scale", test_periodic },
	{ "timed_duty_util_is_pelt_of_its_run_at_the_scale", test_timed },
	{ "saturated_cpu_loses_what_clock_pelt_lagged", test_saturated },
	{ "invariance_refused_without_turbo_ratios", test_refused },
};

int main(void)
{
	const char *why, *expect = getenv("DVFS_PELT_EXPECT");
	const char *freqs = getenv("DVFS_PELT_FREQS");
	bool withheld;
	size_t n = ARRAY_SIZE(tests);

	/* Each line as it comes: a timeout should not swallow them */
	setvbuf(stdout, NULL, _IOLBF, 0);
	dvfs_begin();
	withheld = dvfs_cmdline_has("dvfs_emu_no_turbo_ratios");
	invariant = !withheld;
	if (expect && (strcmp(expect, "invariant") && strcmp(expect, "not_invariant")))
		ksft_exit_fail_msg("DVFS_PELT_EXPECT=%s: want invariant or not_invariant\n",
				   expect);
	if (freqs && parse_freqs(freqs))
		ksft_exit_fail_msg("DVFS_PELT_FREQS=%s: want %s %u..%u in steps of 100\n", freqs,
				   "up to 16 frequencies in MHz, comma-separated,",
				   plat.min, plat.turbo[L1C]);
	if (expect) {
		invariant = !strcmp(expect, "invariant");
		fi_info("DVFS_PELT_EXPECT=%s: a control run\n", expect);
	}
	if (invariant && !withheld && fi_read_u64(FI_DEBUGFS "/max_freq_ratio", &ratio))
		ksft_exit_fail_msg("cannot read max_freq_ratio\n");
	if (invariant && withheld)	/* the control: as the platform would give */
		ratio = plat.turbo[L4C] * 1024ULL / plat.base;
	/* The refusal is checked only where it must happen */
	if (!withheld)
		n--;
	nr_cpus = dvfs_setup_cpus(cpus, ARRAY_SIZE(cpus), true, &why);
	if (nr_cpus < 0)
		ksft_exit_fail_msg("%s\n", why);
	if (nr_cpus < 2)
		ksft_exit_skip("needs two CPUs: the sampler must not share the task's\n");
	test_cpu = cpus[nr_cpus - 1];
	atexit(stop_task);
	fi_run_tests(tests, n);
}
