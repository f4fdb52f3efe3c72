// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU at frequency f runs at f / f_1C of its speed at the 1-core turbo
 * f_1C, as a core's clock means, judged from the architectural interfaces
 * only: the part from MSR_PLATFORM_INFO and MSR_TURBO_RATIO_LIMIT (in the
 * model's layout), the frequency set through cpufreq's policy limits and
 * read back by APERF/MPERF, time by the clock. On QEMU's DVFS platform
 * (x-dvfs, whose slowdown is on unless x-dvfs-slowdown=off) the slowdown
 * is exact under -icount, which such a boot says with fi_icount on the
 * command line: the bar is then 0.5%; else (multi-threaded TCG on an
 * otherwise idle host, or hardware, for a loop that stays in the core)
 * 5%.
 *
 *  - fixed_work_takes_f1c_over_f: a counted loop, alone busy on its CPU,
 *    at four frequencies below the 1-core turbo (the minimum, between it
 *    and the base, the base, and the 2-core limit, or midway from the base
 *    to the 1-core turbo where the two are equal) takes f_ref / f times as
 *    long as with its limits at the 1-core turbo, f and f_ref the runs'
 *    frequencies by APERF/MPERF (f_1C / f where the CPU ran alone at
 *    f_1C: another CPU in C0 lowers its turbo limit). Under -icount that
 *    is the loop's own time, without the iterations interrupts took (steps
 *    longer than GAP_US); on the host's clock, where QEMU's waits are such
 *    steps too, the whole time, (1 - L) / (f / f_ref - L) times as long,
 *    L the share of the time at f_ref the loop lost to interrupts (which a
 *    CPU at f also serves, more slowly). Each run at
 *    f is timed between two at f_ref, after the other CPUs were out of C0
 *    for 95% of 50 ms and short runs at f_1C agreed (the CPU alone busy,
 *    what else ran on it over: preconditions waited for, counted). The
 *    three runs are repeated, up to ALONE_TRIES times, counted, where the
 *    task did not have the CPU for all but the bar of a run (another task
 *    ran), and never for their times; under -icount references that
 *    disagree by more than the bar, the task alone, fail. The references
 *    must run at the 2-core limit at least, each run at f at f, by
 *    APERF/MPERF within 1% (the premises).
 *    Under -icount one such triple per frequency is judged; else the
 *    median of TRIPLES_MAX, the host's clock being noisy. The inline
 *    control: the same times judged as a CPU that does not slow down, and
 *    as one at full speed from the base up, must miss wherever those
 *    hypotheses are apart from the right one by twice the bar, and each
 *    must be so somewhere;
 *  - timer_wakeups_are_not_held: a SCHED_FIFO task woken by a timer every
 *    10 ms on a CPU that a busy task keeps in C0 wakes, at the
 *    minimum frequency, no later than f_1C / f_min times its slowest
 *    wake-up at f_1C (the wake-up's own work, done at f) within the bar,
 *    plus, on the host's clock, one slice of QEMU's pacing
 *    (PACE_SLICE_US), for 90% of WAKEUPS wake-ups: an interrupt is not
 *    held for the time the CPU owes its slowdown. The CPU's frequency by
 *    APERF/MPERF over each phase is the premise, as above. The
 *    inline control: the median wake-up at f_min must be nearer f_1C /
 *    f_min times the one at f_1C than the one at f_1C (a CPU that does not
 *    slow down).
 *
 * Skips, saying why, on a CPU that is not Intel's, without APERF/MPERF
 * in CPUID (a VM without a platform), and without a cpufreq policy.
 * Runs on the last online CPU; its limits are restored on exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"
#include "dvfs_util.h"

#define RUN_MS		100	/* the work's length at f_1C */
#define TOL_ICOUNT	0.005	/* the slowdown under -icount: exact */
#define TOL_TIMED	0.05	/* under multi-threaded TCG, or on hardware */
#define RATIO_TOL	0.01	/* a run's frequency by APERF/MPERF */
#define GAP_US		2	/* an iteration this long was interrupted */
#define ALONE_TRIES	5	/* triples where another task ran */
#define TRIPLES_MAX	5	/* timed on the host's clock: the median of as many */
/* The other CPUs' share of C0 (MPERF over the TSC) for the CPU to be alone */
#define QUIET_C0	0.05
#define QUIET_US	50000
#define QUIET_TRIES	100
#define SETTLE_RUNS	50	/* short runs before a triple, for the CPU to settle */
#define WAKEUPS		200
#define PERIOD_NS	10000000
/* QEMU's pacing slice (accel/tcg: a slowed vCPU leaves its TB loop as often) */
#define PACE_SLICE_US	200
#define MAX_CPUS	64

static unsigned int model, base, min_ratio, top, two;	/* ratios (100 MHz) */
static int test_cpu, cpus[MAX_CPUS], nr_cpus;
static double tol;
static int triples;	/* per frequency: 1 under -icount, whose runs repeat exactly */
static struct {
	char min[32], max[32];
	bool saved;
} saved;

struct run {
	double ms;	/* the work's time */
	double cpu_ms;	/* this task's CPU time meanwhile */
	double lost;	/* the share of it in iterations longer than GAP_US */
	double ratio;	/* the CPU's mean ratio by APERF/MPERF */
};

/* Both of the test CPU's limits at @ratio, the minimum lowered first */
static int set_ratio(unsigned int ratio)
{
	if (!saved.saved) {
		if (dvfs_cpufreq_read(test_cpu, "scaling_min_freq", saved.min,
				      sizeof(saved.min)) ||
		    dvfs_cpufreq_read(test_cpu, "scaling_max_freq", saved.max,
				      sizeof(saved.max))) {
			fi_err("CPU %d: cannot read its policy limits", test_cpu);
			return -1;
		}
		saved.saved = true;
	}
	if (dvfs_cpufreq_write_khz(test_cpu, "scaling_min_freq", min_ratio * 100000) ||
	    dvfs_cpufreq_write_khz(test_cpu, "scaling_max_freq", ratio * 100000) ||
	    dvfs_cpufreq_write_khz(test_cpu, "scaling_min_freq", ratio * 100000))
		return -1;
	fi_sleep_us(20000);	/* the governor's next update */
	return 0;
}

static void restore(void)
{
	if (!saved.saved)
		return;
	dvfs_cpufreq_write_khz(test_cpu, "scaling_min_freq", min_ratio * 100000);
	dvfs_cpufreq_write(test_cpu, "scaling_max_freq", saved.max);
	dvfs_cpufreq_write(test_cpu, "scaling_min_freq", saved.min);
	saved.saved = false;
}

static double task_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * Count to @n, 16 at a time, reading the TSC at each step: the time it
 * took, the share of it spent in steps longer than GAP_US (interrupts),
 * and the CPU's ratio by APERF/MPERF meanwhile (read before and after,
 * outside the timed loop).
 */
