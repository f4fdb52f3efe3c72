// SPDX-License-Identifier: GPL-2.0
/*
 * The article's turbo reference experiment, on time-scaled PELT, with the
 * reference the unmodified boot code picks for the part: on a platform
 * with APERF/MPERF (QEMU's, x-dvfs, or hardware), the part and its
 * reference f_ref learnt from CPU 0's MSRs by the design's rule
 * (dvfs_util.c's dvfs_max_freq_ratio(): the 1-core turbo on Goldmont, the
 * 4-core one on a client part), never from the kernel. Two CPUs busy,
 * both asking for the 1-core turbo, so the turbo limit for two active
 * cores caps them at f_2C:
 *
 * - two_busy_cpus_scale_is_f2c_over_the_reference: freq_scale of a busy
 *   CPU is min(f_2C / f_ref, 1) x 1024 (the unmodified tick path), the
 *   median of 9 ticks' within 1% and at most 2 of them off
 *   (dvfs_settled_scale()), and with both CPUs asking for the base, base
 *   / f_ref x 1024 (where f_2C is above f_ref and clips, what tells the
 *   reference apart);
 * - two_busy_cpus_lose_what_clock_pelt_lagged: when the saturated CPU
 *   idles, lost_idle_time has grown by (1 - scale / 1024) of the time its
 *   rq was busy: at least the always-running task's running time, at most
 *   the time from its fork to its stop (clock_pelt lags while the rq is
 *   busy, whoever runs), with invariance_test's slack, 5% and 10 ms; and
 *   its util_avg reaches 95% of 1024 all the same (with contribution
 *   scaling, before 5.1, it would have tended to the scale: the article's
 *   objection to the 1-core reference);
 * - reference_under_reports_above_it (where f_ref is below the 1-core
 *   turbo): a busy CPU alone has freq_scale 1024 at f_ref and at f_1C
 *   alike, so a task of fixed work (SCHED_OTHER, calibrated as
 *   dvfs_pelt_test's) shows, at f_1C, a util_avg lower than at f_ref by
 *   the ratio of its running times (ideally f_ref / f_1C): each util_avg
 *   is the PELT model's for the running time seen at scale 1024, within
 *   3% of 1024, and the two differ by more than the two bars, which
 *   invariance (the same util_avg at both) would not;
 * - two_busy_cpus_ramp_on_the_time_scaled_model: an always-running task's
 *   util_avg rises from 256 to 486 and to 768 in 1024 / scale times the
 *   full-speed running time (the model's, within 10% and what a crossing
 *   cannot resolve, as invariance_test). Each of 3 ramps starts below 256
 *   (fi_ramp()), so the intervals need nothing from the model; the median
 *   is judged.
 *
 * Each case judges the same data against the other references the part
 * offers (the 1-core, 4-core and all-core limits over the base) and
 * against no invariance (scale 1024 at any frequency) as inline controls
 * (the under-report case: against invariance above f_ref): where a kernel
 * that behaved as a control expects would miss the expected's bar
 * (lost_idle_time: where the two ranges are apart; the ramp: at either
 * interval), the data must miss the control's own bar (the ramp: at least
 * one interval), and a boot that names its part (fi_platform=) must have
 * at least one such reference, or the case cannot tell the reference in
 * force.
 *
 * A run is repeated only when its precondition failed: a ramp or a
 * saturated run whose task did not hold its CPU 90% of the time (the host
 * stalled its vCPU, or another task ran there); such runs are counted,
 * printed and bounded. The rq's util_avg in a saturated run is judged,
 * not a precondition: an rq busy all the time reaches the kernel's bar
 * for losing idle time long before the run ends, and a util_avg below
 * FI_RQ_SATURABLE_UTIL is below that bar.
 *
 * A ramp samples its own /proc/PID/sched through a descriptor kept open
 * (fi_fopen_read()): on 6.1 each closed file queues an RCU callback,
 * and RCU's grace-period kthread, waking on the ramp's CPU, would preempt
 * the ramp often enough to keep it from holding its CPU.
 *
 * make test runs it on QEMU's steep part (f_1C 4000, f_2C 3000, f_4C 2800,
 * f_AC 2600 MHz) as Goldmont (the 1-core reference: scale 768, clock_pelt
 * lags, no turbo above it to under-report) and as Skylake (the 4-core
 * reference: scale 1024, no lag, the under-report above it). No part's
 * boot code picks the all-core limit where it differs from the 4-core one;
 * on this part both are below f_2C, so the all-core reference's
 * experiment is the 4-core one's with a larger under-report.
 *
 * Exactly two CPUs: on more, any other CPU that wakes makes three active
 * and brings the 4-core limit in. Skips, saying why, without APERF/MPERF,
 * where the part has no reference (turbo disabled, or its ratios read 0),
 * and on other than two CPUs.
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

#define RAMPS		3		/* the median of three */
#define RAMP_RUNS	(3 * RAMPS)	/* at most, with those run again */
#define SATURATE_RUNS	5		/* at most, with those run again */
#define START_MAX	200		/* the highest util_avg a ramp starts at */
#define PERIOD_US	16000
#define WORK_PCT	25		/* of the period, at the 1-core turbo */
#define SETTLE_US	600000		/* from a new task's util, or a step */
#define WINDOW_US	1600000		/* 100 periods */
#define SAMPLE_US	23000		/* prime to the period (dvfs_pelt_test) */
#define MODEL_SETTLE_US	600000
#define TARGETS		3		/* util_avg crossings of a ramp */
/* dvfs_settled_scale()'s bar: the kernel's arithmetic and the reads' skew */
#define SCALE_TOL	0.01
/* A periodic task's util_avg against its model, at worst (dvfs_pelt_test) */
#define UTIL_TOL	(0.03 * 1024)

