// SPDX-License-Identifier: GPL-2.0
/*
 * The article's turbo reference experiment on the emulated DVFS platform
 * (dvfs_emu=), on time-scaled PELT. Two CPUs busy, both asking for the
 * 1-core turbo, so the turbo limit for two active cores caps them at f_2C;
 * the reference is chosen through max_freq_ratio_reference (1-core, 4-core
 * and all-core turbo, f_ref). For each:
 *
 * - freq_scale of a busy CPU is min(f_2C / f_ref, 1) x 1024 (the unmodified
 *   tick path on the synthetic APERF/MPERF), within 1%;
 * - an always-running task's util_avg still reaches the top, on the
 *   time-scaled model's ramp at that scale: to 256, 486 and 768 in f_ref /
 *   f_2C times the full-speed running time when the scale is below 1024
 *   (the 1-core reference: Juri Lelli's case), the full-speed ramp when it
 *   clips. The median of 3 ramps, each from util_avg 0 or where the first
 *   read found it (at most START_MAX: under TCG that read often comes a
 *   few ticks after the wakeup), the model's time to that added, each
 *   where the task held its CPU at least 90% of the time and crossed 768
 *   (else run again). Against the model (its tolerance: 10% and what the
 *   observation cannot resolve, as invariance_test), and as a ratio to
 *   the all-core reference's ramp, which always clips: 1024 / scale,
 *   within 10% and the resolution (at 256 that bar is too wide to tell
 *   1.33 from 1; 486 and 768 do). What contribution scaling (before
 *   5.1) would have given is printed beside it: util tending to the
 *   scale, so with the 1-core reference two busy CPUs could never reach
 *   1024, the objection the article recalls;
 * - when the saturated CPU idles, lost_idle_time has grown by (1 - scale /
 *   1024) of the time its rq was busy: at least the always-running task's
 *   running time, at most the time from its fork to its stop (clock_pelt
 *   lags while the rq is busy, whoever runs), with invariance_test's
 *   slack, 5% and 10 ms; a run where the task held its CPU less than 90%
 *   of the time is run again, and so is one that lost no idle time with
 *   its rq's util_avg below 1023 just before the stop (the kernel's bar
 *   for counting lost idle time, not shown met: FI_RQ_SATURATED_UTIL),
 *   but for the last of 5 runs, judged whatever its rq's util_avg.
 *
 * Then, with the all-core reference (everything above f_AC clipped): a
 * busy CPU's freq_scale is 1024 at f_AC and at f_1C alike, and a task of
 * fixed work (SCHED_OTHER, calibrated as dvfs_pelt_test's) alone on its
 * CPU shows, at f_1C, util_avg lower by a factor f_AC / f_1C than at
 * f_AC: the under-report. What a test can hold without the host's speed
 * (dvfs_pelt_test's rule): each util_avg is the PELT model's for the
 * running time the task is seen to have at scale 1024, within 3% of 1024,
 * so util(f_1C) / util(f_AC) is the ratio of those running times, not 1
 * as invariance would have it; how much lower is printed, not asserted:
 * it follows the running times' ratio, which depends on the emulated
 * slowdown. That ratio, ideally f_AC / f_1C, is printed (the emulated
 * slowdown of a periodic task's short bursts is not exact: what a CPU
 * owes for the wakeups it serves in idle is paid by the task at its next
 * tick).
 *
 * A ramp samples its own /proc/PID/sched through a descriptor kept
 * open (fi_fopen_read()): on 6.1 each closed file queues an RCU callback,
 * and RCU's grace-period kthread, waking on the ramp's CPU, would preempt
 * the ramp often enough to keep it from holding its CPU and to make it
 * cross its targets late.
 *
 * Exactly two CPUs: on more, any other CPU that wakes makes three active
 * and brings the 4-core limit in. Where f_2C = f_1C (both shipped
 * profiles) the first part is the full-speed case for every reference;
 * make test boots it on both (e5-2670v3 in the Skylake-X boot, e3-1240v5
 * in the Xeon E3 boot) and on a platform with a steep turbo curve (the
 * Goldmont boot, 1-core reference).
 * DVFS_TURBO_REF_ASSUME=1c|4c|all computes the expected scales as if that
 * reference were in force whatever is set (the control runs): "4c" fails
 * the 1-core rows where f_2C < f_1C (the steep platform only) and the
 * under-report (f_AC / f_4C below 1024), "1c" the clipped rows where f_2C
 * < f_1C and the under-report on any platform with turbo above the
 * all-core limit.
 * Skips, as expected, in a boot without dvfs_emu=, where invariance is
 * off or turbo disabled (nothing to choose), and on other than two CPUs.
 */