static int count(unsigned long n, struct run *r)
{
	uint64_t a0, m0, a1, m1, b, c0, prev, now, gaps = 0, gap, t0;
	double per_us;
	unsigned long i;
	int j;

	/* The TSC's rate from a 1 ms sample: fine enough for the threshold */
	t0 = fi_now_us();
	c0 = dvfs_tsc();
	do
		now = dvfs_tsc();
	while (fi_now_us() - t0 < 1000);
	per_us = (now - c0) / (double)(fi_now_us() - t0);
	gap = GAP_US * per_us;

	if (dvfs_read_am(test_cpu, &a0, &m0, &b))
		return -1;
	r->cpu_ms = task_ms();
	t0 = fi_now_us();
	c0 = dvfs_tsc();
	prev = c0;
	for (i = 0; i < n; ) {
		/* Counted one by one: the compiler may not fold the loop */
		for (j = 0; j < 16; j++)
			asm volatile("inc %0" : "+r" (i));
		now = dvfs_tsc();
		if (now - prev > gap)
			gaps += now - prev;
		prev = now;
	}
	r->ms = (fi_now_us() - t0) / 1000.0;
	r->cpu_ms = task_ms() - r->cpu_ms;
	r->lost = (double)gaps / (now - c0);
	if (dvfs_read_am(test_cpu, &a1, &m1, &b) || m1 <= m0)
		return -1;
	r->ratio = (double)base * (a1 - a0) / (m1 - m0);
	return 0;
}

/*
 * The work at @ratio: a twentieth untimed first, so that the CPU is there.
 * At a ratio no higher than the 2-core limit, the CPU runs at it (the
 * premise); above, another CPU in C0 meanwhile lowers its cap.
 */