/* A turbo reference: its limit, and that over the base x 1024 */
struct ref {
	const char *name;
	unsigned int mhz;
	unsigned long long ratio;
	char label[48];		/* as a control */
};

static struct ref want;			/* the boot code's, by the design's rule */
static struct ref ctl[LEVELS + 1];	/* the part's other limits, no invariance */
static int nr_ctl;
static bool named;			/* fi_platform= names the part */
static const double targets[TARGETS] = { 256, 486, 768 };

/*
 * The two CPUs: this process on the other one, with the spinner, so that
 * its wakeups do not make a third CPU active.
 */
static int cpus[64], nr_cpus, test_cpu, other_cpu;
static pid_t spinner = -1, task = -1;

static void stop_tasks(void)
{
	fi_reap(spinner);
	fi_reap(task);
	spinner = -1;
	task = -1;
}

/* A limit over the base x 1024, as the boot code divides */
static unsigned long long ratio_of(unsigned int mhz)
{
	return pelt_freq_ratio(mhz, plat.base);
}

/* The scale of a CPU at effective @mhz with reference @r (none: 1024) */
static double scale_of(unsigned int mhz, const struct ref *r)
{
	return pelt_freq_scale(mhz, plat.base, r->ratio);
}

/*
 * The inline controls' verdict on one quantity: @met[i] whether the data
 * meet control i's expectation, @tells[i] whether a kernel that behaved
 * as control i expects would miss the expectation's bar. KSFT_FAIL when
 * the data meet a control that tells, or when none tells on a named part.
 */
static int judge_controls(const char *what, const bool *met, const bool *tells)
{
	int ret = KSFT_PASS, told = 0, i;

	for (i = 0; i < nr_ctl; i++) {
		if (!tells[i]) {
			fi_info("%s: the control %s is not told from the expectation here\n",
				what, ctl[i].label);
			continue;
		}
		told++;
		if (met[i]) {
			fi_err("%s: the data meet the control %s too: the case cannot tell",
			       what, ctl[i].label);
			ret = KSFT_FAIL;
		} else {
			fi_info("%s: the control %s: missed, as it must be\n", what, ctl[i].label);
		}
	}
	if (!told && named) {
		fi_err("%s: no other reference of this part is told from %s: no control", what,
		       want.name);
		ret = KSFT_FAIL;
	}
	return ret;
}

/* Both CPUs asked for @mhz, a spinner on the other one */
static int two_busy(unsigned int mhz)
{
	if (dvfs_set_req(other_cpu, mhz) || dvfs_set_req(test_cpu, mhz))
		return -1;
	spinner = fi_spawn_spinner(other_cpu);
	return spinner < 0 ? -1 : 0;
}

