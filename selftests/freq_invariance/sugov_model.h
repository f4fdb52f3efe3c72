/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A model of schedutil (6.1's, or 6.8 and later's where the two differ:
 * cur_margin) driving one CPU that runs one periodic task
 * of fixed work, on the PELT model (pelt_model.h): what the loop does
 * over time, where the static formula only gives its fixed point.
 *
 * The task is released every period_us with `work` (MHz x us: the cycles
 * it needs, in millions) added to what it still has to do; it runs while
 * it has work, at the CPU's effective frequency, min(request, cap). Its
 * CPU's util for schedutil is max(util_avg, the runqueue's util_est),
 * util_est being the task's max(ewma, enqueued) while it is enqueued and
 * 0 while it sleeps (util_est_update() at each sleep, with
 * UTIL_EST_FASTUP, after the dequeue's update). Since 6.8 the task's
 * util_est is one value, the same quantity, and util is also maxed with
 * runnable_avg (cpu_util_cfs_boost()), the same as util_avg for a task
 * alone on its CPU; 6.12 samples util_est before the dequeue's update,
 * up to a tick's worth of PELT lower than the model's (about 1% of 1024).
 *
 * Schedutil hears of the CPU (cpufreq_update_util()) where PELT updates
 * the runqueue and finds that it decayed, i.e. crossed a PELT period since
 * the last update (update_load_avg()): when the task wakes (its util_est
 * in), at every tick while it runs (HZ=1000, ticks tick_phase_us into each
 * millisecond of the task's period), when it sleeps (its util_est out),
 * and, with kick_us, while it sleeps at the first tick of the other, busy
 * CPU at least kick_us after the last such update: the stats kick of nohz
 * idle balancing, which has the idle CPU update its blocked load
 * (nohz.next_blocked, LOAD_AVG_PERIOD jiffies). An update within rate_us
 * of the last change does nothing (sugov_should_update_freq()); one with
 * no idle entry on the CPU since the last that passed the rate limit never
 * lowers the request (sugov_cpu_is_busy(), 6.12: sugov_hold_freq(); the
 * kernel counts an idle entry only where the tick was stopped in it, once
 * a tick came there: the model counts every sleep, so it holds less than
 * the CPU where the idle gaps are shorter than a tick); next
 * = 1.25 x f x util / 1024 in kHz, integer, as get_next_freq() computes
 * it, with f = the table's top when invariant and the current request when
 * not, resolved to the lowest step at or above it and clamped to the
 * table. With cur_margin, as since 6.8 (sugov_effective_cpu_perf(),
 * get_capacity_ref_freq()): 1.25 x util is capped at 1024, and the current
 * request f is taken as 1.25 x f, so that without invariance next = 1.25 x
 * f x min(1.25 x util, 1024) / 1024 (with invariance the cap changes
 * nothing the table's top does not).
 *
 * With invariance (f_ref > 0) PELT time is scaled while the task runs by
 * freq_scale = min(f_eff / f_ref, 1), computed at each tick from the C0
 * cycles since the last one, as scale_freq_tick() does from APERF and
 * MPERF, and applied from then on (the kernel applies it to the interval
 * it was measured over: the model lags a tick where the frequency
 * changes). util_avg is the PELT model's, continuous (the kernel's moves
 * at period crossings: under 1% of 1024 apart).
 */
#ifndef SUGOV_MODEL_H
#define SUGOV_MODEL_H

#include <stdbool.h>

#define SUGOV_MAX_STEPS	64

struct sugov_cfg {
	unsigned int min, top, step;	/* the cpufreq table, MHz */
	unsigned int cap;		/* the turbo limit while the task runs */
	double f_ref;			/* the invariance reference; 0: not invariant */
	bool cur_margin;		/* 6.8+: the non-invariant cur + cur / 4 */
	double rate_us;			/* the driver's transition_delay_us */
	double period_us;
	double work;			/* per period, MHz x us */
	unsigned int start_mhz;		/* the request at the start */
	double tick_phase_us;		/* 0 to 990, in steps of 10 */
	double kick_us;			/* stats kicks while idle; 0: none */
	double jitter;			/* each period's work x (1 +- jitter), uniform */
	unsigned int seed;
	/* If set, called every trace_us of the window: time from its start */
	void (*trace)(void *arg, double t_us, unsigned int req_mhz, unsigned int eff_mhz,
		      double util_avg, double util_est);
	void *trace_arg;
	double trace_us;
};

struct sugov_result {
	double share[SUGOV_MAX_STEPS];	/* of the window at each step */
	double mean_req;		/* MHz, time-weighted */
	double eff_mhz;			/* mean effective frequency while running */
	double ran_us;			/* running time per period */
	double trans_s;			/* request changes per second */
	double util;			/* mean util_avg */
	double est;			/* mean util_est while enqueued */
};

/*
 * The model's run for @settle_us, then its figures over @window_us: 0, or
 * -1 for a table of more than SUGOV_MAX_STEPS steps or a start outside it.
 */
int sugov_simulate(const struct sugov_cfg *cfg, double settle_us, double window_us,
		   struct sugov_result *r);

/*
 * The request schedutil makes for @util with @f_mhz as its reference
 * (get_next_freq(): 1.25 x f x util / 1024; with cur_margin, 6.8's: util's
 * margin capped at 1024, and without invariance (f_ref 0) f + f / 4),
 * resolved as cpufreq_driver_resolve_freq() with RELATION_L does on
 * @cfg's table: the lowest step at or above it, within min..top.
 */
unsigned int sugov_request(const struct sugov_cfg *cfg, unsigned int f_mhz, unsigned long util);

/* The share of the window at requests @lo..@hi MHz */
double sugov_share(const struct sugov_cfg *cfg, const struct sugov_result *r,
		   unsigned int lo, unsigned int hi);

#endif
