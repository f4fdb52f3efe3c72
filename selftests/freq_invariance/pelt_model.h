/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A reference model of PELT's util_avg for one task on one CPU, written
 * from PELT's definition (kernel/sched/pelt.c, pelt.h): periods of 1024
 * time units, a decay y per period with y^32 = 1/2, util_avg = util_sum /
 * divider, and the three ways a CPU's capacity can enter it. The unit is
 * 1024 ns, not a microsecond (___update_load_sum() shifts its delta right
 * by 10), so a period lasts 1.048576 ms: the model's API takes wall time
 * in us and converts.
 */
#ifndef PELT_MODEL_H
#define PELT_MODEL_H

#include <stdbool.h>

#define PELT_UNIT_NS		1024	/* one PELT "us" */
#define PELT_PERIOD_UNITS	1024
#define PELT_PERIOD_US		(PELT_PERIOD_UNITS * PELT_UNIT_NS / 1000.0)
#define PELT_HALFLIFE		32	/* periods: y^32 = 1/2 */
#define PELT_SCALE		1024	/* SCHED_CAPACITY_SCALE */
#define PELT_TICK_US		1000	/* the test kernel runs at HZ=1000 */

enum pelt_invariance {
	/* Since 5.1: clock_pelt runs at the CPU's scale while busy, syncs when idle. */
	PELT_TIME_SCALING,
	/* Before 5.1: each running microsecond contributes scale/1024. */
	PELT_CONTRIB_SCALING,
	/* No frequency invariance: the scale is ignored. */
	PELT_NOT_INVARIANT,
};

struct pelt_cfg {
	unsigned int scale;		/* cpu_scale * freq_scale / 1024, 1..1024 */
	enum pelt_invariance mode;
};

struct pelt_model {
	struct pelt_cfg cfg;
	double clock_task;		/* us of wall time */
	double clock_pelt;		/* us, rq->clock_pelt */
	double lost_idle_time;		/* us, rq->lost_idle_time */
	double util_sum;		/* sum of decayed contributions * 1024 */
	double period_contrib;		/* PELT units into the current period */
	bool running;
};

/*
 * The boot code's max_freq_ratio for a reference of @ref_mhz over the base
 * @base_mhz (x86's arch_turbo_freq_ratio): each as a ratio of 100 MHz, the
 * reference's x 1024 divided by the base's, an integer.
 */
unsigned long pelt_freq_ratio(unsigned int ref_mhz, unsigned int base_mhz);

/*
 * The scheduler's frequency scale for a CPU at @mhz (APERF / MPERF = @mhz
 * / @base_mhz) with @max_freq_ratio, as the tick computes it: (f / base)
 * x 1024 x 1024 / max_freq_ratio, at most 1024; 1024 at any frequency
 * where @max_freq_ratio is 0 (not invariant).
 */
double pelt_freq_scale(double mhz, unsigned int base_mhz, unsigned long max_freq_ratio);

/* LOAD_AVG_MAX as PELT derives it: the largest util_sum / 1024 (47742). */
unsigned int pelt_load_avg_max(void);

void pelt_init(struct pelt_model *m, const struct pelt_cfg *cfg, double util);
/* Advance wall time by @us with the task running or not. */
void pelt_run(struct pelt_model *m, double us, bool running);
double pelt_util(const struct pelt_model *m);
/* rq_clock_pelt: what PELT reads. */
double pelt_clock(const struct pelt_model *m);

/*
 * The geometric series PELT approximates, as the table in commit
 * 23127296889f ("sched/fair: Update scale invariance of PELT") computes
 * it: periods of wall time an always-running task needs from 0 to
 * @target, max * (1 - y^n) = target, or -1 when @target is out of reach.
 * The kernel's sums, divided by LOAD_AVG_MAX - 1024 + period_contrib, run
 * ahead of it by up to 1/y (about one period).
 */
double pelt_series_periods(const struct pelt_cfg *cfg, double target);

/*
 * Wall time, in us, an always-running task needs from util_avg 0 to
 * @target, or -1 when it does not get there within @limit_us.
 */
double pelt_time_to_util(const struct pelt_cfg *cfg, double target, double limit_us);

/*
 * A periodic task: busy for @busy_us then idle, every @period_us of wall
 * time. After @settle_us, report min, mean and max util_avg over one
 * period, sampled every microsecond.
 */
struct pelt_range {
	double min, mean, max;
	/*
	 * The mean of util_avg as /proc/PID/sched shows it when sampled at
	 * random: the value of the last update, made when the task wakes up,
	 * when it sleeps (before the idle rq's clock_pelt catches up with
	 * its clock, whose decay shows at the next wakeup) and at every tick
	 * while it runs (PELT_TICK_US). Not modelled: the kernel recomputes
	 * util_avg only at an update that crosses a PELT period, so that
	 * below scale 1024, where a tick is less than a period of
	 * clock_pelt, the value shown can be a period's rise behind.
	 */
	double seen;
};

struct pelt_range pelt_periodic(const struct pelt_cfg *cfg, double period_us,
				double busy_us, double settle_us);

/*
 * A task running in the @n intervals [@on[i], @off[i]) (us, ascending,
 * none before @start_us), alone on its CPU, from @start_us with util_avg
 * @util0: the mean of util_avg as /proc/PID/sched shows it (as seen in
 * struct pelt_range, a tick every PELT_TICK_US of the same clock) at the
 * @n_at times @at (ascending, after @start_us).
 */
double pelt_replay_seen(const struct pelt_cfg *cfg, double util0, double start_us,
			const double *on, const double *off, int n,
			const double *at, int n_at);

#endif