#define _GNU_SOURCE
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

#define REF_FILE	FI_DEBUGFS "/max_freq_ratio_reference"
#define RAMPS		3		/* the median of three */
#define RAMP_TRIES	8		/* for each, if disturbed */
#define SATURATE_TRIES	5		/* for each reference, if not saturated */
#define START_MAX	200		/* the highest util_avg a ramp starts at */
#define PERIOD_US	16000
#define WORK_PCT	25		/* of the period, at the 1-core turbo */
#define SETTLE_US	600000		/* from a new task's util, or a step */
#define WINDOW_US	1600000		/* 100 periods */
#define SAMPLE_US	23000		/* prime to the period (dvfs_pelt_test) */
#define MODEL_SETTLE_US	600000
#define TARGETS		3		/* util_avg crossings of a ramp */

static const struct {
	const char *key;
	int level;
} refs[] = {
	{ "1c", L1C }, { "4c", L4C }, { "all", LAC },
};

/*
 * The two CPUs: this process on the other one, with the spinner, so that
 * its wakeups do not make a third CPU active (on a 4-CPU boot, a third
 * active CPU would bring the 4-core limit in for as long).
 */
static int cpus[64], nr_cpus, test_cpu, other_cpu;
static int assume = -1;			/* DVFS_TURBO_REF_ASSUME: a level */
static pid_t spinner = -1, task = -1;

static void stop_tasks(void)
{
	fi_reap(spinner);
	fi_reap(task);
	spinner = -1;
	task = -1;
}

static unsigned long long ratio_of(int level)
{
	return plat.turbo[level] * 1024ULL / plat.base;
}

/* The scale at effective @mhz with the reference @level (or the assumed) */
static double want_scale(unsigned int mhz, int level)
{
	double s = (double)mhz / plat.base * 1024 * 1024 /
		   ratio_of(assume >= 0 ? assume : level);

	return s > 1024 ? 1024 : s;
}

/* The index in refs[] of @key, one of them */
static size_t ref_index(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(refs) - 1 && strcmp(refs[i].key, key); i++)
		;
	return i;
}

/* Reference @i in force, max_freq_ratio its limit over the base: 0 or -1 */
static int set_reference(size_t i)
{
	uint64_t ratio;
	int err = fi_write_str(REF_FILE, refs[i].key);

	if (err) {
		fi_err("write %s to max_freq_ratio_reference: %s", refs[i].key, strerror(-err));
		return -1;
	}
	if (fi_read_u64(FI_DEBUGFS "/max_freq_ratio", &ratio) || ratio != ratio_of(refs[i].level)) {
		fi_err("reference %s: max_freq_ratio %llu, want %llu", refs[i].key,
		       (unsigned long long)ratio, ratio_of(refs[i].level));
		return -1;
	}
	return 0;
}

/* Both CPUs asked for the 1-core turbo, a spinner on the other one */
static int two_busy(void)
{
	if (dvfs_set_req(other_cpu, plat.turbo[L1C]) ||
	    dvfs_set_req(test_cpu, plat.turbo[L1C]))
		return -1;
	spinner = fi_spawn_spinner(other_cpu);
	return spinner < 0 ? -1 : 0;
}

/* The reference in force for the rest of the boot: the boot code's */
static void restore_reference(void)
{
	int err = fi_write_str(REF_FILE, "boot");

	if (err)
		fi_err("cannot give the boot code's reference back: %s", strerror(-err));
}

