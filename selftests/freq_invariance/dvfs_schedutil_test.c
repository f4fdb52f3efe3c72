// SPDX-License-Identifier: GPL-2.0
/*
 * schedutil's closed loop under intel_pstate's passive mode
 * (intel_cpufreq) on a platform with APERF/MPERF: QEMU's (x-dvfs), whose
 * guest kernel is unmodified, or hardware. 6.1's schedutil asks for
 *
 *   next = 1.25 x f x util / 1024
 *
 * with f = cpuinfo.max_freq (the 1-core turbo f_1C) when invariant, the
 * current request when not, and util = max(util_avg, util_est) of the
 * CPU's CFS runqueue plus its IRQ, RT and deadline utilization (none
 * here: no IRQ time accounting, SCHED_OTHER tasks only), resolved to the
 * lowest 100 MHz ratio at or above it (intel_cpufreq's fast switch) and
 * clamped to the policy's limits (the part's minimum and f_1C, checked).
 * With HWP, adjust_perf() writes HWP_REQUEST's desired ratio as
 * DIV_ROUND_UP(highest x (util + util / 4), 1024), highest being the
 * 1-core turbo's ratio: the same step (a step higher where the kHz
 * truncation of the other path lands exactly on a step). The request
 * changes at most every rate_limit_us (intel_cpufreq's transition delay:
 * 500 us, with HWP 5 ms; the feedback test sets 1 ms), and an update never lowers it before the CPU
 * has stopped its tick in idle since the last one (sugov_cpu_is_busy();
 * 6.12: sugov_hold_freq(); see BUSY_HOLD_RAN_US).
 *
 * What the platform must give comes from CPU 0's MSRs (the part, and by
 * the design's rule, dvfs_max_freq_ratio(), whether the kernel must be
 * invariant and with which reference f_ref), never from the kernel: the
 * kernel's invariant and max_freq_ratio must agree with them, or the test
 * fails before it runs.
 *
 * A periodic task (SCHED_OTHER, pinned, 16 ms period) does a fixed amount
 * of work, calibrated as dvfs_pelt_test's; a sampler on another CPU reads
 * it. What schedutil asked for is the CPU's time at each request over a
 * window: the request at the window's start from the MSR (IA32_PERF_CTL's
 * ratio; with HWP, IA32_HWP_REQUEST's desired ratio), and each request
 * after it from intel_pstate's trace event power:pstate_sample (on the
 * mono clock), which intel_cpufreq emits for every request it makes where
 * it can sample APERF/MPERF (each event's "from" must be the request
 * before, and the last the MSR's at the window's end); the
 * idle gaps count at the request the CPU had when it went idle
 * (blocked-load updates can lower it there). The util it used is taken
 * as the task's util_est (6.1: max(ewma, enqueued); 6.12: its one value),
 * sampled every 23 ms: while the task runs, that is its CPU's util_est,
 * which util_avg, rising through each burst from lower, tops only at the
 * burst's end. Each sample gives the step the formula resolves to, with
 * the kernel's integer arithmetic (check_request()):
 *
 * - the CPU's mean request over the window is within one step (100 MHz)
 *   of those steps' mean; where the task's idle gap is shorter than a
 *   tick, at least that mean less a step (schedutil's busy hold,
 *   BUSY_HOLD_RAN_US). The step is the request's resolution; as a bar on
 *   the mean it is an empirical margin for TCG's timing noise;
 * - at least 90% of the window is within one step of their range
 *   (util_est moves by up to a tick's worth of PELT per burst, and
 *   util_avg passes it at the end of a longer burst);
 * - the inline control: where the same samples with f_ref as max_freq
 *   (where f_ref is f_1C, the 4-core turbo) give a mean two steps or more
 *   from f_1C's, the CPU's mean is nearer f_1C's; the fixed point must
 *   have such a case.
 *
 * schedutil_request_is_its_formula (invariance on): the work needs w =
 * 10, 25, 40 and 60% of the CPU at f_ref (nominally: the calibration is
 * noisy under TCG, and w is what the task is seen to need). With
 * invariance util does not depend on the frequency the task runs at (up
 * to f_ref, above which the scale clips), so the loop has a fixed point
 * at once. For each w, pinned at f_ref (userspace governor) and then
 * under schedutil (the task's CPU only), after settling, over 100
 * periods: the request as above, and util_avg against the PELT model for
 * the running time per period the task is seen to have, at its CPU's
 * frequency scale in C0 (APERF / MPERF per traced sample, each clipped
 * at f_ref: see c0_scale()), within
 * dvfs_pelt_test's bars, 3% of 1024 each and 1% on average. Printed, not
 * asserted: the two util_avg side by side, and how much more than the
 * task needs the CPU asks for (the task is fully busy at util / 1024 x
 * f_ref, 1.25 x that with schedutil's headroom; the formula's f_1C adds
 * f_1C / f_ref where the minimum does not decide).
 *
 * feedback_with_turbo_capped (two CPUs, on a part whose 2-core turbo is
 * below its 1-core turbo): see feedback(). Without invariance (make
 * test's boot of the steep part with its turbo ratios hidden, the limits
 * then from the part the boot names, fi_platform=, and with HWP, whose
 * highest performance lets intel_cpufreq ask for the 1-core turbo; not
 * invariant, schedutil takes the fast switch's path there too, the
 * request written as HWP's minimum and desired ratios) the static
 * formula gives where the loop can rest; whether it does, and what it
 * does instead, comes from a model of schedutil's updates on the PELT
 * model (sugov_model.h), run for the work rate seen:
 * below 0.8 c the loop does not rest at its fixed point but swings
 * between the minimum and the top; above it, it runs away to the top. With
 * invariance (make test's Goldmont boot: the same steep part, the 1-core
 * reference) cases at 45% and 84% of c are judged by the invariant
 * formula, as the first test is: the request stays at 1.25 x f_1C x
 * util / 1024 on both sides of 0.8 c, and above it, where the loop
 * without invariance runs away (its model), it does not. The host's own load slows the vCPUs
 * and can lift the request above the formula: the test wants a host that
 * runs nothing else. Under HWP with invariance it is not run: the model
 * knows the fast switch's requests, which change only when the formula's
 * step does, not adjust_perf()'s.
 *
 * Control runs: DVFS_SCHEDUTIL_MAX=MHz computes the invariant
 * expectation with that instead of cpuinfo.max_freq (with f_ref it is
 * too low by f_1C / f_ref, and the test fails where the formula lands
 * above the minimum); DVFS_SCHEDUTIL_RATE_LIMIT_US=US sets schedutil's
 * rate limit to that in the feedback test while the model keeps the
 * test's (FEEDBACK_RATE_US): a loop updated every 200 ms has util settled at each update
 * and rests at the static formula's fixed point, which the model's swing
 * must tell apart (the case below 0.8 c fails); DVFS_SCHEDUTIL_CUR_MARGIN=0
 * or 1 takes 6.1's or 6.8's non-invariant formula whatever the kernel
 * (the other kernel's: the 67% case fails). Skips, saying why, without
 * APERF/MPERF, with turbo disabled, without intel_cpufreq, and where
 * neither test applies; needs two CPUs, tracefs (CONFIG_FTRACE), root and
 * CONFIG_X86_MSR.
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
#include "sugov_model.h"

#define PERIOD_US	16000
#define SETTLE_US	600000		/* 18 half-lives, from any start */
#define WINDOW_US	1600000		/* 100 periods */
#define MODEL_SETTLE_US	600000
#define SAMPLE_US	23000		/* prime to the period: every phase */
#define STEP_MHZ	100		/* a ratio */
#define MAX_EST		(WINDOW_US / SAMPLE_US + 2)
#define MAX_STEPS	64
#define KICK_US		33000		/* stats kicks: LOAD_AVG_PERIOD jiffies, + 1 */
#define RATE_LIMIT	"/sys/devices/system/cpu/cpufreq/schedutil/rate_limit_us"
#define MAX_EVENTS	20000		/* a window's requests, at most */