static int test_scale(void)
{
	/* Both asking for the 1-core turbo (capped at f_2C), then for the base */
	const unsigned int ask[2] = { plat.turbo[L1C], plat.base };
	const unsigned int eff[2] = { plat.turbo[L2C], plat.base };
	bool met[LEVELS + 1], tells[LEVELS + 1];
	uint64_t scale;
	int leg, ret, i;

	for (i = 0; i < nr_ctl; i++) {
		tells[i] = false;
		met[i] = true;
	}
	for (leg = 0; leg < 2; leg++) {
		double w = scale_of(eff[leg], &want);

		if (!two_busy(ask[leg]))
			task = fi_spawn_spinner(test_cpu);
		if (spinner < 0 || task < 0) {
			fi_err("cannot keep CPUs %d and %d busy", other_cpu, test_cpu);
			stop_tasks();
			return KSFT_FAIL;
		}
		ret = dvfs_settled_scale(test_cpu, ask[leg], w, w, 9, &scale);
		stop_tasks();
		if (ret) {
			fi_err("reference %s (%u MHz), two CPUs busy at %u MHz: want freq_scale %.1f",
			       want.name, want.mhz, eff[leg], w);
			return KSFT_FAIL;
		}
		fi_info("reference %s (%u MHz), two CPUs busy at %u MHz: freq_scale %llu (want %.1f)\n",
			want.name, want.mhz, eff[leg], (unsigned long long)scale, w);
		for (i = 0; i < nr_ctl; i++) {
			double c = scale_of(eff[leg], &ctl[i]);

			tells[i] |= fabs(c - w) > SCALE_TOL * w;
			met[i] &= fabs(scale - c) <= SCALE_TOL * c;
		}
	}
	/* A control is met where the data meet it at both frequencies */
	return judge_controls("freq_scale", met, tells);
}

/* lost_idle_time's growth at @scale for run @r: its bounds, in ms */
static void lost_bounds(double scale, const struct fi_saturation *r, double *lo, double *hi)
{
	*lo = (1 - scale / 1024) * r->ran_ns / 1e6;
	*hi = (1 - scale / 1024) * r->wall_ns / 1e6;
	*lo -= 0.05 * *lo + 10;
	*hi += 0.05 * *hi + 10;
}

static int test_lost_idle(void)
{
	double scale = scale_of(plat.turbo[L2C], &want), lo, hi, got;
	bool met[LEVELS + 1], tells[LEVELS + 1];
	struct fi_saturation r;
	int ret = KSFT_PASS, runs, i;

	if (two_busy(plat.turbo[L1C])) {
		stop_tasks();
		return KSFT_FAIL;
	}
	/*
	 * A run is of a saturated CPU, the model's precondition, when the
	 * spinner held its CPU 90% of the time (a vCPU the host stalls does
	 * not, nor does one where the runner's processes ran): run it again
	 * otherwise, whatever it lost.
	 */
	for (runs = 0; runs < SATURATE_RUNS; runs++) {
		if (fi_saturate(test_cpu, 1000000 * fmax(1, 512 / scale), &r)) {
			fi_err("cannot saturate CPU %d", test_cpu);
			stop_tasks();
			return KSFT_FAIL;
		}
		if (r.ran_ns >= 0.9 * r.wall_ns)
			break;
		fi_info("the spinner ran %.0f ms of %.0f: not saturated, again\n",
			r.ran_ns / 1e6, r.wall_ns / 1e6);
	}
	stop_tasks();
	if (runs == SATURATE_RUNS) {
		fi_err("CPU %d not saturated in %d runs", test_cpu, SATURATE_RUNS);
		return KSFT_FAIL;
	}
	if (runs)
		fi_info("%d run(s) not saturated, run again\n", runs);
	lost_bounds(scale, &r, &lo, &hi);
	got = r.lost_ns / 1e6;
	fi_info("reference %s: scale %.1f, always running %.0f ms (of %.0f): util_avg %lld (the rq's %llu), lost_idle_time +%.1f ms (model %.1f..%.1f)\n",
		want.name, scale, r.ran_ns / 1e6, r.wall_ns / 1e6, r.util,
		(unsigned long long)r.rq_util, got, lo, hi);
	if (r.util < 0.95 * 1024) {
		fi_err("util_avg %lld, want >= 95%% of 1024", r.util);
		ret = KSFT_FAIL;
	}
	/*
	 * Busy for 0.5 s of clock_pelt at least (the run is 512 / scale s
	 * at scale 512 or below), 15 half-lives: at the kernel's bar for
	 * losing idle time, whose util_avg is FI_RQ_SATURABLE_UTIL at least
	 * (PELT's truncations keep a saturated rq's util_avg a little below
	 * 1024: 1022 is one)
	 */
	if (r.rq_util < FI_RQ_SATURABLE_UTIL) {
		fi_err("the rq's util_avg %llu before the stop, want >= %d (the kernel's bar for losing idle time)",
		       (unsigned long long)r.rq_util, FI_RQ_SATURABLE_UTIL);
		ret = KSFT_FAIL;
	}
	if (got < lo || got > hi) {
		fi_err("lost_idle_time +%.1f ms, want +%.1f..%.1f ms", got, lo, hi);
		ret = KSFT_FAIL;
	}
	for (i = 0; i < nr_ctl; i++) {
		double clo, chi;

		lost_bounds(scale_of(plat.turbo[L2C], &ctl[i]), &r, &clo, &chi);
		tells[i] = clo > hi || chi < lo;
		met[i] = got >= clo && got <= chi;
	}
	if (judge_controls("lost_idle_time", met, tells))
		ret = KSFT_FAIL;
	return ret;
}