static int test_scale(void)
{
	int ret = KSFT_PASS;
	uint64_t scale;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(refs); i++) {
		double want = want_scale(plat.turbo[L2C], refs[i].level);

		if (set_reference(i) || two_busy()) {
			ret = KSFT_FAIL;
			break;
		}
		task = fi_spawn_spinner(test_cpu);
		if (task < 0 ||
		    dvfs_settled_scale(test_cpu, plat.turbo[L1C], want, want, 5, &scale)) {
			fi_err("reference %s (%u MHz), two CPUs busy at %u MHz: want freq_scale %.1f",
			       refs[i].key, plat.turbo[refs[i].level], plat.turbo[L2C], want);
			ret = KSFT_FAIL;
		} else {
			fi_info("reference %-3s (%u MHz), two CPUs busy at %u MHz: freq_scale %llu (want %.1f); contribution scaling would cap util at %.0f\n",
				refs[i].key, plat.turbo[refs[i].level], plat.turbo[L2C],
				(unsigned long long)scale, want, want);
		}
		stop_tasks();
	}
	restore_reference();
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * RAMPS ramps on test_cpu, the other CPU busy, each from util_avg at most
 * START_MAX (fi_ramp_start()): the running time to each target, plus the
 * model's time at @cfg to the util_avg it started from, sorted. 0 or -1.
 */
static int ramps(double limit_ms, const double *targets, const struct pelt_cfg *cfg,
		 double seen[][RAMPS])
{
	static struct fi_ramp r = { .start_max = START_MAX };
	const char *why;
	double shift;
	int n, i, tries;

	for (n = 0; n < RAMPS; n++) {
		for (tries = 0; tries < RAMP_TRIES; tries++) {
			const char *again = tries < RAMP_TRIES - 1 ? ", again" : "";

			if (fi_ramp(test_cpu, limit_ms, &r, &why)) {
				fi_info("ramp %d failed: %s%s\n", n, why, again);
				continue;
			}
			/* As for the saturated CPU below: the task must hold it */
			if (r.ran_ms[r.n - 1] < 0.9 * r.wall_ms) {
				fi_info("ramp %d: the task ran %.0f ms of %.0f: not always running%s\n",
					n, r.ran_ms[r.n - 1], r.wall_ms, again);
				continue;
			}
			if (fi_ramp_cross(&r, targets[TARGETS - 1]) < 0) {
				fi_info("ramp %d: util_avg %.0f after %.0f ms, below %.0f%s\n", n,
					r.util[r.n - 1], r.ran_ms[r.n - 1], targets[TARGETS - 1],
					again);
				continue;
			}
			break;
		}
		if (tries == RAMP_TRIES) {
			fi_err("no undisturbed ramp in %d tries", RAMP_TRIES);
			return -1;
		}
		shift = pelt_time_to_util(cfg, r.util[0], 4e6) / 1000;
		for (i = 0; i < TARGETS; i++) {
			seen[i][n] = fi_ramp_cross(&r, targets[i]);
			if (seen[i][n] >= 0)
				seen[i][n] += shift;
		}
	}
	for (i = 0; i < TARGETS; i++)
		qsort(seen[i], RAMPS, sizeof(seen[i][0]), cmp_double);
	return 0;
}

/* What a crossing cannot resolve at @scale: a PELT period of running, a tick */
static double resolution_ms(unsigned int scale)
{
	return (PELT_PERIOD_US * 1024 / scale + PELT_TICK_US) / 1000;
}