static int cpus[64], nr_cpus, test_cpu;
static unsigned int f_ref, f_max;	/* the reference; schedutil's max_freq */
/* The control's max_freq: f_ref, or where it is f_1C the 4-core turbo */
static unsigned int ctl_max;
static double f_ref_exact;		/* max_freq_ratio x base / 1024 */
static uint64_t ratio;
static bool invariant;
/*
 * The running kernel's non-invariant formula: since 6.8 (its fix "sched/fair:
 * Fix frequency selection for non-invariant case") the current frequency
 * is taken with a 25% margin on top of util's, 1.25 x f x min(1.25 x
 * util, 1024) / 1024; up to 6.7 1.25 x f x util / 1024 (sugov_model.h)
 */
static bool cur_margin;
static bool hwp;			/* the test CPU's HWP enabled: adjust_perf() */
static struct dvfs_req ev[MAX_EVENTS];	/* the traced requests */
static int nr_ev;
static pid_t task = -1;
static double rate_ctl;			/* DVFS_SCHEDUTIL_RATE_LIMIT_US */
static double rate_saved;		/* the rate limit the feedback test replaced */

static void stop_task(void)
{
	fi_reap(task);
	task = -1;
}

/*
 * The step schedutil resolves util @u to with @f_mhz as its reference, as
 * the invariant path computes it (sugov_request(): a quarter added, f
 * scaled by util / 1024, the lowest ratio at or above it), clamped to the
 * policy's limits.
 */
static unsigned int resolve(unsigned long u, unsigned int f_mhz)
{
	const struct sugov_cfg cfg = {
		.min = plat.min, .top = plat.turbo[L1C], .step = STEP_MHZ, .f_ref = f_mhz,
		.cur_margin = cur_margin,
	};

	return sugov_request(&cfg, f_mhz, u);
}

/* What the sampler saw of the task under the governor in force */
struct seen {
	double util;		/* mean util_avg */
	double est;		/* mean task util_est (fi_read_task_util_est()) */
	long est_s[MAX_EST];	/* those samples */
	int n_est;
	unsigned int mhz[MAX_STEPS];	/* the requests, ascending */
	double share[MAX_STEPS];	/* of the window at each */
	int n;
	double ran_us;		/* running time per period */
	double eff_mhz;		/* its mean effective frequency in C0 */
	double scale;		/* its frequency scale in C0 (c0_scale()) */
	double scale_of_mean;	/* the scale of eff_mhz, for comparison */
	double trans_s;		/* frequency transitions per second */
};

/* @us more of the window at @mhz in @s, its requests kept ascending */
static int add_time(struct seen *s, unsigned int mhz, double us)
{
	int i = 0, j;

	while (i < s->n && s->mhz[i] < mhz)
		i++;
	if (i == s->n || s->mhz[i] != mhz) {
		if (s->n == MAX_STEPS)
			return -1;
		for (j = s->n++; j > i; j--) {
			s->mhz[j] = s->mhz[j - 1];
			s->share[j] = s->share[j - 1];
		}
		s->mhz[i] = mhz;
		s->share[i] = 0;
	}
	s->share[i] += us;
	return 0;
}

/* The MSR's request, read between two times (mono, us) */
struct msr_read {
	double before, after;
	unsigned int mhz;
};

/*
 * The window @t0..@t1 (mono, us) at each request in @s: the request held
 * at @t0 (the last traced before it, else the MSR's, @r0, read just after
 * @t0), and the traced requests after it, each of which must start from
 * the one before (intel_pstate traces a request only where it can sample
 * APERF/MPERF: a request made without an event breaks the chain), the
 * MSR's at the end, @r1, read just before @t1, one of those held while it
 * was read; the changes in *@trans. 0 or -1, said why.
 */
static int residency(double t0, double t1, const struct msr_read *r0,
		     const struct msr_read *r1, struct seen *s, int *trans)
{
	unsigned int cur = r0->mhz, at_r1 = 0;
	double prev = t0;
	int i;

	s->n = 0;
	*trans = 0;
	for (i = 0; i < nr_ev && ev[i].us <= t0; i++)
		cur = ev[i].mhz;
	/* No event before t0, one while the MSR was read: it held the one before */
	if (!i && i < nr_ev && ev[i].us <= r0->after)
		cur = ev[i].from;
	for (; i < nr_ev && ev[i].us < t1; i++) {
		if (!at_r1 && ev[i].us > r1->before)
			at_r1 = cur;
		if (ev[i].from != cur) {
			fi_err("a request from %u MHz traced while %u MHz was held: one went untraced",
			       ev[i].from, cur);
			return -1;
		}
		if (add_time(s, cur, ev[i].us - prev))
			return -1;
		*trans += ev[i].mhz != cur;
		cur = ev[i].mhz;
		prev = ev[i].us;
	}
	if (r1->mhz != cur && r1->mhz != at_r1) {
		fi_err("%u MHz traced last, the MSR holds %u at the window's end", cur, r1->mhz);
		return -1;
	}
	if (add_time(s, cur, t1 - prev))
		return -1;
	for (i = 0; i < s->n; i++)
		s->share[i] /= t1 - t0;
	return 0;
}

/*
 * The frequency scale clock_pelt advanced at while test_cpu was in C0
 * between @ta0 and @ta1 (mono, us), whose APERF and MPERF moved by @da
 * and @dm: min(f / f_ref, 1) x 1024 weighted by MPERF (time in C0), f
 * taken per interval between two traced samples within the window, the
 * rest of the window as one interval. The scale of the mean frequency is
 * too high where the frequency moves across f_ref: time above it counts
 * at 1024 only. The kernel clips the mean of each tick, so where a tick
 * spans a change across f_ref its scale lies between this one and the
 * scale of the mean: the model is approximate there (both are printed).
 * An interval that counted more than the window did (a sample of counts
 * another CPU left behind) fails: -1, said why.
 */
static double c0_scale(double ta0, double ta1, uint64_t da, uint64_t dm)
{
	double sum = 0, in_c0 = 0, rest_a = da, rest_m = dm;
	int i;

	for (i = 1; i < nr_ev && ev[i].us < ta1; i++) {
		if (ev[i - 1].us <= ta0 || !ev[i].mperf)
			continue;
		if (ev[i].mperf > dm || ev[i].aperf > da) {
			fi_err("a sample traced at %.0f us counts MPERF %llu, APERF %llu: more than the window's %llu, %llu",
			       ev[i].us, (unsigned long long)ev[i].mperf,
			       (unsigned long long)ev[i].aperf, (unsigned long long)dm,
			       (unsigned long long)da);
			return -1;
		}
		sum += ev[i].mperf * pelt_freq_scale((double)ev[i].aperf / ev[i].mperf *
						     plat.base, plat.base, ratio);
		in_c0 += ev[i].mperf;
		rest_a -= ev[i].aperf;
		rest_m -= ev[i].mperf;
	}
	/*
	 * None left where the samples cover the window (a sample read just
	 * before the MSRs, traced after them, overlaps it by microseconds)
	 */
	if (rest_m > 0 && rest_a > 0) {
		sum += rest_m * pelt_freq_scale(rest_a / rest_m * plat.base, plat.base, ratio);
		in_c0 += rest_m;
	}
	return sum / in_c0;
}