static int work_at(unsigned int ratio, unsigned long n, struct run *r)
{
	if (set_ratio(ratio) || count(n / 20, r) || count(n, r))
		return -1;
	if (ratio <= two && fabs(r->ratio - ratio) > RATIO_TOL * ratio) {
		fi_err("the CPU ran at %.0f MHz by APERF/MPERF, its limits %u MHz (the premise)",
		       r->ratio * 100, ratio * 100);
		return -1;
	}
	return 0;
}

/*
 * Wait until the other CPUs are out of C0 for all but QUIET_C0 of
 * QUIET_US (MPERF over the TSC), the premise of a CPU alone busy; the
 * waits are counted in *@waits. -1 when they never were.
 */
static int wait_quiet(int *waits)
{
	uint64_t m0[MAX_CPUS], m1, t0, t1;
	double worst = 0;
	int i, tries;

	for (tries = 0; tries < QUIET_TRIES; tries++) {
		t0 = dvfs_tsc();
		for (i = 0; i < nr_cpus - 1; i++)
			if (dvfs_msr_read(cpus[i], MSR_IA32_MPERF, &m0[i]))
				return -1;
		fi_sleep_us(QUIET_US);
		worst = 0;
		for (i = 0; i < nr_cpus - 1; i++) {
			if (dvfs_msr_read(cpus[i], MSR_IA32_MPERF, &m1))
				return -1;
			t1 = dvfs_tsc();
			worst = fmax(worst, (double)(m1 - m0[i]) / (t1 - t0));
		}
		if (worst < QUIET_C0)
			return 0;
		(*waits)++;
	}
	fi_err("the other CPUs never left C0 for %.0f%% of %d ms (%.0f%% the last time)",
	       (1 - QUIET_C0) * 100, QUIET_US / 1000, worst * 100);
	return -1;
}

/*
 * Short runs at f_1C until two in a row agree within half the bar with the
 * task alone on its CPU (what else ran there, the tail of another task,
 * is over), counted in *@waits; -1 when that never happened
 */
static int settle(unsigned long n, int *waits)
{
	struct run p, q;
	int i;

	if (work_at(top, n / 8, &p))
		return -1;
	for (i = 0; i < SETTLE_RUNS; i++) {
		if (work_at(top, n / 8, &q))
			return -1;
		if (fabs(p.ms - q.ms) <= tol / 2 * q.ms && p.cpu_ms >= p.ms * (1 - tol) &&
		    q.cpu_ms >= q.ms * (1 - tol))
			return 0;
		(*waits)++;
		p = q;
	}
	fi_err("the CPU never settled: %d short runs at %u MHz, each unlike the one before or not the task's alone",
	       SETTLE_RUNS, top * 100);
	return -1;
}

/* Hypotheses @x and @y apart by twice the bar */
static bool separate(double x, double y)
{
	return fabs(x - y) > 2 * tol * fmin(x, y);
}

/* Work at speed @s (of the reference's) over the reference's time, with interrupts @lost */
static double slowed(double s, double lost)
{
	return (1 - lost) / (s - lost);
}

/* The median of @n values (reordered) */
static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), fi_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * One run at @ratio timed between two at the 1-core turbo, with the
 * other CPUs out of C0 first and the CPU settled (settle()): the three
 * runs again (counted in *@again, up to ALONE_TRIES times) where another
 * task took the CPU from the work (its CPU time below its time by more
 * than the bar: a precondition); under -icount references that disagree
 * by more than the bar, the task alone, fail.
 * The references must run at the 2-core limit at least (the premise).
 * The run's time over theirs in *@got, and what the hypotheses predict: the
 * frequencies' ratio (*@want), no slowdown (*@native), full speed from
 * the base up (*@at_base). -1 when a precondition never held, or a run
 * failed.
 */