static int test_ramp(void)
{
	static const double targets[TARGETS] = { 256, 486, 768 };
	double got[ARRAY_SIZE(refs)][TARGETS], seen[TARGETS][RAMPS];
	struct pelt_cfg ts[ARRAY_SIZE(refs)];
	size_t i, ia = ref_index("all");
	int ret = KSFT_PASS, j;

	for (i = 0; i < ARRAY_SIZE(refs); i++) {
		struct pelt_cfg cs = { .mode = PELT_CONTRIB_SCALING };
		double limit;

		ts[i].scale = lround(want_scale(plat.turbo[L2C], refs[i].level));
		ts[i].mode = PELT_TIME_SCALING;
		cs.scale = ts[i].scale;
		/*
		 * The model's time to 768 and 30% more: room for a ramp
		 * behind the model, not so much that it is often disturbed
		 */
		limit = 1.3 * pelt_time_to_util(&ts[i], targets[TARGETS - 1], 4e6) / 1000;
		if (set_reference(i) || two_busy() || ramps(limit, targets, &ts[i], seen)) {
			fi_err("reference %s: cannot run the ramps", refs[i].key);
			stop_tasks();
			restore_reference();
			return KSFT_FAIL;
		}
		stop_tasks();
		for (j = 0; j < TARGETS; j++) {
			double want = pelt_time_to_util(&ts[i], targets[j], 4e6) / 1000;
			double cwant = pelt_time_to_util(&cs, targets[j], 4e6) / 1000;
			double tol = 0.1 * want + resolution_ms(ts[i].scale);
			char cbuf[32];

			got[i][j] = seen[j][RAMPS / 2];
			if (cwant < 0)
				snprintf(cbuf, sizeof(cbuf), "never");
			else
				snprintf(cbuf, sizeof(cbuf), "%.1f ms", cwant);
			fi_info("reference %-3s: util %4.0f after %6.1f ms (%.1f..%.1f; model at scale %u: %5.1f +- %.1f; contribution scaling: %s)\n",
				refs[i].key, targets[j], got[i][j], seen[j][0], seen[j][RAMPS - 1],
				ts[i].scale, want, tol, cbuf);
			if (got[i][j] < 0 || fabs(got[i][j] - want) > tol) {
				fi_err("reference %s: util %.0f after %.1f ms of running, want %.1f +- %.1f",
				       refs[i].key, targets[j], got[i][j], want, tol);
				ret = KSFT_FAIL;
			}
		}
	}
	restore_reference();
	/* Each reference's ramp against the all-core one's, which clips */
	for (i = 0; i < ARRAY_SIZE(refs); i++) {
		for (j = 0; i != ia && j < TARGETS; j++) {
			double want = (double)ts[ia].scale / ts[i].scale, ratio;
			double tol = 0.1 * want + (resolution_ms(ts[i].scale) +
						   want * resolution_ms(ts[ia].scale)) / got[ia][j];

			ratio = got[i][j] / got[ia][j];
			fi_info("reference %-3s: util %4.0f after %.2f times the all-core reference's running time, want %.2f +- %.2f\n",
				refs[i].key, targets[j], ratio, want, tol);
			if (got[i][j] < 0 || got[ia][j] < 0 || fabs(ratio - want) > tol) {
				fi_err("reference %s: util %.0f after %.2f times the all-core reference's running time, want %.2f +- %.2f",
				       refs[i].key, targets[j], ratio, want, tol);
				ret = KSFT_FAIL;
			}
		}
	}
	return ret;
}

static int test_lost_idle(void)
{
	int ret = KSFT_PASS;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(refs); i++) {
		double scale = want_scale(plat.turbo[L2C], refs[i].level), lo, hi, got;
		struct fi_saturation r;
		int tries, below;

		if (set_reference(i) || two_busy()) {
			ret = KSFT_FAIL;
			stop_tasks();
			break;
		}
		/*
		 * A run where the spinner held its CPU less than 90% of the
		 * time is not of a saturated CPU (a vCPU the host stalls
		 * shows so, as would the runner's prefix.pl reading what
		 * the test printed, which fi_saturate() waits for): run it
		 * again. So is one that lost no idle time with its rq's
		 * util_avg below FI_RQ_SATURATED_UTIL just before the stop
		 * (the kernel counts lost idle time only for a rq over its
		 * bar, not shown met), except the last try, judged below
		 * whatever its rq's util: a rq kept busy for a second reaches
		 * 1024, so one below the bar every time is a finding, not bad
		 * luck.
		 */
		below = 0;
		for (tries = 0; tries < SATURATE_TRIES; tries++) {
			const char *again = tries < SATURATE_TRIES - 1 ? ", again" : "";

			if (fi_saturate(test_cpu, 1000000 * fmax(1, 512 / scale), &r)) {
				fi_err("reference %s: cannot saturate CPU %d", refs[i].key,
				       test_cpu);
				tries = -1;
				break;
			}
			if (r.ran_ns < 0.9 * r.wall_ns) {
				fi_info("reference %s: the spinner ran %.0f ms of %.0f: not saturated%s\n",
					refs[i].key, r.ran_ns / 1e6, r.wall_ns / 1e6, again);
				continue;
			}
			if (scale < 1024 && !r.lost_ns && r.rq_util < FI_RQ_SATURATED_UTIL &&
			    tries < SATURATE_TRIES - 1) {
				below++;
				fi_info("reference %s: no idle time lost, the rq's util_avg %llu before the stop (bar: %d): not shown saturated, again\n",
					refs[i].key, (unsigned long long)r.rq_util,
					FI_RQ_SATURATED_UTIL);
				continue;
			}
			break;
		}
		stop_tasks();
		if (below)
			fi_info("reference %s: %d run(s) with the rq below the bar, no idle time lost\n",
				refs[i].key, below);
		if (tries == SATURATE_TRIES)
			fi_err("reference %s: CPU %d not saturated in %d runs", refs[i].key,
			       test_cpu, SATURATE_TRIES);
		if (tries < 0 || tries == SATURATE_TRIES) {
			ret = KSFT_FAIL;
			break;
		}
		/*
		 * clock_pelt lags while the rq is busy, whoever runs: at least
		 * while the spinner ran, at most from its fork to its stop
		 */
		lo = (1 - scale / 1024) * r.ran_ns / 1e6;
		hi = (1 - scale / 1024) * r.wall_ns / 1e6;
		lo -= 0.05 * lo + 10;
		hi += 0.05 * hi + 10;
		got = r.lost_ns / 1e6;
		fi_info("reference %-3s: scale %.1f, always running %.0f ms (of %.0f): util_avg %lld (the rq's %llu), lost_idle_time +%.1f ms (model %.1f..%.1f)\n",
			refs[i].key, scale, r.ran_ns / 1e6, r.wall_ns / 1e6, r.util,
			(unsigned long long)r.rq_util, got, lo, hi);
		if (r.util < 0.95 * 1024) {
			fi_err("reference %s: util_avg %lld, want >= 95%% of 1024", refs[i].key,
			       r.util);
			ret = KSFT_FAIL;
		}
		if (got < lo || got > hi) {
			fi_err("reference %s: lost_idle_time +%.1f ms, want +%.1f..%.1f ms",
			       refs[i].key, got, lo, hi);
			ret = KSFT_FAIL;
		}
	}
	restore_reference();
	return ret;
}

