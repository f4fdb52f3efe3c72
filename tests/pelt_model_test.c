// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the PELT reference model (selftests/freq_invariance/
 * pelt_model.c): its constants, the ramp times of the table in commit
 * 23127296889f ("sched/fair: Update scale invariance of PELT"), and the
 * invariance properties the guest tests rely on.
 */
#include <math.h>
#include <stdio.h>

#include "pelt_model.h"

static int passed, failed;

#define check(cond, fmt, ...) do {					\
	if (cond) {							\
		passed++;						\
		printf("ok - " fmt "\n", ##__VA_ARGS__);		\
	} else {							\
		failed++;						\
		printf("not ok - %s:%d: " fmt "\n", __FILE__, __LINE__,	\
		       ##__VA_ARGS__);					\
	}								\
} while (0)

static const struct pelt_cfg full = { PELT_SCALE, PELT_TIME_SCALING };
static const struct pelt_cfg half = { PELT_SCALE / 2, PELT_TIME_SCALING };
static const struct pelt_cfg half_contrib = { PELT_SCALE / 2, PELT_CONTRIB_SCALING };

/* The table counts a PELT period (1.048576 ms of wall time) as a millisecond. */
static double periods(double us)
{
	return us / PELT_PERIOD_US;
}

static void test_constants(void)
{
	double half_life_ms;

	check(pelt_load_avg_max() == 47742, "LOAD_AVG_MAX is 47742 (got %u)",
	      pelt_load_avg_max());
	/*
	 * PELT's unit is 1024 ns: from 0, util_avg reaches 512 after one
	 * half-life, 32 periods of 1.048576 ms (33.55 ms, not 32.77). The
	 * divider, LOAD_AVG_MAX - 1024, is a truncated sum 0.1% short of
	 * 1024 * y / (1 - y), so util_avg runs 0.1% ahead of the series and
	 * gets to 512 about 0.05 period early: allow 0.1 period.
	 */
	half_life_ms = pelt_time_to_util(&full, 512, 1e6) / 1000;
	check(half_life_ms > 33.554 - 0.105 && half_life_ms <= 33.554,
	      "util 512 after %.2f ms of wall time (32 periods of 1.048576 ms: 33.55)",
	      half_life_ms);
}

/*
 *  Util (%)     max capacity  half capacity(mainline)  half capacity(w/ patch)
 *  972 (95%)    138ms         not reachable            276ms
 *  486 (47.5%)  30ms          138ms                     60ms
 *  256 (25%)    13ms           32ms                     26ms
 */
static void test_seed_table(void)
{
	static const struct { double util; int full, half_contrib, half; } row[] = {
		{ 256, 13, 32, 26 },
		{ 486, 30, 138, 60 },
		{ 972, 138, -1, 276 },
	};
	double limit = 2e6, s_full, s_half, s_contrib, t_full, t_half, t_contrib;
	int i;

	for (i = 0; i < 3; i++) {
		s_full = pelt_series_periods(&full, row[i].util);
		s_half = pelt_series_periods(&half, row[i].util);
		s_contrib = pelt_series_periods(&half_contrib, row[i].util);

		check(lround(s_full) == row[i].full,
		      "series: util %.0f at max capacity after %.2f periods, table %d",
		      row[i].util, s_full, row[i].full);
		/* Time scaling doubles the time; the table doubles its rounded value. */
		check(fabs(s_half - 2 * s_full) < 1e-9 && 2 * lround(s_full) == row[i].half,
		      "series: util %.0f at half capacity, time scaling, after %.2f periods = 2 x %.2f, table %d",
		      row[i].util, s_half, s_full, row[i].half);
		if (row[i].half_contrib < 0)
			check(s_contrib < 0,
			      "series: util %.0f out of reach at half capacity, contribution scaling",
			      row[i].util);
		else
			check(lround(s_contrib) == row[i].half_contrib,
			      "series: util %.0f at half capacity, contribution scaling, after %.2f periods, table %d",
			      row[i].util, s_contrib, row[i].half_contrib);

		/* The simulation of the kernel's sums: ahead by at most one period. */
		t_full = periods(pelt_time_to_util(&full, row[i].util, limit));
		t_half = periods(pelt_time_to_util(&half, row[i].util, limit));
		t_contrib = pelt_time_to_util(&half_contrib, row[i].util, limit);
		check(t_full <= s_full && t_full > s_full - 1,
		      "model: util %.0f at max capacity after %.2f periods (series %.2f)",
		      row[i].util, t_full, s_full);
		check(t_half <= s_half && t_half > s_half - 2,
		      "model: util %.0f at half capacity, time scaling, after %.2f periods (series %.2f)",
		      row[i].util, t_half, s_half);
		if (row[i].half_contrib < 0)
			check(t_contrib < 0,
			      "model: util %.0f out of reach at half capacity, contribution scaling (reached: %s)",
			      row[i].util, t_contrib < 0 ? "no" : "yes");
		else
			check(periods(t_contrib) <= s_contrib && periods(t_contrib) > s_contrib - 1,
			      "model: util %.0f at half capacity, contribution scaling, after %.2f periods (series %.2f)",
			      row[i].util, periods(t_contrib), s_contrib);
	}
}

/*
 * The same work per period at a lower scale runs longer (busy * 1024 /
 * scale): time scaling gives the same util_avg, a non-invariant PELT
 * gives util_avg * 1024 / scale.
 */
static void test_invariance(void)
{
	static const unsigned int scales[] = { 1024, 768, 512, 256 };
	double period = 16 * 1024, busy = 0.2 * period, settle = 1e6;
	struct pelt_range ref, r, ni;
	int i;

	ref = pelt_periodic(&full, period, busy, settle);
	check(fabs(ref.mean - 0.2 * PELT_SCALE) < 0.01 * PELT_SCALE,
	      "20%% duty cycle settles at mean util %.1f (expected %.1f)",
	      ref.mean, 0.2 * PELT_SCALE);
	for (i = 1; i < 4; i++) {
		struct pelt_cfg ts = { scales[i], PELT_TIME_SCALING };
		struct pelt_cfg no = { scales[i], PELT_NOT_INVARIANT };
		double stretched = busy * PELT_SCALE / scales[i];

		r = pelt_periodic(&ts, period, stretched, settle);
		ni = pelt_periodic(&no, period, stretched, settle);
		check(fabs(r.mean - ref.mean) < 0.01 * PELT_SCALE,
		      "scale %u: invariant mean util %.1f, at 1024 %.1f",
		      scales[i], r.mean, ref.mean);
		check(fabs(ni.mean - ref.mean * PELT_SCALE / scales[i]) < 0.01 * PELT_SCALE,
		      "scale %u: non-invariant mean util %.1f = %.1f x 1024/%u",
		      scales[i], ni.mean, ref.mean, scales[i]);
	}
}

/* An always-running task at half capacity still saturates, and loses idle time. */
static void test_saturation(void)
{
	struct pelt_model m;
	double lost;

	pelt_init(&m, &half, 0);
	pelt_run(&m, 2e6, true);
	check(pelt_util(&m) >= 0.95 * PELT_SCALE,
	      "always running at half capacity: util %.1f >= 95%%", pelt_util(&m));
	lost = m.lost_idle_time;
	pelt_run(&m, 1000, false);
	check(m.lost_idle_time > lost && fabs(m.lost_idle_time - 1e6) < 1,
	      "lost_idle_time grows by the clock_pelt lag at idle: %.0f us (lag was 1e6 us)",
	      m.lost_idle_time);
	check(pelt_clock(&m) <= m.clock_task, "rq_clock_pelt %.0f <= clock_task %.0f",
	      pelt_clock(&m), m.clock_task);

	pelt_init(&m, &half, 0);
	pelt_run(&m, 5000, true);
	pelt_run(&m, 20000, false);
	check(m.lost_idle_time == 0 && m.clock_pelt == m.clock_task,
	      "not saturated: the idle CPU's clock_pelt syncs back, no idle time lost");
}

int main(void)
{
	test_constants();
	test_seed_table();
	test_invariance();
	test_saturation();
	printf("pelt_model: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