static int triple(unsigned int ratio, unsigned long n, int *again, int *waits, double *got,
		  double *want, double *native, double *at_base)
{
	double f_ref, lost, t_ref;
	struct run a, b, r;
	int tries;

	for (tries = 1; ; tries++) {
		bool alone;

		/* The lines printed so far are out: their readers run on CPU 0 */
		fi_drain_output();
		if (wait_quiet(waits) || settle(n, waits) || work_at(top, n, &a) ||
		    work_at(ratio, n, &r) || work_at(top, n, &b))
			return -1;
		alone = a.cpu_ms >= a.ms * (1 - tol) && b.cpu_ms >= b.ms * (1 - tol) &&
			r.cpu_ms >= r.ms * (1 - tol);
		/*
		 * Under -icount, the work's own time: without the interrupts,
		 * whose count over a run is not the work's (nothing else is
		 * paced there)
		 */
		if (triples == 1) {
			a.ms *= 1 - a.lost;
			b.ms *= 1 - b.lost;
			r.ms *= 1 - r.lost;
		}
		t_ref = (a.ms + b.ms) / 2;
		if (alone)
			break;
		fi_info("%u MHz: the task ran %.0f%%, %.0f%% and %.0f%% of the three runs: another task ran, again\n",
			ratio * 100, 100 * a.cpu_ms / a.ms, 100 * r.cpu_ms / r.ms,
			100 * b.cpu_ms / b.ms);
		(*again)++;
		if (tries == ALONE_TRIES) {
			fi_err("%u MHz: %d times another task ran during the three runs",
			       ratio * 100, tries);
			return -1;
		}
	}
	/*
	 * Under -icount the speed is the platform's alone: references that
	 * disagree fail. On the host's clock they are judged as they came
	 * (the median of the triples takes the host's noise)
	 */
	if (triples == 1 && fabs(a.ms - b.ms) > t_ref * tol) {
		fi_err("%u MHz: the same work at %u MHz took %.3f, then %.3f ms, the task alone on its CPU: the platform's speed moved (b - a %+.3f ms)",
		       ratio * 100, top * 100, a.ms, b.ms, b.ms - a.ms);
		return -1;
	}
	lost = triples == 1 ? 0 : (a.lost + b.lost) / 2;
	f_ref = (a.ratio + b.ratio) / 2;
	if (f_ref < two * (1 - RATIO_TOL)) {
		fi_err("the runs with the limits at %u MHz ran at %.0f MHz by APERF/MPERF, below the 2-core limit %u MHz (the premise)",
		       top * 100, f_ref * 100, two * 100);
		return -1;
	}
	*want = slowed(r.ratio / f_ref, lost);
	*native = 1;
	*at_base = slowed(fmin(r.ratio / base, 1) / fmin(f_ref / base, 1), lost);
	*got = r.ms / t_ref;
	fi_info("%u MHz (by APERF/MPERF %.0f): %.3f ms, %.4f x the %.3f ms at %.0f MHz (by APERF/MPERF); want %.4f (f_ref / f = %.4f, interrupts %.2f%%); no slowdown 1, full speed from the base up %.4f\n",
		ratio * 100, r.ratio * 100, r.ms, *got, t_ref, f_ref * 100, *want,
		f_ref / r.ratio, lost * 100, *at_base);
	return 0;
}

static int test_fixed_work(void)
{
	unsigned int f[4] = { min_ratio, (min_ratio + base) / 2, base,
			      two < top ? two : (base + top) / 2 };
	unsigned long n = 1000000;
	int i, j, bad = 0, again = 0, waits = 0, told_native = 0, told_base = 0;
	struct run a;

	/* n such that the loop takes about RUN_MS at f_1C, the CPU alone */
	if (wait_quiet(&waits) || work_at(top, n, &a))
		goto fail;
	while (a.ms < RUN_MS / 4.0) {
		n *= 4;
		if (work_at(top, n, &a))
			goto fail;
	}
	n = n * (RUN_MS / a.ms);

	for (i = 0; i < 4; i++) {
		double q[TRIPLES_MAX], qn[TRIPLES_MAX], qb[TRIPLES_MAX];
		double want = 0, native = 0, at_base = 0;
		double got, mq, mqn, mqb;

		for (j = 0; j < triples; j++) {
			if (triple(f[i], n, &again, &waits, &got, &want, &native, &at_base))
				goto fail;
			q[j] = got / want;
			qn[j] = got / native;
			qb[j] = got / at_base;
		}
		mq = median(q, triples);
		mqn = median(qn, triples);
		mqb = median(qb, triples);
		fi_info("%u MHz: the median of %d runs took %.4f x as long as the frequencies' ratio predicts, %.4f x no slowdown, %.4f x full speed from the base up\n",
			f[i] * 100, triples, mq, mqn, mqb);
		if (fabs(mq - 1) > tol) {
			fi_err("%u MHz: the work took %.4f x as long as the frequencies' ratio predicts, want 1 +- %.1f%%",
			       f[i] * 100, mq, tol * 100);
			bad = 1;
		}
		/*
		 * The inline control: a wrong hypothesis must miss wherever it
		 * is apart from the right one (by twice the bar), somewhere
		 */
		if (separate(want, native)) {
			told_native = 1;
			if (fabs(mqn - 1) <= tol) {
				fi_err("%u MHz: the work also fits a CPU that does not slow down",
				       f[i] * 100);
				bad = 1;
			}
		}
		if (separate(want, at_base)) {
			told_base = 1;
			if (fabs(mqb - 1) <= tol) {
				fi_err("%u MHz: the work also fits full speed from the base up",
				       f[i] * 100);
				bad = 1;
			}
		}
	}
	if (!told_native || !told_base) {
		fi_err("no frequency tells the slowdown from %s", !told_native ?
		       "none at all" : "full speed from the base up");
		bad = 1;
	}
	fi_info("%d triple%s of runs repeated; %d wait%s for the other CPUs to leave C0 (%d ms) or for the CPU to settle (a short run)\n",
		again, again == 1 ? "" : "s", waits, waits == 1 ? "" : "s", QUIET_US / 1000);
	restore();
	return bad ? KSFT_FAIL : KSFT_PASS;
fail:
	restore();
	return KSFT_FAIL;
}