static int observe(pid_t tid, struct seen *s)
{
	uint64_t a0, m0, a1, m1, bracket;
	long long ran0, ran1, u, est;
	double usum = 0, esum = 0, t0, t1, ta0, ta1;
	struct msr_read r0, r1;
	int trans;

	s->n_est = 0;
	if (dvfs_trace_clear(test_cpu))
		return -1;
	fi_sleep_us(SETTLE_US);
	/* The request, for a window without an event before it */
	t0 = fi_now_us();
	r0.before = t0;
	r0.mhz = dvfs_msr_request(test_cpu, hwp);
	r0.after = fi_now_us();
	if (!r0.mhz || fi_read_sched_ns(tid, "se.sum_exec_runtime", &ran0) ||
	    dvfs_read_am(test_cpu, &a0, &m0, &bracket))
		return -1;
	ta0 = fi_now_us();
	while (fi_now_us() < t0 + WINDOW_US && s->n_est < MAX_EST) {
		if (fi_read_sched_field(tid, "se.avg.util_avg", &u) ||
		    fi_read_task_util_est(tid, &est))
			return -1;
		usum += u;
		s->est_s[s->n_est++] = est;
		esum += s->est_s[s->n_est - 1];
		fi_sleep_us(SAMPLE_US);
	}
	if (fi_read_sched_ns(tid, "se.sum_exec_runtime", &ran1))
		return -1;
	ta1 = fi_now_us();
	if (dvfs_read_am(test_cpu, &a1, &m1, &bracket))
		return -1;
	/* The request at the end, to check the trace against */
	r1.before = fi_now_us();
	r1.mhz = dvfs_msr_request(test_cpu, hwp);
	t1 = fi_now_us();
	r1.after = t1;
	nr_ev = r1.mhz ? dvfs_trace_requests(test_cpu, ev, MAX_EVENTS) : -1;
	if (nr_ev < 0 || residency(t0, t1, &r0, &r1, s, &trans) ||
	    m1 == m0 || a1 == a0 || ran1 <= ran0 || !s->n_est)
		return -1;
	s->util = usum / s->n_est;
	s->est = esum / s->n_est;
	s->ran_us = (ran1 - ran0) / 1000.0 / (t1 - t0) * PERIOD_US;
	/* In C0, MPERF counts at the base frequency's rate, APERF at f_eff */
	s->eff_mhz = (double)(a1 - a0) / (m1 - m0) * plat.base;
	s->scale = c0_scale(ta0, ta1, a1 - a0, m1 - m0);
	if (s->scale < 0)
		return -1;
	s->scale_of_mean = pelt_freq_scale(s->eff_mhz, plat.base, ratio);
	s->trans_s = trans * 1e6 / (t1 - t0);
	return 0;
}

/* The share of the window the CPU asked for @lo..@hi MHz */
static double share_within(const struct seen *s, unsigned int lo, unsigned int hi)
{
	double in = 0;
	int i;

	for (i = 0; i < s->n; i++)
		if (s->mhz[i] >= lo && s->mhz[i] <= hi)
			in += s->share[i];
	return in;
}

/* The mean request over the window */
static double mean_req(const struct seen *s)
{
	double sum = 0;
	int i;

	for (i = 0; i < s->n; i++)
		sum += s->share[i] * s->mhz[i];
	return sum;
}

/* The residency, as "MHz:share" */
static void print_requests(const struct seen *s)
{
	int i;

	fi_info("  time at each request:");
	for (i = 0; i < s->n; i++)
		if (s->share[i] >= 0.005)
			printf(" %u:%.0f%%", s->mhz[i], s->share[i] * 100);
	printf("\n");
}

/*
 * schedutil does not lower the request of a CPU whose idle_calls did not
 * move since its last update (sugov_cpu_is_busy(); 6.12's
 * sugov_hold_freq()), and idle_calls moves only when the tick is stopped
 * in idle, which the idle loop does only once a tick has come there
 * (do_idle()'s got_tick, no cpuidle driver here). A task whose idle gap
 * is shorter than a tick (HZ=1000) keeps its CPU "busy": the request
 * holds the highest of the recent ones, util_est peaks the samples miss
 * included. 15 ms of the 16 ms period.
 */
#define BUSY_HOLD_RAN_US	(PERIOD_US - PELT_TICK_US)

/*
 * The CPU's requests in @s against schedutil's formula with @f_mhz as its
 * reference (@what names it), for each util_est sample: the mean within
 * one step of the formula's (where the task's idle gap is shorter than a
 * tick, BUSY_HOLD_RAN_US, at least the formula's less a step: the hold
 * lifts it, up to the top where the formula is a step below it), at
 * least 90% of the time within one step of its range. The control: the
 * same with @ctl_mhz as the reference (0: none) tells where its mean is
 * two steps or more from the formula's (counted in *@tells), and then the
 * CPU's mean must be nearer the formula's.
 */
static int check_request(unsigned int pct, const struct seen *s, unsigned int f_mhz,
			 const char *what, unsigned int ctl_mhz, int *tells)
{
	unsigned int lo = plat.turbo[L1C], hi = plat.min, r;
	double want = 0, ctl = 0, got, in;
	int i, ret = 0;

	for (i = 0; i < s->n_est; i++) {
		r = resolve(s->est_s[i], f_mhz);
		want += r;
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
		if (ctl_mhz)
			ctl += resolve(s->est_s[i], ctl_mhz);
	}
	want /= s->n_est;
	ctl /= s->n_est;
	got = mean_req(s);
	in = share_within(s, lo - STEP_MHZ, hi + STEP_MHZ);
	fi_info("  %s: util_est %.1f -> %u..%u MHz, mean %.0f; the CPU's: mean %.0f, %.0f%% within %u..%u\n",
		what, s->est, lo, hi, want, got, in * 100, lo - STEP_MHZ, hi + STEP_MHZ);
	print_requests(s);
	if (s->ran_us >= BUSY_HOLD_RAN_US) {
		if (got < want - STEP_MHZ) {
			fi_err("%u%%: mean request %.0f MHz, want at least %.0f (%s) - %d: busy, schedutil holds the highest",
			       pct, got, want, what, STEP_MHZ);
			ret = -1;
		}
	} else if (fabs(got - want) > STEP_MHZ) {
		fi_err("%u%%: mean request %.0f MHz, want %.0f (%s) +- %d", pct, got, want, what,
		       STEP_MHZ);
		ret = -1;
	}
	if (in < 0.9) {
		fi_err("%u%%: %.0f%% of the time at %u..%u MHz, want at least 90%%",
		       pct, in * 100, lo - STEP_MHZ, hi + STEP_MHZ);
		ret = -1;
	}
	if (!ctl_mhz)
		return ret;
	if (fabs(ctl - want) < 2 * STEP_MHZ) {
		fi_info("  the control, %u MHz as max_freq: mean %.0f, not two steps apart\n",
			ctl_mhz, ctl);
		return ret;
	}
	(*tells)++;
	if (fabs(got - want) < fabs(got - ctl)) {
		fi_info("  the control, %u MHz as max_freq: mean %.0f, farther from the CPU's, as it must be\n",
			ctl_mhz, ctl);
		return ret;
	}
	fi_err("%u%%: mean request %.0f MHz, nearer %.0f (%u MHz as max_freq) than %.0f (%s)",
	       pct, got, ctl, ctl_mhz, want, what);
	return -1;
}

/*
 * util_avg against the PELT model of the task's observed run at its scale
 * in C0 (c0_scale()): clock_pelt advances by the running time x
 * min(f / f_ref, 1), the work done in time at f_ref up to f_ref (per
 * tick: approximate where a tick spans a change across f_ref). Not the
 * requested frequency: where f_ref is above the 2-core turbo, the
 * sampler's CPU, active at times, caps the task's.
 */
