// SPDX-License-Identifier: GPL-2.0
/*
 * schedutil on the PELT model: see sugov_model.h. Time advances in steps
 * of STEP_US; the task's wakeups and ticks fall on step boundaries, its
 * sleep within a step where its work runs out.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pelt_model.h"
#include "sugov_model.h"

#define STEP_US		10.0
#define UTIL_EST_MARGIN	(PELT_SCALE / 100)
#define BACKLOG_DONE	0.000000001	/* MHz x us: rounding, not work */

struct sugov_state {
	const struct sugov_cfg *cfg;
	struct pelt_model pelt;
	unsigned int cur;		/* the request: policy->cur */
	double last_change;		/* last_freq_update_time, us */
	unsigned long idle_calls, saved_idle_calls;
	unsigned long trans;
	long ewma, enqueued;		/* the task's util_est */
	bool running;
	double backlog;			/* work left, MHz x us */
	double acyc, c0;		/* since the last tick: cycles, C0 time */
	long pelt_period;		/* the PELT period of the last update */
	double next_kick;		/* the next stats kick, us */
};

static long util_avg(const struct sugov_state *s)
{
	return (long)pelt_util(&s->pelt);
}

/* _task_util_est(): what the task adds to its runqueue's util_est */
static long task_est(const struct sugov_state *s)
{
	return s->ewma > s->enqueued ? s->ewma : s->enqueued;
}

/*
 * get_next_freq() (with cur_margin, sugov_effective_cpu_perf()'s cap and
 * get_capacity_ref_freq()) and cpufreq_driver_resolve_freq() with RELATION_L
 */
unsigned int sugov_request(const struct sugov_cfg *c, unsigned int f_mhz, unsigned long util)
{
	unsigned long f = f_mhz * 1000UL, step = c->step * 1000UL;
	unsigned long perf = util + (util >> 2);
	unsigned long khz, r;

	if (c->cur_margin) {
		if (perf > PELT_SCALE)
			perf = PELT_SCALE;
		if (c->f_ref <= 0)
			f += f >> 2;
	}
	khz = f * perf / PELT_SCALE;
	r = (khz + step - 1) / step * step / 1000;
	if (r < c->min)
		return c->min;
	return r > c->top ? c->top : r;
}

/* The request at an update: the reference is f_1C (the top) when invariant */
static unsigned int next_freq(const struct sugov_state *s, unsigned long util)
{
	return sugov_request(s->cfg, s->cfg->f_ref > 0 ? s->cfg->top : s->cur, util);
}

/*
 * update_load_avg() on the runqueue, then, if it decayed (crossed a PELT
 * period), sugov_update_single_freq() without iowait boost, fast switch;
 * the runqueue's util_est is the task's while @est_in.
 */
static void update(struct sugov_state *s, double now, bool est_in)
{
	long period = (long)(pelt_clock(&s->pelt) / PELT_PERIOD_US);
	unsigned long util = util_avg(s);
	unsigned int next;
	bool busy;

	if (period == s->pelt_period)
		return;
	s->pelt_period = period;
	if (now - s->last_change < s->cfg->rate_us)
		return;
	if (est_in && (unsigned long)task_est(s) > util)
		util = task_est(s);
	if (util > PELT_SCALE)
		util = PELT_SCALE;
	busy = s->idle_calls == s->saved_idle_calls;
	s->saved_idle_calls = s->idle_calls;
	next = next_freq(s, util);
	if (busy && next < s->cur)
		next = s->cur;
	if (next == s->cur)
		return;
	s->cur = next;
	s->last_change = now;
	s->trans++;
}

/* util_est_update() at dequeue for sleep, with UTIL_EST_FASTUP */
static void util_est_sleep(struct sugov_state *s)
{
	long last_enq = s->enqueued, diff;

	s->enqueued = util_avg(s);
	if (s->ewma < s->enqueued) {
		s->ewma = s->enqueued;
		return;
	}
	diff = s->enqueued - s->ewma;
	if (labs(diff) < UTIL_EST_MARGIN) {
		/* ewma kept; enqueued too, if it moved less than the margin */
		if (labs(last_enq - s->enqueued) < UTIL_EST_MARGIN)
			s->enqueued = last_enq;
		return;
	}
	s->ewma = (s->ewma * 4 + diff) / 4;
}

static unsigned int eff(const struct sugov_state *s)
{
	return s->cur < s->cfg->cap ? s->cur : s->cfg->cap;
}

/* @period_us's work, with the configured jitter */
static double period_work(const struct sugov_cfg *c)
{
	double u = rand() / (double)RAND_MAX * 2 - 1;

	return c->work * (1 + c->jitter * u);
}

