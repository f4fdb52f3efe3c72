// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the PELT reference model (selftests/freq_invariance/
 * pelt_model.c): its constants, the ramp times of the table in commit
 * 23127296889f ("sched/fair: Update scale invariance of PELT"), and the
 * invariance properties the guest tests rely on; and of the schedutil model
 * on it (sugov_model.c) against what the static formula says.
 */
#include <math.h>
#include <stdio.h>

#include "pelt_model.h"
#include "sugov_model.h"

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

/*
 * What /proc/PID/sched shows: the value of the last update. At sleep the
 * task's util_avg is updated before the idle rq's clock_pelt catches up
 * (dequeue, then set_next_task_idle()'s update_idle_rq_clock_pelt()), so
 * the sync's decay shows only at the next wakeup. The reference steps
 * the model itself over one settled period of a 6 ms run every 16 ms,
 * into *@ref reading util_avg before the first idle step (pelt_run()
 * syncs then), into *@wrong after it: the wrong hypothesis.
 */
static void seen_readings(const struct pelt_cfg *cfg, double *ref, double *wrong)
{
	double period = 16000, busy = 6000, settle = 640000, t, u, shown = 0, early = 0;
	struct pelt_model m;
	bool run, was = false;
	long n = 0;

	*ref = *wrong = 0;
	pelt_init(&m, cfg, 0);
	for (t = 0; t < settle + period; t += 1) {
		run = fmod(t, period) < busy;
		if (was && !run)
			shown = pelt_util(&m);
		pelt_run(&m, 1, run);
		u = pelt_util(&m);
		if (was && !run)
			early = u;
		else if (run && (!was || fmod(t, PELT_TICK_US) < 1))
			shown = early = u;
		was = run;
		if (t < settle)
			continue;
		*ref += shown;
		*wrong += early;
		n++;
	}
	*ref /= n;
	*wrong /= n;
}

/* At half scale the two readings differ; at full scale nothing syncs */
static void test_seen(void)
{
	double ref, wrong, seen = pelt_periodic(&half, 16000, 6000, 640000).seen;

	seen_readings(&half, &ref, &wrong);
	check(fabs(seen - ref) < 0.01 && ref - wrong > 1,
	      "half scale: seen %.2f, util_avg as dequeued during the sleep (%.2f), not after clock_pelt's sync (%.2f)",
	      seen, ref, wrong);
	seen = pelt_periodic(&full, 16000, 6000, 640000).seen;
	seen_readings(&full, &ref, &wrong);
	check(fabs(seen - ref) < 0.01 && fabs(ref - wrong) < 0.01,
	      "full scale: seen %.2f, the same read before the sync (%.2f) or after it (%.2f)",
	      seen, ref, wrong);
}

/*
 * The replay of traced runs (pelt_replay_seen()) of a periodic task, read
 * every microsecond of a period, is the periodic model; read in a sleep,
 * it shows the value at the dequeue before it
 */