static int check_util(const char *what, const struct seen *s, double *err_sum)
{
	struct pelt_cfg cfg = { .mode = PELT_TIME_SCALING };
	double model;

	cfg.scale = lround(s->scale);
	model = pelt_periodic(&cfg, PERIOD_US, s->ran_us, MODEL_SETTLE_US).seen;
	fi_info("  %s: ran %.0f us/period at %.0f MHz, scale %.1f (%.1f at the mean frequency): util_avg %.1f, model %.1f (%+.1f)\n",
		what, s->ran_us, s->eff_mhz, s->scale, s->scale_of_mean, s->util, model,
		s->util - model);
	*err_sum += fabs(s->util - model);
	if (fabs(s->util - model) > 0.03 * 1024) {
		fi_err("%s: util_avg %.1f, the model's %.1f for %.0f us of %d at scale %.1f, want +- 3%% of 1024",
		       what, s->util, model, s->ran_us, PERIOD_US, s->scale);
		return -1;
	}
	return 0;
}

/* test_cpu back under the userspace governor: 0, or -1 said why */
static int userspace_again(void)
{
	if (!dvfs_cpufreq_write(test_cpu, "scaling_governor", "userspace"))
		return 0;
	fi_err("cannot put CPU %d back under the userspace governor", test_cpu);
	return -1;
}

/* The task needing @pct% of its CPU at f_ref, pinned then under schedutil */
static int fixed_point(unsigned int pct, double *err_sum, int *tells)
{
	double busy = PERIOD_US * pct / 100.0 * f_ref / plat.turbo[L1C];
	struct seen pin, su;
	unsigned long iters;
	double want, need;
	int ret = 0;

	task = dvfs_start_fixed_work(cpus, nr_cpus, test_cpu, PERIOD_US, busy, &iters);
	if (task < 0) {
		fi_err("%u%%: cannot calibrate or start the periodic task", pct);
		return -1;
	}
	if (dvfs_set_req(test_cpu, f_ref) || observe(task, &pin)) {
		fi_err("%u%%: cannot observe the task pinned at %u MHz", pct, f_ref);
		stop_task();
		return -1;
	}
	if (dvfs_cpufreq_write(test_cpu, "scaling_governor", "schedutil") ||
	    observe(task, &su)) {
		fi_err("%u%%: cannot observe the task under schedutil", pct);
		ret = -1;
	}
	stop_task();
	if (userspace_again() || ret)
		return -1;

	want = 1.25 * f_max * su.est / 1024;
	need = su.est / 1024 * f_ref_exact;
	fi_info("w %u%% of the CPU at f_ref (%lu iterations): util_est %.1f\n", pct, iters,
		su.est);
	fi_info("  the task is fully busy at %.0f MHz (util / 1024 x f_ref %u), 1.25 x that is %.0f; the formula gives %.0f (f_1C / f_ref = %.3f), the CPU asked for %.0f on average, %.1f%% more than 1.25 x its need\n",
		need, f_ref, 1.25 * need, want, (double)plat.turbo[L1C] / f_ref_exact,
		mean_req(&su), (mean_req(&su) / (1.25 * need) - 1) * 100);
	if (check_request(pct, &su, f_max, "1.25 x max_freq x util_est / 1024",
			  ctl_max, tells))
		ret = -1;
	if (check_util("pinned at f_ref", &pin, err_sum))
		ret = -1;
	if (check_util("schedutil", &su, err_sum))
		ret = -1;
	fi_info("  util_avg %.1f under schedutil, %.1f pinned at %u MHz (%+.1f; running time %.0f vs %.0f us)\n",
		su.util, pin.util, f_ref, su.util - pin.util, su.ran_us, pin.ran_us);
	return ret;
}

static int test_fixed_point(void)
{
	static const unsigned int pct[] = { 10, 25, 40, 60 };
	int ret = KSFT_PASS, n = 2 * ARRAY_SIZE(pct), tells = 0;
	double err_sum = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pct); i++)
		if (fixed_point(pct[i], &err_sum, &tells))
			ret = KSFT_FAIL;
	fi_info("%d of %zu cases tell max_freq %u from %u apart (two steps or more)\n",
		tells, ARRAY_SIZE(pct), f_max, ctl_max);
	if (!tells) {
		fi_err("no case tells max_freq %u from %u apart: the test shows nothing about it",
		       f_max, ctl_max);
		ret = KSFT_FAIL;
	}
	fi_info("util_avg off the model by %.1f on average\n", err_sum / n);
	if (ret == KSFT_PASS && err_sum / n > 0.01 * 1024) {
		fi_err("util_avg off the model by %.1f on average, want 1%% of 1024", err_sum / n);
		ret = KSFT_FAIL;
	}
	return ret;
}

/*
 * schedutil's rate limit in us (its tunables are global: the platform's
 * driver has no governor per policy), as long as a CPU is under it
 */
static int read_rate_limit(double *us)
{
	uint64_t v;

	if (fi_read_u64(RATE_LIMIT, &v))
		return -1;
	*us = v;
	return 0;
}

/* schedutil's rate limit set to @us, if not 0: 0, or -1 said why */
static int set_rate_limit(double us)
{
	char buf[32];

	if (!us)
		return 0;
	snprintf(buf, sizeof(buf), "%.0f", us);
	if (!fi_write_str(RATE_LIMIT, buf))
		return 0;
	fi_err("cannot write %s to %s", buf, RATE_LIMIT);
	return -1;
}

/*
 * The energy over the window, as a share of running the whole window at
 * f_1C: the running time x (f_eff / f_1C)^3, dynamic power taken as f^3
 * (voltage proportional to f). Against doing the same work at f_1C, it
 * is (f_eff / f_1C)^2.
 */
static double energy(double ran_us, double eff_mhz)
{
	return ran_us / PERIOD_US * pow(eff_mhz / plat.turbo[L1C], 3);
}

/*
 * The guest's figure @got against two predictions, another's @stat (@name
 * says whose) and the model's @model, which must differ by @apart at
 * least: on the model's side of their midpoint. 0, or -1 said why.
 */
static int nearer_model(unsigned int pct, const char *what, double got, const char *name,
			double stat, double model, double apart)
{
	double mid = (stat + model) / 2;

	if (fabs(model - stat) < apart) {
		fi_err("%u%% of c: %s: the model (%.2f) and %s (%.2f) are too close to tell apart",
		       pct, what, model, name, stat);
		return -1;
	}
	if (model > stat ? got >= mid : got <= mid)
		return 0;
	fi_err("%u%% of c: %s %.2f, nearer %s's %.2f than the model's %.2f",
	       pct, what, got, name, stat, model);
	return -1;
}

/*
 * The case where the kernels part: the CPU's shares of the window above c
 * (@above) and at the top (@top) nearer this kernel's model's (@m_above,
 * @m_top) than the other kernel's (@o_above, @o_top), by the sum of the
 * two distances: 0, or -1 said why.
 */
static int nearer_kernel(unsigned int pct, double above, double top, double m_above,
			 double m_top, double o_above, double o_top)
{
	double d_m = fabs(above - m_above) + fabs(top - m_top);
	double d_o = fabs(above - o_above) + fabs(top - o_top);
	const char *other = cur_margin ? "6.1's model" : "6.8's model";

	if (d_m < d_o) {
		fi_info("  the control, %s: %.2f from the CPU's shares, this kernel's model %.2f, as it must be\n",
			other, d_o, d_m);
		return 0;
	}
	fi_err("%u%% of c: shares above c and at the top %.2f and %.2f, %.2f from %s (%.2f, %.2f), %.2f from this kernel's (%.2f, %.2f): nearer %s",
	       pct, above, top, d_o, other, o_above, o_top, d_m, m_above, m_top, other);
	return -1;
}

