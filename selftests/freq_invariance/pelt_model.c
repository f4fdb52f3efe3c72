// SPDX-License-Identifier: GPL-2.0
/*
 * PELT reference model: see pelt_model.h. Time advances in steps that
 * never cross a PELT period boundary, so decay is applied exactly at
 * boundaries as accumulate_sum() does; sums are kept in doubles, so the
 * model is free of the kernel's integer truncation (under 0.1%).
 */
#include <math.h>

#include "pelt_model.h"

static double pelt_y(void)
{
	return pow(0.5, 1.0 / PELT_HALFLIFE);
}

unsigned int pelt_load_avg_max(void)
{
	/*
	 * The kernel's constant comes from summing 1024 * y^n with each
	 * partial sum truncated to an integer, until it stops growing.
	 */
	static unsigned int max;
	unsigned int last = 0;
	double y = pelt_y();

	if (max)
		return max;
	max = 1024;
	while (max != last) {
		last = max;
		max = (unsigned int)(max * y) + 1024;
	}
	return max;
}

void pelt_init(struct pelt_model *m, const struct pelt_cfg *cfg, double util)
{
	m->cfg = *cfg;
	m->clock_task = 0;
	m->clock_pelt = 0;
	m->lost_idle_time = 0;
	m->period_contrib = 0;
	/* util_avg = util_sum / divider, with period_contrib == 0 */
	m->util_sum = util * (pelt_load_avg_max() - 1024);
	m->running = false;
}

double pelt_util(const struct pelt_model *m)
{
	return m->util_sum / (pelt_load_avg_max() - 1024 + m->period_contrib);
}

double pelt_clock(const struct pelt_model *m)
{
	return m->clock_pelt - m->lost_idle_time;
}

/* Advance PELT time by @us, adding @contrib per PELT unit while running. */
static void pelt_accumulate(struct pelt_model *m, double us, double contrib)
{
	double dt = us * 1000 / PELT_UNIT_NS;
	static double y;

	if (!y)
		y = pelt_y();
	while (dt > 0) {
		double step = PELT_PERIOD_UNITS - m->period_contrib;

		if (step > dt)
			step = dt;
		m->util_sum += contrib * step;
		m->period_contrib += step;
		dt -= step;
		if (m->period_contrib >= PELT_PERIOD_UNITS) {
			m->util_sum *= y;
			m->period_contrib -= PELT_PERIOD_UNITS;
		}
	}
}

/* update_idle_rq_clock_pelt(): sync back, or lose the idle time. */
static void pelt_go_idle(struct pelt_model *m)
{
	double full = (double)(pelt_load_avg_max() - 1024) * PELT_SCALE - pelt_load_avg_max();
	double behind = m->clock_task - m->clock_pelt;

	if (m->util_sum >= full)
		m->lost_idle_time += behind;
	else
		pelt_accumulate(m, behind, 0);	/* the idle time comes back */
	m->clock_pelt = m->clock_task;
}

void pelt_run(struct pelt_model *m, double us, bool running)
{
	double scale = m->cfg.scale / (double)PELT_SCALE;

	if (m->running && !running && m->cfg.mode == PELT_TIME_SCALING)
		pelt_go_idle(m);
	m->running = running;
	m->clock_task += us;

	if (!running) {
		m->clock_pelt += us;
		pelt_accumulate(m, us, 0);
		return;
	}
	switch (m->cfg.mode) {
	case PELT_TIME_SCALING:
		m->clock_pelt += us * scale;
		pelt_accumulate(m, us * scale, PELT_SCALE);
		break;
	case PELT_CONTRIB_SCALING:
		m->clock_pelt += us;
		pelt_accumulate(m, us, PELT_SCALE * scale);
		break;
	case PELT_NOT_INVARIANT:
		m->clock_pelt += us;
		pelt_accumulate(m, us, PELT_SCALE);
		break;
	}
}

double pelt_series_periods(const struct pelt_cfg *cfg, double target)
{
	double max = PELT_SCALE, stretch = 1;

	switch (cfg->mode) {
	case PELT_TIME_SCALING:
		stretch = (double)PELT_SCALE / cfg->scale;
		break;
	case PELT_CONTRIB_SCALING:
		max = cfg->scale;
		break;
	case PELT_NOT_INVARIANT:
		break;
	}
	if (target >= max)
		return -1;
	/* max * (1 - y^n) = target, y^n = 2^(-n/32) */
	return stretch * PELT_HALFLIFE * log2(max / (max - target));
}

double pelt_time_to_util(const struct pelt_cfg *cfg, double target, double limit_us)
{
	struct pelt_model m;
	double t;

	pelt_init(&m, cfg, 0);
	for (t = 0; t < limit_us; t += 1) {
		if (pelt_util(&m) >= target)
			return t;
		pelt_run(&m, 1, true);
	}
	return -1;
}

struct pelt_range pelt_periodic(const struct pelt_cfg *cfg, double period_us,
				double busy_us, double settle_us)
{
	struct pelt_range r = { .min = PELT_SCALE * 2, .mean = 0, .max = 0, .seen = 0 };
	double t, u, shown = 0;
	struct pelt_model m;
	bool run, was = false;
	long n = 0;

	pelt_init(&m, cfg, 0);
	for (t = 0; t < settle_us + period_us; t += 1) {
		run = fmod(t, period_us) < busy_us;
		/* updated at sleep, before the idle rq's clock_pelt syncs */
		if (was && !run)
			shown = pelt_util(&m);
		pelt_run(&m, 1, run);
		u = pelt_util(&m);
		/* and at wakeup and every tick while running */
		if ((run && !was) || (run && fmod(t, PELT_TICK_US) < 1))
			shown = u;
		was = run;
		if (t < settle_us)
			continue;
		r.min = fmin(r.min, u);
		r.max = fmax(r.max, u);
		r.mean += u;
		r.seen += shown;
		n++;
	}
	r.mean /= n;
	r.seen /= n;
	return r;
}

double pelt_replay_seen(const struct pelt_cfg *cfg, double util0, double start_us,
			const double *on, const double *off, int n,
			const double *at, int n_at)
{
	double t = start_us, shown = util0, sum = 0, tick = INFINITY;
	struct pelt_model m;
	bool run = false;
	int i = 0, j = 0;

	pelt_init(&m, cfg, util0);
	while (j < n_at) {
		double edge = i < n ? (run ? off[i] : on[i]) : INFINITY;
		double next = fmin(fmin(edge, tick), at[j]);

		if (next > t)
			pelt_run(&m, next - t, run);
		t = fmax(t, next);
		if (next == at[j]) {
			sum += shown;
			j++;
			continue;
		}
		/*
		 * Updated at wakeup, every tick while running and at sleep,
		 * before the next idle step syncs clock_pelt
		 */
		if (next == edge) {
			i += run;
			run = !run;
		}
		tick = run ? (floor(t / PELT_TICK_US) + 1) * PELT_TICK_US : INFINITY;
		shown = pelt_util(&m);
	}
	return n_at ? sum / n_at : 0;
}

unsigned long pelt_freq_ratio(unsigned int ref_mhz, unsigned int base_mhz)
{
	return (ref_mhz / 100) * (unsigned long)PELT_SCALE / (base_mhz / 100);
}

double pelt_freq_scale(double mhz, unsigned int base_mhz, unsigned long max_freq_ratio)
{
	double s;

	if (!max_freq_ratio)
		return PELT_SCALE;
	s = mhz / base_mhz * PELT_SCALE * PELT_SCALE / max_freq_ratio;
	return s > PELT_SCALE ? PELT_SCALE : s;
}