/* The task's util at @mhz against the model of its observed run: 0 or -1 */
static int fixed_work_at(unsigned int mhz, double settle_us, struct dvfs_seen *seen,
			 double *model)
{
	struct pelt_cfg cfg = { .scale = lround(want_scale(mhz, LAC)),
				.mode = PELT_TIME_SCALING };

	if (dvfs_set_req(test_cpu, mhz) ||
	    dvfs_observe(test_cpu, task, PERIOD_US, settle_us, WINDOW_US, SAMPLE_US, seen)) {
		fi_err("%u MHz: cannot set the frequency or observe task %d", mhz, task);
		return -1;
	}
	*model = pelt_periodic(&cfg, PERIOD_US, seen->ran_us, MODEL_SETTLE_US).seen;
	fi_info("%u MHz: scale %u (seen %.1f), ran %.0f us/period, util_avg %.1f, model %.1f (%+.1f)\n",
		mhz, cfg.scale, seen->scale, seen->ran_us, seen->util, *model, seen->util - *model);
	if (seen->ran_us >= PERIOD_US) {
		fi_err("%u MHz: the task ran %.0f us of each %d us: not periodic", mhz,
		       seen->ran_us, PERIOD_US);
		return -1;
	}
	if (fabs(seen->util - *model) > 0.03 * 1024) {
		fi_err("%u MHz: util_avg %.1f, the model's %.1f for %.0f us of %d at scale %u, want +- 3%% of 1024",
		       mhz, seen->util, *model, seen->ran_us, PERIOD_US, cfg.scale);
		return -1;
	}
	return 0;
}