/*
 * The feedback loop, two CPUs busy: the task's CPU under schedutil, a
 * spinner on the other (at SCHED_IDLE: the sampler there comes first), so
 * that whenever the task runs the turbo limit for two active cores caps
 * its CPU at c = f_2C, below the 1-core turbo. The task does fixed work at
 * a rate w (the frequency at which it would keep its CPU fully busy),
 * seen as f_eff x its running time per period; the work is meant to need
 * 45%, 67% and 95% of c without invariance, 45% and 84% with it, and
 * scaled when it lands elsewhere (see below).
 *
 * The static formula: without invariance util is the busy share, w /
 * f_eff, and schedutil asks for 1.25 x f_cur x util / 1024, with the
 * request f at or below c 1.25 x w, a fixed point while 1.25 x w < c;
 * above c the CPU still runs at c, so the next request is 1.25 x f x w /
 * c, above f whenever w > 0.8 c: the request runs away to the top. With
 * invariance it is 1.25 x f_1C x util / 1024 whatever the frequency
 * (1.25 x w with the 1-core reference), a fixed point wherever that is
 * below the top.
 *
 * The static formula says where the loop can rest, not whether it does:
 * the model (sugov_model.h) runs schedutil's updates on PELT for the w
 * seen, the platform's table and cap, the governor's rate limit, and the
 * spinner's CPU kicking the task's, while it idles, to update its
 * blocked load every 33 ms (which lowers the request in the gaps), with
 * the running kernel's formula (cur_margin). It says that without
 * invariance the loop does not rest below 0.8 c: each
 * tick within a burst multiplies the request by 1.25 x util / 1024 with
 * util still rising, while only a wakeup or a kick in the gap may lower
 * it, and util, PELT's average over tens of ms, lags what the request did
 * to the busy share: it swings between the table's minimum and its top.
 * The runaway starts below 0.8 c (util_est, the util at the end of a
 * burst, is above the average). With invariance util does not depend on
 * the request, and the loop rests at its formula but for the kicks.
 *
 * Judged, for each case, against two predictions, and the case tells only
 * where they differ by TOP_APART of the window or more (else it is run
 * again, as below):
 *
 * - without invariance, the 95% case: w above 0.8 c (no fixed point below
 *   c), the model at the top 90% of the window or more, the static
 *   formula 1.25 x w two steps or more below the top (so that a loop
 *   resting there has no time at the top): the share of the window at
 *   the top must be on the model's side of the midpoint between the two;
 * - without invariance, the 45% case: where the static formula has a
 *   fixed point below c (no time above c: w at most 0.6 c, as util_est,
 *   the util at a burst's end, can be a third above the mean) and the
 *   model swings, the share of the window above c must be on the model's
 *   side of the midpoint between the two predictions, which must differ
 *   by 10% of the window at least, and of the midpoint between the
 *   model's and a loop stuck above c (all of the window);
 * - with invariance, each case: the request is the formula of what
 *   util_est the task had, as in the first test (check_request(): the
 *   mean within a step, both sides, where the task idles longer than a
 *   tick); the 45% case with w below 0.8 c; the 84% case with w above it,
 *   1.25 x w two steps or more below the top and the model of the loop
 *   without invariance at the top: the share at the top must be on the
 *   formula's side (the share of the util_est samples it resolves to the
 *   top) of the midpoint between the two (the inline control: no
 *   runaway).
 *
 * The tick's phase in the
 * task's period is fixed in a run but not known: the model is run at 4
 * phases, and the one with the least time above c is taken. Printed, the
 * CPU's and the model's: the mean request and effective frequency,
 * transitions per second (not judged: the kicks make a resting loop
 * change too), the shares above c and at the top, and the energy
 * (energy()). The model is run for the w seen; where w lands outside its
 * case's regime, the case is run again with the work scaled toward its
 * target (once runs have landed on both sides of it, between the nearest
 * two), and fails as telling nothing after ATTEMPTS runs in all.
 *
 * The kernels differ without invariance: since 6.8 the request is 1.25 x
 * 1.25 x f x util / 1024 below 0.8 x 1024 (cur_margin), the static fixed
 * point 1.5625 x w, below c while w < 0.64 c, and the model's runaway
 * starts near 0.6 c instead of 0.75 c. The 67% case is where the two
 * models part (by KERNELS_APART of the window at the top at least, with
 * w at most KERNELS_W_MAX, else it tells nothing): its shares of the
 * window above c and at the top, the two figures each model predicts,
 * must be nearer this kernel's model's than the other's (the sum of the
 * two distances). Not run with invariance, where the formulas agree.
 */
/*
 * The model for the w seen in @su, into @m: the tick's phase in the
 * task's period is the run's, unknown, so of 4 phases the one with the
 * least time above c, its share in *@m_above. 0, or -1 if the model
 * cannot run the platform (a table of more than SUGOV_MAX_STEPS steps).
 */
static int run_model(struct sugov_cfg *mc, const struct seen *su, struct sugov_result *m,
		     double *m_above)
{
	int i;

	mc->work = su->eff_mhz * su->ran_us;
	for (i = 0; i < 4; i++) {
		struct sugov_result r;
		double a;

		mc->tick_phase_us = i * 250;
		if (sugov_simulate(mc, MODEL_SETTLE_US, WINDOW_US, &r)) {
			fi_err("the model cannot run a table of %u..%u MHz in %u MHz steps",
			       mc->min, mc->top, mc->step);
			return -1;
		}
		a = sugov_share(mc, &r, mc->cap + 1, mc->top);
		if (!i || a < *m_above) {
			*m = r;
			*m_above = a;
		}
	}
	return 0;
}

/* The share of @s's util_est samples whose step by the formula with @f_mhz is the top */
static double formula_top(const struct seen *s, unsigned int f_mhz)
{
	int i, n = 0;

	for (i = 0; i < s->n_est; i++)
		n += resolve(s->est_s[i], f_mhz) >= plat.turbo[L1C];
	return s->n_est ? (double)n / s->n_est : 0;
}

/* The rate limit the control replaced, back (also at exit) */
static void restore_rate_limit(void)
{
	if (rate_saved && !set_rate_limit(rate_saved))
		rate_saved = 0;
}

/*
 * schedutil's rate limit in the feedback test: with the driver's own
 * (intel_cpufreq's transition delay, 5 ms with HWP) 6.8's loop below
 * 0.48 c, where its static formula has a fixed point below c, rests
 * within 10% of the window of it in the model too, and a swing cannot be
 * told from the fixed point; from 1 ms down (500 us without HWP) the
 * model swings there as 6.1's does
 */
#define FEEDBACK_RATE_US	1000

/*
 * @su under schedutil beside the spinner, its rate limit FEEDBACK_RATE_US
 * (the control's where set; the model's @mc keeps FEEDBACK_RATE_US): 0,
 * or -1 said why
 */
static int observe_loop(unsigned int pct, struct sugov_cfg *mc, struct seen *su)
{
	int ret = -1;

	if (dvfs_cpufreq_write(test_cpu, "scaling_governor", "schedutil") ||
	    read_rate_limit(&rate_saved)) {
		fi_err("%u%% of c: cannot put CPU %d under schedutil", pct, test_cpu);
		goto out;
	}
	mc->rate_us = FEEDBACK_RATE_US;
	if (set_rate_limit(rate_ctl ? rate_ctl : FEEDBACK_RATE_US)) {
		fi_err("%u%% of c: cannot set schedutil's rate limit", pct);
		goto out;
	}
	if (observe(task, su))
		fi_err("%u%% of c: cannot observe the task under schedutil", pct);
	else
		ret = 0;
out:
	restore_rate_limit();
	if (rate_saved || userspace_again())
		ret = -1;
	return ret;
}

/*
 * Runs per feedback case, each one whose w missed its case's regime (a
 * precondition: the result is not looked at). Where the work lands is
 * noisy, and the 67% case's window is narrow (where the models part and
 * w is far enough from 6.1's runaway, 0.62 c to 0.71 c: KERNELS_W_MAX);
 * near the runaway w jumps between runs of the same work (the platform's
 * slowdown of short bursts is not exact, and differs with the frequency
 * the loop settles at). The number is an empirical margin for that noise,
 * 12 at about 2.2 s each; a run not needed costs nothing.
 */