/*
 * WAKEUPS wake-ups of this task, SCHED_FIFO, every PERIOD_NS on the test
 * CPU at @ratio, beside a busy task there: their latencies (us) sorted
 */
static int wakeups(unsigned int ratio, double *lat)
{
	struct sched_param sp = { .sched_priority = 50 }, sp0 = { 0 };
	uint64_t a0, m0, a1, m1, b;
	struct timespec t, now;
	pid_t spinner;
	double f;
	int i, ret = 0;

	fi_drain_output();
	if (set_ratio(ratio))
		return -1;
	spinner = fi_spawn_spinner(test_cpu);
	if (spinner < 0) {
		fi_err("cannot start a busy task on CPU %d", test_cpu);
		return -1;
	}
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		fi_err("cannot make this task SCHED_FIFO: %s", strerror(errno));
		fi_reap(spinner);
		return -1;
	}
	fi_sleep_us(20000);
	if (dvfs_read_am(test_cpu, &a0, &m0, &b))
		ret = -1;
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (i = 0; i < WAKEUPS; i++) {
		t.tv_nsec += PERIOD_NS;
		if (t.tv_nsec >= 1000000000) {
			t.tv_nsec -= 1000000000;
			t.tv_sec++;
		}
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL)) {
			ret = -1;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		lat[i] = (now.tv_sec - t.tv_sec) * 1e6 + (now.tv_nsec - t.tv_nsec) / 1e3;
	}
	if (!ret && (dvfs_read_am(test_cpu, &a1, &m1, &b) || m1 <= m0))
		ret = -1;
	sched_setscheduler(0, SCHED_OTHER, &sp0);
	fi_reap(spinner);
	if (ret) {
		fi_err("clock_nanosleep or the APERF/MPERF reads failed");
		return ret;
	}
	/* The premise: the CPU ran at @ratio (at least the 2-core limit above it) */
	f = (double)base * (a1 - a0) / (m1 - m0);
	if (ratio <= two ? fabs(f - ratio) > RATIO_TOL * ratio : f < two * (1 - RATIO_TOL)) {
		fi_err("the CPU ran at %.0f MHz by APERF/MPERF, its limits %u MHz (the premise)",
		       f * 100, ratio * 100);
		return -1;
	}
	qsort(lat, WAKEUPS, sizeof(*lat), fi_cmp_double);
	return ret;
}