/* The model's running time from targets[0] to targets[@j] at @scale, ms */
static double model_interval(unsigned int scale, int j)
{
	struct pelt_cfg cfg = { .scale = scale, .mode = PELT_TIME_SCALING };

	return (pelt_time_to_util(&cfg, targets[j], 4e6) -
		pelt_time_to_util(&cfg, targets[0], 4e6)) / 1000;
}

/*
 * The bar on such an interval: 10% (invariance_test's), and what its two
 * crossings cannot resolve at @scale, each a PELT period of running and
 * a tick
 */
static double interval_tol(unsigned int scale, int j)
{
	return 0.1 * model_interval(scale, j) +
	       2 * (PELT_PERIOD_US * 1024 / scale + PELT_TICK_US) / 1000;
}

/*
 * RAMPS ramps on test_cpu, the other CPU busy, each from util_avg at most
 * START_MAX: the running time from targets[0] to each later target
 * (INFINITY where the ramp did not get there within @limit_ms), sorted.
 * A ramp that did not start, or whose task did not hold its CPU, is run
 * again, up to RAMP_RUNS runs in all. 0 or -1.
 */
static int ramps(double limit_ms, double seen[][RAMPS])
{
	static struct fi_ramp r = { .start_max = START_MAX };
	int n = 0, runs = 0, j;
	const char *why;

	while (n < RAMPS) {
		if (runs++ == RAMP_RUNS) {
			fi_err("%d runs, %d of %d held their CPU", RAMP_RUNS, n, RAMPS);
			return -1;
		}
		if (fi_ramp(test_cpu, limit_ms, &r, &why)) {
			fi_info("ramp %d did not start: %s, again\n", n, why);
			continue;
		}
		if (r.ran_ms[r.n - 1] < 0.9 * r.wall_ms) {
			fi_info("ramp %d: the task ran %.0f ms of %.0f: its CPU was not its own, again\n",
				n, r.ran_ms[r.n - 1], r.wall_ms);
			continue;
		}
		for (j = 1; j < TARGETS; j++) {
			double t0 = fi_ramp_cross(&r, targets[0]);
			double t1 = fi_ramp_cross(&r, targets[j]);

			seen[j][n] = t0 < 0 || t1 < 0 ? INFINITY : t1 - t0;
		}
		n++;
	}
	if (runs > RAMPS)
		fi_info("%d ramp(s) run again: their precondition failed\n", runs - RAMPS);
	for (j = 1; j < TARGETS; j++)
		qsort(seen[j], RAMPS, sizeof(seen[j][0]), fi_cmp_double);
	return 0;
}