#define ATTEMPTS	12
/*
 * The static formula's fixed point with util_est, a burst's end, up to
 * a third above the mean util: 1.25 x 4/3 x w, below c up to w = 0.6 c;
 * since 6.8 1.25 x 1.25 x 4/3 x w, up to w = 0.48 c
 */
#define SWING_MAX	(cur_margin ? 0.48 : 0.6)
/*
 * The case where the kernels' formulas part: at w = 0.62 c to 0.75 c the
 * model of 6.1's loop swings (19% to 34% of the window at the top, 53% to
 * 72% above c), that of 6.8's runs away (97% to 100% at the top); the
 * case tells where the two models' shares at the top differ by 40% of
 * the window at least (above c, 6.1's model's 53% to 72% can be too near
 * the runaway's 100% to tell them).
 */
#define KERNELS_PCT	67
#define KERNELS_APART	0.4
/*
 * ... and where w is at most 0.71 c: 6.1's model runs away from near
 * 0.75 c, and w, measured through the platform's slowdown, can be a few
 * percent off (an empirical margin below the model's 0.75 c)
 */
#define KERNELS_W_MAX	0.71
/*
 * The invariant loop's case on the runaway side of 0.8 c, where the
 * invariant formula (1.25 x w with the 1-core reference) is still two
 * steps or more below the top: 0.84 c gives 1.05 c, and the task's idle
 * gap (16% of the period) is longer than a tick, so that schedutil's
 * busy hold does not lift the request (BUSY_HOLD_RAN_US): it is judged
 * from both sides
 */
#define RESTING_PCT	84
/* The shares of the window two predictions must differ by to be told */
#define TOP_APART	0.5

/* One feedback case: its run, and what the predictions say of it */
struct fb_case {
	unsigned int pct, c;	/* the target, of c; c = f_2C */
	const char *aim;	/* what the case must see the model do */
	struct sugov_cfg mc;	/* the model of this kernel's loop */
	struct sugov_cfg oc;	/* the other hypothesis's model */
	struct seen su;		/* the CPU's run */
	struct sugov_result m;	/* the model's, for the w seen */
	double w;		/* the work rate seen, MHz */
	double m_above, m_top;	/* the model's shares above c and at the top */
	double o_above, o_top;	/* the other hypothesis's */
	double f_top;		/* the formula's share of util_est samples at the top */
	unsigned int stat;	/* the static formula's step for w, MHz */
	bool tells;		/* w in the case's regime, the predictions apart */
};

/*
 * The predictions for the run in @k->su and whether the case tells them
 * apart there: the model's; the other hypothesis's (in the case where the
 * kernels part, the other kernel's; with invariance, the loop without);
 * the static formula's step for w (1.25 x w, f_ref = f_1C) and the
 * formula's share of the util_est samples at the top. 0, or -1 said why.
 */
static int predict(struct fb_case *k)
{
	unsigned int pct = k->pct, c = k->c, top = plat.turbo[L1C];
	double w = k->su.eff_mhz * k->su.ran_us / PERIOD_US;

	k->w = w;
	if (run_model(&k->mc, &k->su, &k->m, &k->m_above))
		return -1;
	k->m_top = sugov_share(&k->mc, &k->m, top, top);
	if (pct == KERNELS_PCT || invariant) {
		struct sugov_result o;

		k->oc = k->mc;
		if (invariant)
			k->oc.f_ref = 0;
		else
			k->oc.cur_margin = !cur_margin;
		if (run_model(&k->oc, &k->su, &o, &k->o_above))
			return -1;
		k->o_top = sugov_share(&k->oc, &o, top, top);
	}
	k->stat = resolve(lround(w / top * 1024), top);
	k->f_top = formula_top(&k->su, f_max);
	/*
	 * Without invariance the 95% case must be a runaway (w above 0.8 c,
	 * where the static formula has no fixed point below c; the model at
	 * the top; the static formula two steps below it), the 45% one a
	 * swing, the 67% one where the kernels' models differ. With
	 * invariance the 84% case is on the same side of 0.8 c, the formula
	 * two steps below the top and the loop without invariance at the top
	 * in its model; the 45% one below 0.8 c.
	 */
	if (invariant)
		k->tells = pct >= 80 ? w > 0.8 * c && k->stat + 2 * STEP_MHZ <= top &&
				       k->o_top >= 0.9 && k->o_top - k->f_top >= TOP_APART :
				       w < 0.8 * c;
	else
		k->tells = pct == KERNELS_PCT ? fabs(k->m_top - k->o_top) >= KERNELS_APART &&
						w <= KERNELS_W_MAX * c :
			   pct >= 80 ? w > 0.8 * c && k->m_top >= 0.9 &&
				       k->stat + 2 * STEP_MHZ <= top :
			   w <= SWING_MAX * c && k->m_above >= 0.1 && k->m_top < 0.9;
	return 0;
}

/*
 * The run of case @k: the periodic task at @k->pct of c beside a spinner
 * on the other CPU, observed under schedutil, run again (up to ATTEMPTS
 * runs) with its work scaled where w landed outside the case's regime.
 * The last run's in @k. 0, or -1 said why.
 */
static int run_case(struct fb_case *k)
{
	double busy = PERIOD_US * (k->c * k->pct / 100.0) / plat.turbo[L1C];
	double target = k->c * k->pct / 100.0, below = 0, over = 0, next;
	unsigned long iters;
	int attempt, ret = -1;
	pid_t spin;

	task = dvfs_start_fixed_work(cpus, nr_cpus, test_cpu, PERIOD_US, busy, &iters);
	if (task < 0) {
		fi_err("%u%% of c: cannot calibrate or start the periodic task", k->pct);
		return -1;
	}
	spin = dvfs_spawn_idle_spinner(cpus[0]);
	if (spin < 0) {
		fi_err("%u%% of c: cannot start a spinner on CPU %d", k->pct, cpus[0]);
		stop_task();
		return -1;
	}
	/*
	 * The work rate beside the spinner is not the calibrated one (two
	 * busy vCPUs on the host's cores; the platform's slowdown of short
	 * bursts is not exact): it can be a third of the target or nearly
	 * twice it. Where w lands where the model and the static formula
	 * agree, the work is scaled by the target / w and the case run
	 * again; once one run has landed below the target and one above, the
	 * next work is the geometric mean of the two nearest (w is not
	 * proportional to the work: scaling alone can swing from one side of
	 * the target to the other).
	 */
	for (attempt = 1; attempt <= ATTEMPTS; attempt++) {
		if (observe_loop(k->pct, &k->mc, &k->su) || predict(k))
			goto out;
		if (k->tells || attempt == ATTEMPTS)
			break;
		if (k->w < target)
			below = below ? fmax(below, iters) : iters;
		else
			over = over ? fmin(over, iters) : iters;
		next = below && over ? sqrt(below * over) : iters * target / k->w;
		fi_info("w %.0f MHz (%.2f c), where the model does not %s: the work scaled by %.2f toward %.0f MHz\n",
			k->w, k->w / k->c, k->aim, next / iters, target);
		stop_task();
		iters = next;
		task = dvfs_start_periodic(test_cpu, PERIOD_US, iters, 0);
		if (task < 0) {
			fi_err("%u%% of c: cannot restart the periodic task", k->pct);
			goto out;
		}
	}
	ret = 0;
out:
	fi_reap(spin);
	stop_task();
	return ret;
}