static int test_wakeups(void)
{
	static double fast[WAKEUPS], slow[WAKEUPS];
	double k = (double)top / min_ratio, p99f, p99s, bar;

	if (wakeups(top, fast) || wakeups(min_ratio, slow)) {
		restore();
		return KSFT_FAIL;
	}
	restore();
	p99f = fast[WAKEUPS * 99 / 100];
	p99s = slow[WAKEUPS * 99 / 100];
	/*
	 * Each wake-up at f_min is one at f_1C done k times as slowly: 90% of
	 * them within k times the slowest at f_1C (a tenth left for kinds of
	 * wake-ups too rare for f_1C's sample to hold). Under -icount nothing is paced; on the
	 * host's clock one slice of QEMU's pacing more.
	 */
	bar = k * fast[WAKEUPS - 1] * (1 + tol) + (triples == 1 ? 0 : PACE_SLICE_US);
	fi_info("wake-up latency at %u MHz: 10%% %.1f, median %.1f, 90%% %.1f, 99%% %.1f, max %.1f us\n",
		top * 100, fast[WAKEUPS / 10], fast[WAKEUPS / 2], fast[WAKEUPS * 9 / 10], p99f,
		fast[WAKEUPS - 1]);
	fi_info("wake-up latency at %u MHz: 10%% %.1f, median %.1f, 90%% %.1f, 99%% %.1f, max %.1f us; bar %.1f us (%.3f x %.1f x (1 + %.3f) + %d)\n",
		min_ratio * 100, slow[WAKEUPS / 10], slow[WAKEUPS / 2], slow[WAKEUPS * 9 / 10],
		p99s, slow[WAKEUPS - 1], bar, k, fast[WAKEUPS - 1], tol,
		triples == 1 ? 0 : PACE_SLICE_US);
	if (slow[WAKEUPS * 9 / 10] > bar) {
		fi_err("90%% of the wake-ups at %u MHz within %.1f us, want at most %.1f",
		       min_ratio * 100, slow[WAKEUPS * 9 / 10], bar);
		return KSFT_FAIL;
	}
	/*
	 * The inline control: the wake-up's work is the CPU's, so its median
	 * at f_min is nearer f_1C / f_min times the one at f_1C than the one
	 * at f_1C itself, as on a CPU that does not slow down
	 */
	if (fabs(slow[WAKEUPS / 2] - k * fast[WAKEUPS / 2]) >=
	    fabs(slow[WAKEUPS / 2] - fast[WAKEUPS / 2])) {
		fi_err("the median wake-up at %u MHz, %.1f us, is nearer the %.1f at %u MHz than %.3f x that: the CPU did not slow down",
		       min_ratio * 100, slow[WAKEUPS / 2], fast[WAKEUPS / 2], top * 100, k);
		return KSFT_FAIL;
	}
	return KSFT_PASS;
}

static const struct fi_test tests[] = {
	{ "fixed_work_takes_f1c_over_f", test_fixed_work },
	{ "timer_wakeups_are_not_held", test_wakeups },
};

int main(void)
{
	uint64_t plat_info, trl, trl1 = 0;
	const char *why;
	char gov[32];
	int n;

	ksft_print_header();
	why = dvfs_intel_aperfmperf(&model);
	if (why)
		ksft_exit_skip("%s\n", why);
	n = fi_online_cpus(cpus, MAX_CPUS);
	if (n < 1)
		ksft_exit_fail_msg("no online CPUs\n");
	nr_cpus = n;
	test_cpu = cpus[n - 1];
	if (dvfs_cpufreq_read(test_cpu, "scaling_governor", gov, sizeof(gov)))
		ksft_exit_skip("no cpufreq policy on CPU %d\n", test_cpu);
	if (dvfs_msr_read(0, MSR_PLATFORM_INFO, &plat_info) ||
	    dvfs_msr_read(0, MSR_TURBO_RATIO_LIMIT, &trl) ||
	    (dvfs_trl_groups(model) && dvfs_msr_read(0, MSR_TURBO_RATIO_LIMIT1, &trl1)))
		ksft_exit_fail_msg("cannot read the MSRs through /dev/cpu/0/msr (%s)\n",
				   "CONFIG_X86_MSR, root");
	base = (plat_info >> 8) & 0xff;
	min_ratio = (plat_info >> 48) & 0xff;
	top = dvfs_trl_limit(model, trl, trl1, 1);
	two = dvfs_trl_limit(model, trl, trl1, 2);
	if (!top || top <= base || min_ratio >= base)
		ksft_exit_fail_msg("ratios min %u, base %u, 1-core %u: %s\n", min_ratio,
				   base, top, "no frequency below the base and above it");
	tol = dvfs_cmdline_has("fi_icount") ? TOL_ICOUNT : TOL_TIMED;
	triples = tol == TOL_ICOUNT ? 1 : TRIPLES_MAX;
	if (fi_pin_self(test_cpu))
		ksft_exit_fail_msg("cannot pin to CPU %d: %s\n", test_cpu, strerror(errno));
	fi_info("CPU %d: ratios min %u, base %u, 1-core %u, 2-core %u; bar %.1f%%%s\n", test_cpu,
		min_ratio, base, top, two, tol * 100,
		tol == TOL_ICOUNT ? " (fi_icount: the slowdown is exact)" : "");
	atexit(restore);
	fi_run_tests(tests, ARRAY_SIZE(tests));
	return 0;
}