static int test_under_report(void)
{
	unsigned int f_ac = plat.turbo[LAC], f_1c = plat.turbo[L1C];
	const int two[] = { other_cpu, test_cpu };	/* this process's home first */
	struct dvfs_seen at_ac, at_1c;
	double m_ac, m_1c;
	unsigned long n;
	int ret = KSFT_PASS;
	uint64_t scale;

	if (f_ac == f_1c) {
		fi_info("no turbo above the all-core limit: nothing to clip\n");
		return KSFT_SKIP;
	}
	if (set_reference(ref_index("all"))) {
		ret = KSFT_FAIL;
		goto out;
	}
	/* A busy CPU alone: 1024 at f_AC and at f_1C alike */
	task = fi_spawn_spinner(test_cpu);
	if (task < 0) {
		fi_err("cannot run a spinner on CPU %d", test_cpu);
		ret = KSFT_FAIL;
	} else if (dvfs_settled_scale(test_cpu, f_ac, want_scale(f_ac, LAC),
				      want_scale(f_ac, LAC), 5, &scale) ||
		   dvfs_settled_scale(test_cpu, f_1c, want_scale(f_1c, LAC),
				      want_scale(f_1c, LAC), 5, &scale)) {
		ret = KSFT_FAIL;
	}
	stop_tasks();
	task = dvfs_start_fixed_work(two, 2, test_cpu, PERIOD_US, PERIOD_US * WORK_PCT / 100.0,
				     &n);
	if (task < 0) {
		fi_err("cannot calibrate or start the fixed-work task");
		ret = KSFT_FAIL;
		goto out;
	}
	fi_info("task %d: %lu iterations, %d%% of %d us at %u MHz\n", task, n, WORK_PCT,
		PERIOD_US, f_1c);
	if (fixed_work_at(f_ac, SETTLE_US, &at_ac, &m_ac) ||
	    fixed_work_at(f_1c, SETTLE_US, &at_1c, &m_1c)) {
		ret = KSFT_FAIL;
		goto out;
	}
	/*
	 * Each util_avg held to its model above: their ratio is that of the
	 * running times (scale 1024 at both), not 1 as invariance would have it
	 */
	fi_info("all-core reference: util_avg %.1f at %u MHz, %.1f at %u: under-reported by %.1f%%\n",
		at_ac.util, f_ac, at_1c.util, f_1c, 100 * (1 - at_1c.util / at_ac.util));
	fi_info("(the model's %.1f%%; the running times' ratio %.3f, ideally f_AC / f_1C = %.3f)\n",
		100 * (1 - m_1c / m_ac), at_1c.ran_us / at_ac.ran_us, (double)f_ac / f_1c);
out:
	stop_tasks();
	restore_reference();
	return ret;
}

static struct fi_test tests[] = {
	{ "two_busy_cpus_scale_is_f2c_over_the_reference", test_scale },
	{ "two_busy_cpus_lose_what_clock_pelt_lagged", test_lost_idle },
	{ "all_core_reference_under_reports_above_it", test_under_report },
	{ "two_busy_cpus_ramp_on_the_time_scaled_model", test_ramp },
};

int main(void)
{
	const char *why, *env = getenv("DVFS_TURBO_REF_ASSUME");
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	dvfs_begin();
	if (env) {
		for (i = 0; i < ARRAY_SIZE(refs); i++)
			if (!strcmp(env, refs[i].key))
				assume = refs[i].level;
		if (assume < 0)
			ksft_exit_fail_msg("DVFS_TURBO_REF_ASSUME=%s: want 1c, 4c or all\n", env);
		fi_info("DVFS_TURBO_REF_ASSUME=%s: a control run\n", env);
	}
	if (access(REF_FILE, F_OK))
		ksft_exit_fail_msg("no %s: CONFIG_X86_FREQ_SCALE_OVERRIDE=n\n", REF_FILE);
	if (dvfs_cmdline_has("dvfs_emu_turbo_disabled") ||
	    dvfs_cmdline_has("dvfs_emu_no_turbo_ratios"))
		ksft_exit_skip("turbo disabled or its ratios withheld: no reference to choose\n");
	nr_cpus = dvfs_setup_cpus(cpus, ARRAY_SIZE(cpus), false, &why);
	if (nr_cpus < 0)
		ksft_exit_fail_msg("%s\n", why);
	if (nr_cpus != 2)
		ksft_exit_skip("needs exactly two CPUs (%d online)\n", nr_cpus);
	test_cpu = cpus[nr_cpus - 1];
	other_cpu = cpus[nr_cpus - 2];
	if (fi_pin_self(other_cpu))
		ksft_exit_fail_msg("cannot pin to CPU %d\n", other_cpu);
	fi_info("platform %s: %u MHz base, turbo %u/%u/%u/%u MHz with 1/2/4/all cores; CPUs %d and %d busy\n",
		plat.name, plat.base, plat.turbo[L1C], plat.turbo[L2C], plat.turbo[L4C],
		plat.turbo[LAC], other_cpu, test_cpu);
	atexit(stop_tasks);
	atexit(restore_reference);
	fi_run_tests(tests, ARRAY_SIZE(tests));
}