/* The run of case @k, printed and judged against its predictions */
static int judge(const struct fb_case *k)
{
	unsigned int pct = k->pct, c = k->c;
	double w = k->w, above, top;
	int told = 0;

	above = share_within(&k->su, c + 1, plat.turbo[L1C]);
	top = share_within(&k->su, plat.turbo[L1C], plat.turbo[L1C]);
	fi_info("w %.0f MHz (%.2f c; %u%% of c nominal), rate limit %.0f us; the static formula: %s\n",
		w, w / c, pct, k->mc.rate_us,
		invariant ? "1.25 x f_1C x util / 1024" :
		w < (cur_margin ? 0.64 : 0.8) * c ?
		(cur_margin ? "a fixed point at 1.5625 x w, below c" :
			      "a fixed point at 1.25 x w, below c") :
		"the runaway to the top");
	fi_info("  %-6s mean request %4.0f MHz, effective %4.0f, %5.1f transitions/s, %3.0f%% above c, %3.0f%% at the top, energy %.3f of f_1C's\n",
		"CPU:", mean_req(&k->su), k->su.eff_mhz, k->su.trans_s, above * 100, top * 100,
		energy(k->su.ran_us, k->su.eff_mhz));
	fi_info("  %-6s mean request %4.0f MHz, effective %4.0f, %5.1f transitions/s, %3.0f%% above c, %3.0f%% at the top, energy %.3f of f_1C's\n",
		"model:", k->m.mean_req, k->m.eff_mhz, k->m.trans_s, k->m_above * 100,
		k->m_top * 100, energy(k->m.ran_us, k->m.eff_mhz));
	if (pct == KERNELS_PCT)
		fi_info("  %-6s %3.0f%% above c, %3.0f%% at the top: the kernels' formulas part here (this kernel's: %s)\n",
			cur_margin ? "6.1's:" : "6.8's:", k->o_above * 100, k->o_top * 100,
			cur_margin ? "6.8's" : "6.1's");
	if (invariant)
		fi_info("  %-6s %3.0f%% above c, %3.0f%% at the top: the model without invariance\n",
			"other:", k->o_above * 100, k->o_top * 100);
	fi_info("  the static formula 1.25 x w: %u MHz (the top %u); the formula of the util_est samples at the top: %.0f%%\n",
		k->stat, plat.turbo[L1C], k->f_top * 100);
	print_requests(&k->su);
	if (!k->tells) {
		fi_err("%u%% of c: after %d runs w %.0f MHz (%.2f c), where the model (%.0f%% above c, %.0f%% at the top) does not %s: the case tells nothing",
		       pct, ATTEMPTS, w, w / c, k->m_above * 100, k->m_top * 100, k->aim);
		return -1;
	}
	if (invariant) {
		const char *what = "invariant: 1.25 x max_freq x util_est / 1024";
		int ret = check_request(pct, &k->su, f_max, what, ctl_max, &told);

		/* The inline control: no runaway, which the loop without has */
		if (pct < 80)
			return ret;
		if (nearer_model(pct, "share of the window at the top", top,
				 "the loop without invariance", k->o_top, k->f_top, TOP_APART))
			return -1;
		fi_info("  the control, the loop without invariance: %.0f%% at the top in its model; the CPU's %.0f%%, on the formula's side (%.0f%% of the samples), as it must be\n",
			k->o_top * 100, top * 100, k->f_top * 100);
		return ret;
	}
	/* Nearer this kernel's model than the other's */
	if (pct == KERNELS_PCT)
		return nearer_kernel(pct, above, top, k->m_above, k->m_top, k->o_above, k->o_top);
	/* At the top as the model runs away, not at the static formula */
	if (k->m_top >= 0.9) {
		if (nearer_model(pct, "share of the window at the top", top,
				 "the static formula 1.25 x w", 0, k->m_top, TOP_APART))
			return -1;
		fi_info("  the control, the static formula 1.25 x w: none at the top; the CPU's %.0f%%, on the model's side (%.0f%%), as it must be\n",
			top * 100, k->m_top * 100);
		return 0;
	}
	/* Nor stuck above c: nearer the model than a loop always there */
	if (nearer_model(pct, "share of the window above c", above, "the static formula", 0,
			 k->m_above, 0.1) ||
	    nearer_model(pct, "share of the window above c", above, "a loop stuck above c", 1,
			 k->m_above, 0.1))
		return -1;
	return 0;
}

static int feedback(unsigned int pct, unsigned int c)
{
	struct fb_case k = {
		.pct = pct, .c = c,
		.mc = {
			.min = plat.min, .top = plat.turbo[L1C], .step = STEP_MHZ, .cap = c,
			.f_ref = invariant ? f_ref_exact : 0, .period_us = PERIOD_US,
			.start_mhz = plat.turbo[L1C], .seed = 1, .kick_us = KICK_US,
			.cur_margin = cur_margin,
		},
	};

	k.aim = invariant ? (pct >= 80 ? "rest below the top where the loop without runs away" :
					 "rest below 0.8 c") :
		pct == KERNELS_PCT ? "tell the two kernels' formulas apart" :
		pct >= 80 ? "run away" : "swing apart from the static formula";
	if (run_case(&k))
		return -1;
	return judge(&k);
}

static int test_feedback(void)
{
	static const unsigned int pct[] = { 45, KERNELS_PCT, RESTING_PCT, 95 };
	int ret = KSFT_PASS;
	size_t i;

	fi_info("%s, c = f_2C = %u MHz, f_1C %u, 0.8 c = %.0f MHz; schedutil %s: %s\n",
		invariant ? "invariant" : "not invariant", plat.turbo[L2C], plat.turbo[L1C],
		0.8 * plat.turbo[L2C], cur_margin ? "of 6.8 and later" : "up to 6.7",
		cur_margin ? "not invariant, (f + f/4) x min(1.25 x util, 1024) / 1024" :
		"not invariant, 1.25 x f x util / 1024");
	for (i = 0; i < ARRAY_SIZE(pct); i++) {
		/*
		 * With invariance the kernels do not differ, and the loop
		 * rests at 95% of c only under the busy hold (judged from
		 * below): 84% instead; without, the runaway at 95% of c
		 */
		if (invariant ? pct[i] == KERNELS_PCT || pct[i] == 95 : pct[i] == RESTING_PCT)
			continue;
		if (feedback(pct[i], plat.turbo[L2C]))
			ret = KSFT_FAIL;
	}
	return ret;
}

static struct fi_test tests[] = {
	{ "schedutil_request_is_its_formula", test_fixed_point },
	{ "feedback_with_turbo_capped", test_feedback },
};

/*
 * The test CPU, the last of two or more, under intel_cpufreq with the
 * part's limits and schedutil available, its requests traced; f_max
 * cpuinfo's maximum (the 1-core turbo), ctl_max the inline control's
 */