int sugov_simulate(const struct sugov_cfg *cfg, double settle_us, double window_us,
		   struct sugov_result *r)
{
	struct pelt_cfg pc = { .scale = PELT_SCALE };
	struct sugov_state s = {
		.cfg = cfg, .cur = cfg->start_mhz, .last_change = -1e9, .pelt_period = -1,
		.next_kick = cfg->kick_us,
	};
	double t, end = settle_us + window_us, ran = 0, cyc = 0, usum = 0, esum = 0;
	long nu = 0, ne = 0;
	unsigned long trans0 = 0;

	memset(r, 0, sizeof(*r));
	if (!cfg->step || cfg->min > cfg->top ||
	    (cfg->top - cfg->min) / cfg->step >= SUGOV_MAX_STEPS ||
	    cfg->start_mhz < cfg->min || cfg->start_mhz > cfg->top || cfg->period_us < 1000)
		return -1;
	srand(cfg->seed);
	pc.mode = cfg->f_ref > 0 ? PELT_TIME_SCALING : PELT_NOT_INVARIANT;
	pelt_init(&s.pelt, &pc, 0);
	for (t = 0; t < end; t += STEP_US) {
		long tu = (long)(t + 0.5);
		bool in_window = t >= settle_us;
		double run_us = 0;

		if (t >= settle_us && t < settle_us + STEP_US / 2)
			trans0 = s.trans;
		if (tu % (long)cfg->period_us == 0) {
			s.backlog += period_work(cfg);
			if (!s.running && s.backlog > 0) {
				s.running = true;	/* wakeup: enqueue, util_est in */
				update(&s, t, true);
			}
		}
		/* The busy CPU's tick kicks this idle one to update its blocked load */
		if (cfg->kick_us && !s.running && tu % PELT_TICK_US == 0 && t >= s.next_kick) {
			update(&s, t, false);
			s.idle_calls++;		/* back to idle after the softirq */
			s.next_kick = t + cfg->kick_us;
		}
		if (s.running && (tu - (long)cfg->tick_phase_us) % PELT_TICK_US == 0) {
			if (cfg->f_ref > 0 && s.c0 > 0) {
				double sc = s.acyc / s.c0 / cfg->f_ref * PELT_SCALE;

				s.pelt.cfg.scale = sc > PELT_SCALE ? PELT_SCALE : (unsigned int)sc;
				s.acyc = 0;
				s.c0 = 0;
			}
			update(&s, t, true);
		}
		if (in_window && cfg->trace &&
		    fmod(t - settle_us + STEP_US / 2, cfg->trace_us) < STEP_US)
			cfg->trace(cfg->trace_arg, t - settle_us, s.cur, s.running ? eff(&s) : 0,
				   pelt_util(&s.pelt), s.running ? task_est(&s) : 0);
		if (in_window) {
			r->share[(s.cur - cfg->min) / cfg->step] += STEP_US;
			usum += pelt_util(&s.pelt);
			nu++;
			if (s.running) {
				esum += task_est(&s) > util_avg(&s) ? task_est(&s) : util_avg(&s);
				ne++;
			}
		}
		if (s.running) {
			run_us = s.backlog / eff(&s);
			if (run_us > STEP_US)
				run_us = STEP_US;
			s.backlog -= run_us * eff(&s);
			pelt_run(&s.pelt, run_us, true);
			s.acyc += run_us * eff(&s);
			s.c0 += run_us;
			if (in_window) {
				ran += run_us;
				cyc += run_us * eff(&s);
			}
			if (s.backlog <= BACKLOG_DONE) {
				/* dequeue: util_est out, PELT, then util_est's update */
				s.backlog = 0;
				update(&s, t + run_us, false);
				util_est_sleep(&s);
				s.running = false;
				s.idle_calls++;
			}
		}
		if (run_us < STEP_US)
			pelt_run(&s.pelt, STEP_US - run_us, false);
	}
	for (int i = 0; i < SUGOV_MAX_STEPS; i++) {
		r->share[i] /= window_us;
		r->mean_req += r->share[i] * (cfg->min + i * cfg->step);
	}
	r->eff_mhz = ran ? cyc / ran : 0;
	r->ran_us = ran / window_us * cfg->period_us;
	r->trans_s = (s.trans - trans0) / (window_us / 1e6);
	r->util = nu ? usum / nu : 0;
	r->est = ne ? esum / ne : 0;
	return 0;
}

double sugov_share(const struct sugov_cfg *cfg, const struct sugov_result *r,
		   unsigned int lo, unsigned int hi)
{
	double in = 0;
	unsigned int mhz;

	for (mhz = cfg->min; mhz <= cfg->top; mhz += cfg->step)
		if (mhz >= lo && mhz <= hi)
			in += r->share[(mhz - cfg->min) / cfg->step];
	return in;
}