static void test_replay(void)
{
	static double on[64], off[64], at[16000];
	double period = 16000, busy = 6000, settle = 640000, seen, got, dequeued;
	struct pelt_model m;
	int n, k;

	for (n = 0; n * period < settle + period; n++) {
		on[n] = n * period;
		off[n] = on[n] + busy;
	}
	for (k = 0; k < 16000; k++)
		at[k] = settle + k + 0.5;
	seen = pelt_periodic(&half, period, busy, settle).seen;
	got = pelt_replay_seen(&half, 0, 0, on, off, n, at, k);
	check(fabs(got - seen) < 0.1,
	      "a periodic run replayed, read every us: %.2f, the periodic model's %.2f", got, seen);

	pelt_init(&m, &half, 0);
	pelt_run(&m, busy, true);
	dequeued = pelt_util(&m);
	at[0] = busy + 1000;
	got = pelt_replay_seen(&half, 0, 0, on, off, 1, at, 1);
	check(fabs(got - dequeued) < 0.01,
	      "one run replayed, read 1 ms into the sleep: %.2f, %.2f at its dequeue", got,
	      dequeued);
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

/*
 * The steep platform of make test's Goldmont boot (1200..4000 MHz, two
 * busy CPUs capped at 3000), a 16 ms task, a 1 ms rate limit.
 */
static struct sugov_cfg steep(double w_over_c, double f_ref)
{
	struct sugov_cfg c = {
		.min = 1200, .top = 4000, .step = 100, .cap = 3000, .f_ref = f_ref,
		.rate_us = 1000, .period_us = 16000, .start_mhz = 4000, .seed = 1,
	};

	c.work = w_over_c * c.cap * c.period_us;
	return c;
}

static void test_sugov(void)
{
	struct sugov_cfg c;
	struct sugov_result r;
	double want;

	/* Invariant: util does not depend on the request, the loop rests. */
	c = steep(0.5, 4000);
	sugov_simulate(&c, 600000, 1600000, &r);
	want = ceil(1.25 * 4000 * r.est / 1024 / 100) * 100;
	check(sugov_share(&c, &r, want - 100, want + 100) >= 0.9 && r.trans_s < 5,
	      "invariant, w 0.5 c: rests at 1.25 x f_1C x util_est / 1024 = %.0f MHz: %.0f%% there, %.1f transitions/s",
	      want, 100 * sugov_share(&c, &r, want - 100, want + 100), r.trans_s);
	check(fabs(r.eff_mhz * r.ran_us / c.period_us - 1500) < 1,
	      "the work is done: f_eff x running time = w, %.1f MHz",
	      r.eff_mhz * r.ran_us / c.period_us);

	/* Not invariant, w > 0.8 c: the runaway to the top, the CPU at c. */
	c = steep(0.95, 0);
	sugov_simulate(&c, 600000, 1600000, &r);
	check(sugov_share(&c, &r, 4000, 4000) >= 0.99 && fabs(r.eff_mhz - 3000) < 1,
	      "not invariant, w 0.95 c: %.0f%% at the top, effective %.0f MHz (c)",
	      100 * sugov_share(&c, &r, 4000, 4000), r.eff_mhz);

	/* Not invariant, 1.25 x w below the minimum: at the minimum. */
	c = steep(0.3, 0);
	sugov_simulate(&c, 600000, 1600000, &r);
	check(sugov_share(&c, &r, 1200, 1200) >= 0.99,
	      "not invariant, 1.25 x w %.0f below the minimum: %.0f%% at 1200 MHz",
	      1.25 * 0.3 * 3000, 100 * sugov_share(&c, &r, 1200, 1200));

	/*
	 * Not invariant, w 0.5 c: the static formula's fixed point 1.25 x w
	 * (1875 MHz) is below c, but the loop does not rest there: it
	 * swings above c, as fast as the rate limit lets it at times.
	 */
	c = steep(0.5, 0);
	sugov_simulate(&c, 600000, 1600000, &r);
	check(sugov_share(&c, &r, 3100, 4000) >= 0.2 && r.trans_s >= 20 &&
	      sugov_share(&c, &r, 1800, 2000) < 0.5,
	      "not invariant, w 0.5 c: %.0f%% above c, %.0f%% at 1800..2000 MHz, %.1f transitions/s",
	      100 * sugov_share(&c, &r, 3100, 4000), 100 * sugov_share(&c, &r, 1800, 2000),
	      r.trans_s);

	/*
	 * The busy CPU's stats kicks, every 33 ms while the task's CPU
	 * idles: invariant, each lowers the request in a gap and the next
	 * wakeup raises it again; not invariant, the loop still swings.
	 */
	c = steep(0.5, 4000);
	c.kick_us = 33000;
	sugov_simulate(&c, 600000, 1600000, &r);
	want = ceil(1.25 * 4000 * r.est / 1024 / 100) * 100;
	check(sugov_share(&c, &r, want - 100, want + 100) >= 0.9 &&
	      r.trans_s > 1e6 / c.kick_us && r.trans_s <= 2 * 1e6 / c.kick_us + 1,
	      "invariant, kicks every 33 ms: %.0f%% within a step of %.0f MHz, %.1f transitions/s (2 per kick at most)",
	      100 * sugov_share(&c, &r, want - 100, want + 100), want, r.trans_s);
	c = steep(0.5, 0);
	c.kick_us = 33000;
	sugov_simulate(&c, 600000, 1600000, &r);
	check(sugov_share(&c, &r, 3100, 4000) >= 0.2,
	      "not invariant, kicks every 33 ms: %.0f%% above c",
	      100 * sugov_share(&c, &r, 3100, 4000));
	for (int ph = 0; ph < 1000; ph += 250) {
		c.tick_phase_us = ph;
		sugov_simulate(&c, 600000, 1600000, &r);
		check(sugov_share(&c, &r, 3100, 4000) >= 0.2,
		      "not invariant, kicks, tick %d us into each ms of the period: %.0f%% above c",
		      ph, 100 * sugov_share(&c, &r, 3100, 4000));
	}

	c = steep(0.5, 0);
	c.top = c.min + 64 * c.step;
	check(sugov_simulate(&c, 1000, 1000, &r) == -1,
	      "a table of 65 steps is refused (the model holds %d)", SUGOV_MAX_STEPS);
	c = steep(0.5, 0);
	c.start_mhz = c.min - c.step;
	check(sugov_simulate(&c, 1000, 1000, &r) == -1, "a start below the table is refused");

	/* The same with no cap: the swing is the loop's, not the cap's. */
	c = steep(0.5, 0);
	c.cap = c.top;
	c.work = 0.5 * 3000 * c.period_us;
	sugov_simulate(&c, 600000, 1600000, &r);
	check(r.trans_s >= 20 && sugov_share(&c, &r, 1800, 2000) < 0.5,
	      "not invariant, no cap, w 1500 MHz: %.0f%% at 1800..2000 MHz, %.1f transitions/s",
	      100 * sugov_share(&c, &r, 1800, 2000), r.trans_s);
}

/*
 * The shared expectations, against entries computed by hand: the boot
 * code's max_freq_ratio (each limit a 100 MHz ratio, x 1024 over the
 * base's, an integer), the tick's scale from APERF/MPERF, and schedutil's
 * request resolved to the table.
 */
static void test_expectations(void)
{
	const struct sugov_cfg inv = { .min = 1200, .top = 4000, .step = 100, .f_ref = 4000 };
	const struct sugov_cfg cur68 = { .min = 1200, .top = 4000, .step = 100,
					 .cur_margin = true };

	/* 28 x 1024 / 23 = 1246.6; 40 x 1024 / 23 = 1780.9; 31 x 1024 / 23 = 1380.2 */
	check(pelt_freq_ratio(2800, 2300) == 1246, "max_freq_ratio 2800 over 2300 MHz: %lu",
	      pelt_freq_ratio(2800, 2300));
	check(pelt_freq_ratio(4000, 2300) == 1780, "max_freq_ratio 4000 over 2300 MHz: %lu",
	      pelt_freq_ratio(4000, 2300));
	check(pelt_freq_ratio(3100, 2300) == 1380, "max_freq_ratio 3100 over 2300 MHz: %lu",
	      pelt_freq_ratio(3100, 2300));
	/* 1024 x 1024 / 1246 = 841.55; 30 / 23 x 1048576 / 1780 = 768.37 */
	check(fabs(pelt_freq_scale(2300, 2300, 1246) - 841.55) < 0.01,
	      "scale at the base, 4-core reference 2800: %.2f", pelt_freq_scale(2300, 2300, 1246));
	check(fabs(pelt_freq_scale(3000, 2300, 1780) - 768.37) < 0.01,
	      "scale at 3000 MHz, 1-core reference 4000: %.2f", pelt_freq_scale(3000, 2300, 1780));
	/* 40 / 23 x 1048576 / 1780 = 1024.5: clipped */
	check(pelt_freq_scale(4000, 2300, 1780) == 1024, "scale at the reference clips at 1024");
	check(pelt_freq_scale(1200, 2300, 0) == 1024, "not invariant: 1024 at any frequency");
	/* 738 + 184 = 922; 4000000 x 922 / 1024 = 3601562 kHz: the next step, 3700 */
	check(sugov_request(&inv, 4000, 738) == 3700, "schedutil, util 738 of f_1C 4000: %u",
	      sugov_request(&inv, 4000, 738));
	/* 512 + 128 = 640; 4000000 x 640 / 1024 = 2500000 kHz: on a step, 2500 */
	check(sugov_request(&inv, 4000, 512) == 2500, "schedutil, util 512 of 4000: %u",
	      sugov_request(&inv, 4000, 512));
	check(sugov_request(&inv, 4000, 0) == 1200, "schedutil, util 0: the minimum");
	check(sugov_request(&inv, 4000, 1024) == 4000, "schedutil, util 1024: the top");
	/* 6.8 without invariance: f 2000 -> 2500 MHz; 2500000 x 640 / 1024 = 1562500 -> 1600 */
	check(sugov_request(&cur68, 2000, 512) == 1600, "6.8's formula, util 512 at 2000 MHz: %u",
	      sugov_request(&cur68, 2000, 512));
}

int main(void)
{
	test_constants();
	test_seed_table();
	test_invariance();
	test_saturation();
	test_seen();
	test_replay();
	test_sugov();
	test_expectations();
	printf("pelt_model: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