static void setup_cpu(void)
{
	char buf[64], gov[256];
	const char *why;

	nr_cpus = dvfs_setup_cpus(cpus, ARRAY_SIZE(cpus), true, &why);
	if (nr_cpus < 0)
		ksft_exit_fail_msg("%s\n", why);
	if (nr_cpus < 2)
		ksft_exit_skip("needs two CPUs: the sampler must not share the task's\n");
	test_cpu = cpus[nr_cpus - 1];
	if (dvfs_cpufreq_read(test_cpu, "cpuinfo_max_freq", buf, sizeof(buf)))
		ksft_exit_fail_msg("cannot read CPU %d's cpuinfo_max_freq\n", test_cpu);
	f_max = strtoul(buf, NULL, 10) / 1000;
	if (f_max != plat.turbo[L1C])
		ksft_exit_fail_msg("cpuinfo_max_freq %u MHz, want the 1-core turbo %u\n", f_max,
				   plat.turbo[L1C]);
	ctl_max = f_ref && f_ref != f_max ? f_ref :
		  plat.turbo[L4C] != f_max ? plat.turbo[L4C] : plat.base;
	if (dvfs_cpufreq_read(test_cpu, "scaling_min_freq", buf, sizeof(buf)) ||
	    strtoul(buf, NULL, 10) != plat.min * 1000UL ||
	    dvfs_cpufreq_read(test_cpu, "scaling_max_freq", buf, sizeof(buf)) ||
	    strtoul(buf, NULL, 10) != plat.turbo[L1C] * 1000UL)
		ksft_exit_fail_msg("CPU %d's policy limits are not the part's, %u..%u MHz\n",
				   test_cpu, plat.min, plat.turbo[L1C]);
	if (dvfs_cpufreq_read(test_cpu, "scaling_driver", buf, sizeof(buf)) ||
	    strcmp(buf, "intel_cpufreq"))
		ksft_exit_skip("CPU %d: cpufreq driver %s, not intel_cpufreq, whose requests %s\n",
			       test_cpu, buf, "the expectations resolve");
	hwp = dvfs_hwp_enabled(test_cpu);
	fi_info("CPU %d under intel_cpufreq%s\n", test_cpu,
		!hwp ? "" : invariant ? " with HWP: schedutil writes HWP's desired ratio" :
		" with HWP, not invariant: schedutil's fast switch writes the request as HWP's minimum and desired ratios");
	atexit(dvfs_trace_stop);
	if (dvfs_trace_start())
		ksft_exit_fail_msg("cannot trace intel_pstate's requests (power:pstate_sample)\n");
	if (dvfs_cpufreq_read(test_cpu, "scaling_available_governors", gov, sizeof(gov)) ||
	    !strstr(gov, "schedutil"))
		ksft_exit_fail_msg("no schedutil on CPU %d (CONFIG_CPU_FREQ_GOV_SCHEDUTIL=n?)\n",
				   test_cpu);
}

/*
 * The controls a run can set, each making the test expect the wrong thing:
 * DVFS_SCHEDUTIL_CUR_MARGIN (the other kernel's formula),
 * DVFS_SCHEDUTIL_MAX (another max_freq in schedutil's formula) and
 * DVFS_SCHEDUTIL_RATE_LIMIT_US (another rate limit than the model's)
 */
static void read_controls(void)
{
	const char *env = getenv("DVFS_SCHEDUTIL_MAX");
	const char *rate_env = getenv("DVFS_SCHEDUTIL_RATE_LIMIT_US");
	const char *margin_env;

	cur_margin = fi_kernel_at_least(6, 8);
	margin_env = getenv("DVFS_SCHEDUTIL_CUR_MARGIN");
	if (margin_env) {
		if (strcmp(margin_env, "0") && strcmp(margin_env, "1"))
			ksft_exit_fail_msg("DVFS_SCHEDUTIL_CUR_MARGIN=%s: %s\n", margin_env,
					   "want 0 (6.1's formula) or 1 (6.8's)");
		cur_margin = *margin_env == '1';
		fi_info("control: the model and the bars take %s formula, not the running kernel's\n",
			cur_margin ? "6.8's" : "6.1's");
	}
	if (env) {
		char *end;
		unsigned long mhz = strtoul(env, &end, 10);

		if (end == env || *end || mhz < plat.min || mhz > plat.turbo[L1C])
			ksft_exit_fail_msg("DVFS_SCHEDUTIL_MAX=%s: want MHz in %u..%u\n", env,
					   plat.min, plat.turbo[L1C]);
		f_max = mhz;
		/* The inline control is then what the kernel uses: cpuinfo's */
		ctl_max = plat.turbo[L1C];
		fi_info("DVFS_SCHEDUTIL_MAX=%s: a control run%s\n", env,
			invariant ? "" : " (not invariant: nothing uses it)");
	}
	if (rate_env) {
		char *end;

		rate_ctl = strtod(rate_env, &end);
		if (end == rate_env || *end || rate_ctl < 1 || rate_ctl > 1e7)
			ksft_exit_fail_msg("DVFS_SCHEDUTIL_RATE_LIMIT_US=%s: want 1..10000000\n",
					   rate_env);
		fi_info("DVFS_SCHEDUTIL_RATE_LIMIT_US=%s: a control run, schedutil's rate limit set to that, the model's kept\n",
			rate_env);
	}
}

int main(void)
{
	struct fi_test plan[ARRAY_SIZE(tests)];
	uint64_t inv, kratio = 0;
	size_t n = 0;
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	dvfs_begin();
	if (dvfs_msrs.misc_enable & MISC_ENABLE_TURBO_DISABLE)
		ksft_exit_skip("turbo disabled: no turbo limit to cap two busy CPUs, and %s\n",
			       "the fixed point is the boots' with turbo");
	/* What the part calls for, and the kernel must agree with */
	ratio = dvfs_max_freq_ratio(&dvfs_msrs);
	invariant = ratio;
	if (fi_read_u64(FI_DEBUGFS "/invariant", &inv) ||
	    (inv && fi_read_u64(FI_DEBUGFS "/max_freq_ratio", &kratio)))
		ksft_exit_fail_msg("cannot read %s/invariant or max_freq_ratio\n", FI_DEBUGFS);
	if (!inv != !invariant || kratio != ratio)
		ksft_exit_fail_msg("kernel: invariant %llu, max_freq_ratio %llu; %s %u: %s %llu\n",
				   (unsigned long long)inv, (unsigned long long)kratio,
				   "the MSRs of model", dvfs_msrs.model,
				   invariant ? "invariant, max_freq_ratio" :
				   "not invariant, max_freq_ratio", (unsigned long long)ratio);
	/*
	 * Where the MSRs hide the turbo ratios (and the boot code refuses
	 * invariance), the part the boot names gives the limits (HWP's
	 * highest performance lets intel_cpufreq ask for the 1-core turbo)
	 */
	i = invariant ? 0 : dvfs_turbo_from_part();
	if (i < 0)
		ksft_exit_fail_msg("fi_platform= names another base or minimum than the MSRs'\n");
	if (i > 0)
		fi_info("turbo ratios hidden: the limits fi_platform= names, %u/%u/%u/%u MHz\n",
			plat.turbo[L1C], plat.turbo[L2C], plat.turbo[L4C], plat.turbo[LAC]);
	if (invariant) {
		/* The limit it is computed from: ratio = f x 1024 / base, rounded down */
		f_ref_exact = ratio * plat.base / 1024.0;
		f_ref = lround(f_ref_exact / STEP_MHZ) * STEP_MHZ;
	}
	setup_cpu();
	read_controls();
	if (invariant)
		fi_info("model %u: %u..%u MHz, invariant, reference %u MHz (max_freq_ratio %llu); the expectation's max_freq %u\n",
			dvfs_msrs.model, plat.min, plat.turbo[L1C], f_ref,
			(unsigned long long)ratio, f_max);
	else
		fi_info("model %u: %u..%u MHz, not invariant (its turbo ratios read 0)\n",
			dvfs_msrs.model, plat.min,
			plat.turbo[L1C]);
	/* The fixed point needs invariance; the feedback a cap below the top */
	if (invariant)
		plan[n++] = tests[0];
	else
		fi_info("%s: needs invariance\n", tests[0].name);
	if (hwp && invariant)
		fi_info("%s: not under HWP with invariance, whose adjust_perf() the model has not\n",
			tests[1].name);
	else if (nr_cpus == 2 && plat.turbo[L2C] < plat.turbo[L1C])
		plan[n++] = tests[1];
	else
		fi_info("%s: no %s\n", tests[1].name, nr_cpus == 2 ?
			"2-core turbo limit below the 1-core turbo on this platform" :
			"cap at the 2-core limit: other than two CPUs");
	if (!n)
		ksft_exit_skip("invariance off, and %s\n",
			       "no turbo cap for two busy CPUs: nothing to test");
	atexit(restore_rate_limit);
	atexit(stop_task);
	fi_run_tests(plan, n);
}