static int test_ramp(void)
{
	unsigned int s = lround(scale_of(plat.turbo[L2C], &want));
	struct pelt_cfg cfg = { .scale = s, .mode = PELT_TIME_SCALING };
	double seen[TARGETS][RAMPS], limit;
	bool met[LEVELS + 1], tells[LEVELS + 1];
	int ret = KSFT_PASS, i, j;

	for (i = 0; i < nr_ctl; i++) {
		tells[i] = false;
		met[i] = true;
	}
	/*
	 * The model's time to the last target and 30% more: room for a ramp
	 * behind the model; one at a lower scale does not get there
	 */
	limit = 1.3 * pelt_time_to_util(&cfg, targets[TARGETS - 1], 4e6) / 1000;
	if (two_busy(plat.turbo[L1C]) || ramps(limit, seen)) {
		fi_err("cannot run the ramps");
		stop_tasks();
		return KSFT_FAIL;
	}
	stop_tasks();
	for (j = 1; j < TARGETS; j++) {
		double got = seen[j][RAMPS / 2], w = model_interval(s, j), tol = interval_tol(s, j);

		fi_info("util %.0f to %.0f in %.1f ms of running (%.1f..%.1f; model at scale %u: %.1f +- %.1f)\n",
			targets[0], targets[j], got, seen[j][0], seen[j][RAMPS - 1], s, w, tol);
		if (!(fabs(got - w) <= tol)) {
			fi_err("util %.0f to %.0f in %.1f ms of running, want %.1f +- %.1f",
			       targets[0], targets[j], got, w, tol);
			ret = KSFT_FAIL;
		}
		for (i = 0; i < nr_ctl; i++) {
			unsigned int cs = lround(scale_of(plat.turbo[L2C], &ctl[i]));
			double cw = model_interval(cs, j), ctol = interval_tol(cs, j);

			tells[i] |= fabs(cw - w) > tol;
			met[i] &= fabs(got - cw) <= ctol;
		}
	}
	/* A control is met where the data meet its every interval */
	if (judge_controls("the ramp", met, tells))
		ret = KSFT_FAIL;
	return ret;
}

/* The task's util at @mhz against the model of its observed run: 0 or -1 */
static int fixed_work_at(unsigned int mhz, struct dvfs_seen *seen, double *model)
{
	struct pelt_cfg cfg = { .scale = lround(scale_of(mhz, &want)),
				.mode = PELT_TIME_SCALING };

	if (dvfs_set_req(test_cpu, mhz) ||
	    dvfs_observe(test_cpu, task, PERIOD_US, SETTLE_US, WINDOW_US, SAMPLE_US, seen)) {
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
	if (fabs(seen->util - *model) > UTIL_TOL) {
		fi_err("%u MHz: util_avg %.1f, the model's %.1f for %.0f us of %d at scale %u, want +- 3%% of 1024",
		       mhz, seen->util, *model, seen->ran_us, PERIOD_US, cfg.scale);
		return -1;
	}
	return 0;
}

static int test_under_report(void)
{
	unsigned int f_1c = plat.turbo[L1C];
	const int two[] = { other_cpu, test_cpu };	/* this process's home first */
	struct dvfs_seen at_ref, at_1c;
	double m_ref, m_1c, d;
	unsigned long n;
	uint64_t scale;
	int ret = KSFT_PASS;

	/* A busy CPU alone: 1024 at f_ref and at f_1C alike */
	task = fi_spawn_spinner(test_cpu);
	if (task < 0 ||
	    dvfs_settled_scale(test_cpu, want.mhz, 1024, 1024, 9, &scale) ||
	    dvfs_settled_scale(test_cpu, f_1c, 1024, 1024, 9, &scale)) {
		fi_err("a busy CPU alone at %u and %u MHz: want freq_scale 1024 at both",
		       want.mhz, f_1c);
		stop_tasks();
		return KSFT_FAIL;
	}
	stop_tasks();
	task = dvfs_start_fixed_work(two, 2, test_cpu, PERIOD_US, PERIOD_US * WORK_PCT / 100.0,
				     &n);
	if (task < 0) {
		fi_err("cannot calibrate or start the fixed-work task");
		return KSFT_FAIL;
	}
	fi_info("task %d: %lu iterations, %d%% of %d us at %u MHz\n", task, n, WORK_PCT,
		PERIOD_US, f_1c);
	if (fixed_work_at(want.mhz, &at_ref, &m_ref) || fixed_work_at(f_1c, &at_1c, &m_1c)) {
		stop_tasks();
		return KSFT_FAIL;
	}
	stop_tasks();
	d = at_ref.util - at_1c.util;
	fi_info("reference %s: util_avg %.1f at %u MHz, %.1f at %u: under-reported by %.1f%% (the model's %.1f%%)\n",
		want.name, at_ref.util, want.mhz, at_1c.util, f_1c,
		100 * (1 - at_1c.util / at_ref.util), 100 * (1 - m_1c / m_ref));
	fi_info("the running times' ratio %.3f, ideally f_ref / f_1C = %.3f\n",
		at_1c.ran_us / at_ref.ran_us, (double)want.mhz / f_1c);
	/*
	 * Each util_avg is held to its model above. The control, invariance
	 * above f_ref, has them equal: within the two bars of each other.
	 */
	if (m_ref - m_1c <= 2 * UTIL_TOL) {
		fi_err("the models for the running times seen differ by %.1f, within %.1f: the task did not run faster at %u MHz, and invariance cannot be told",
		       m_ref - m_1c, 2 * UTIL_TOL, f_1c);
		ret = KSFT_FAIL;
	} else if (d <= 2 * UTIL_TOL) {
		fi_err("util_avg %.1f lower at %u MHz than at %u, within %.1f: as invariance would have it",
		       d, f_1c, want.mhz, 2 * UTIL_TOL);
		ret = KSFT_FAIL;
	} else {
		fi_info("invariance above f_ref (the control): the same util_avg at both, within %.1f: missed by %.1f\n",
			2 * UTIL_TOL, d);
	}
	return ret;
}

static struct fi_test tests[] = {
	{ "two_busy_cpus_scale_is_f2c_over_the_reference", test_scale },
	{ "two_busy_cpus_lose_what_clock_pelt_lagged", test_lost_idle },
	{ "reference_under_reports_above_it", test_under_report },
	{ "two_busy_cpus_ramp_on_the_time_scaled_model", test_ramp },
};

/* @mhz as a reference, named by the first limit of the part it is */
static struct ref ref_at(unsigned int mhz)
{
	static const char * const names[LEVELS] = {
		"the 1-core turbo", "the 2-core turbo", "the 4-core turbo", "the all-core turbo",
	};
	struct ref r = { "a turbo limit", mhz, ratio_of(mhz), "" };
	int l;

	for (l = 0; l < LEVELS; l++)
		if (plat.turbo[l] == mhz) {
			r.name = names[l];
			break;
		}
	snprintf(r.label, sizeof(r.label), "f_ref = %s", r.name);
	return r;
}

int main(void)
{
	static const int levels[] = { L1C, L4C, LAC };
	struct fi_test plan[ARRAY_SIZE(tests)];
	struct fi_part part;
	unsigned int ref;
	size_t n = 0, i;
	const char *why;
	int j;

	setvbuf(stdout, NULL, _IOLBF, 0);
	dvfs_begin();
	if (dvfs_fi_platform(&part))
		ksft_exit_fail_msg("fi_platform= names no part\n");
	named = part.named;
	ref = dvfs_turbo_reference(&dvfs_msrs);
	if (!dvfs_max_freq_ratio(&dvfs_msrs))
		ksft_exit_skip("the turbo ratios read 0: no reference, invariance refused\n");
	if (dvfs_msrs.misc_enable & MISC_ENABLE_TURBO_DISABLE)
		ksft_exit_skip("turbo disabled: the reference is the base, nothing to choose\n");
	want = ref_at(ref * 100);
	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		unsigned int mhz = plat.turbo[levels[i]];

		for (j = 0; j < nr_ctl && ctl[j].mhz != mhz; j++)
			;
		if (mhz != want.mhz && j == nr_ctl)
			ctl[nr_ctl++] = ref_at(mhz);
	}
	ctl[nr_ctl++] = (struct ref){ "no invariance", 0, 0, "no invariance (scale 1024)" };
	nr_cpus = dvfs_setup_cpus(cpus, ARRAY_SIZE(cpus), false, &why);
	if (nr_cpus < 0)
		ksft_exit_fail_msg("%s\n", why);
	if (nr_cpus != 2)
		ksft_exit_skip("needs exactly two CPUs (%d online)\n", nr_cpus);
	test_cpu = cpus[1];
	other_cpu = cpus[0];
	if (fi_pin_self(other_cpu))
		ksft_exit_fail_msg("cannot pin to CPU %d\n", other_cpu);
	fi_info("model %u, from its MSRs: %u MHz base, turbo %u/%u/%u/%u MHz with 1/2/4/all cores; reference %s (%u MHz, max_freq_ratio %llu); CPUs %d and %d busy\n",
		dvfs_msrs.model, plat.base, plat.turbo[L1C], plat.turbo[L2C], plat.turbo[L4C],
		plat.turbo[LAC], want.name, want.mhz, want.ratio, other_cpu, test_cpu);
	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		if (tests[i].fn == test_under_report && want.mhz >= plat.turbo[L1C]) {
			fi_info("%s: not run, the reference is the 1-core turbo: no turbo above it\n",
				tests[i].name);
			continue;
		}
		plan[n++] = tests[i];
	}
	atexit(stop_tasks);
	fi_run_tests(plan, n);
}
