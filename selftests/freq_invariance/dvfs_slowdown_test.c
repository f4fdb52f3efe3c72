// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated DVFS platform's CPUs run at their effective frequency
 * (CONFIG_X86_DVFS_EMULATION, booted with dvfs_emu=): a fixed amount of
 * work, a counted loop, on a CPU alone busy (its turbo limit the 1-core
 * turbo) takes f_1C / f as long at frequency f, requested through the
 * platform's cpufreq driver and its userspace governor, at 8 frequencies
 * from the minimum to the 1-core turbo.
 *
 * Wall-clock slowdown needs a vCPU whose speed is steady: under QEMU TCG
 * without -icount it follows the host's load (by up to 20% between
 * identical runs on a 2-CPU host), so make test runs this in a boot of
 * its own with -icount, where the guest's clock counts instructions. The
 * test checks that first, and fails saying so when it is not.
 *
 * Skips, as expected, in a boot without dvfs_emu=.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"
#include "dvfs_util.h"

#define RUN_MS		50	/* the work's length at the 1-core turbo */
#define TOL		0.03
#define STEADY		0.01	/* identical runs agree within 1% */
#define GAP_US		2	/* an iteration this long was interrupted */
#define QUIET		0.10	/* the tick takes less: more is another task */
#define TRIES		10	/* the tail of the boot may run: an empirical margin */

static int cpus[64], nr_cpus, test_cpu;

struct run {
	double ms;		/* wall-clock time of the work */
	double cpu_ms;		/* the task's CPU time meanwhile */
	double lost;		/* the fraction of it the loop did not run */
};

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * Count to @n, 16 at a time, reading the TSC at each step: the time it
 * took, and the fraction of it spent in steps longer than GAP_US, i.e.
 * in interrupts (the tick, and the slowdown's spinning in it).
 */
static struct run count(unsigned long n)
{
	uint64_t t0 = fi_now_us(), c0 = __rdtsc(), prev, now = c0, gaps = 0;
	unsigned long i;
	struct run r;
	double per_us;
	uint64_t gap;
	int j;

	/* The TSC's rate from a 1 ms sample: fine enough for the threshold */
	while (fi_now_us() - t0 < 1000)
		now = __rdtsc();
	per_us = (now - c0) / (double)(fi_now_us() - t0);
	gap = GAP_US * per_us;

	r.cpu_ms = cpu_ms();
	t0 = fi_now_us();
	c0 = __rdtsc();
	prev = c0;
	for (i = 0; i < n; ) {
		/* Counted one by one: the compiler may not fold the loop */
		for (j = 0; j < 16; j++)
			asm volatile("inc %0" : "+r" (i));
		now = __rdtsc();
		if (now - prev > gap)
			gaps += now - prev;
		prev = now;
	}
	r.ms = (fi_now_us() - t0) / 1000.0;
	r.cpu_ms = cpu_ms() - r.cpu_ms;
	r.lost = (double)gaps / (now - c0);
	return r;
}

/*
 * Each frequency's run is timed between two at the 1-core turbo, which
 * must agree within 1% (the vCPU is steady) and lose less than 10% of
 * their time (the tick alone takes about 2%), and the task must have run
 * for all of the run at f; else, as when another task ran on the CPU
 * meanwhile (the tail of the boot), the three are measured again, TRIES times
 * at most. Each run starts with
 * 5% of the loop untimed at its frequency: the slowdown is paid at ticks
 * (1 ms at HZ=1000), and what a run's last partial tick owes is paid at
 * the next tick the CPU runs a task.
 *
 * The expectation: at the 1-core turbo the loop runs 1 - L of the time,
 * the rest (L, measured) goes to the tick, whose work a CPU at f also
 * does and at f takes f_1C / f as long. So the work W = (1 - L) t_1C =
 * (f / f_1C - L) t_f, and t_f / t_1C = (1 - L) / (f / f_1C - L), which
 * is f_1C / f when the tick costs nothing. Under -icount shift=0 the
 * tick's L is about 1.6%. The spinning is the running task's time, as on
 * a slow CPU: its CPU time is the run's wall-clock time.
 */
static int test_slowdown(void)
{
	unsigned int fmax = plat.turbo[L1C], f[8];
	unsigned long n = 1000000;
	int ret = KSFT_PASS, i;
	struct run a, b, r;

	for (i = 0; i < 8; i++)
		f[i] = (plat.min + (fmax - plat.min) * i / 7) / 100 * 100;
	/* No other CPU owes time (spinning vCPUs take the host's CPUs) */
	for (i = 0; i < nr_cpus; i++)
		if (dvfs_set_req(cpus[i], fmax))
			return KSFT_FAIL;
	/* n such that the loop takes about RUN_MS at the 1-core turbo */
	for (i = 0; i < 10; i++) {
		a = count(n);
		if (a.ms >= RUN_MS / 4.0)
			break;
		n *= 4;
	}
	/* Again, on the quieter of two runs (the tail of the boot may run) */
	n = n * (RUN_MS / a.ms);
	a = count(n);
	b = count(n);
	n = n * (RUN_MS / (a.ms < b.ms ? a.ms : b.ms));

	for (i = 0; i < 8; i++) {
		double r_f = (double)f[i] / fmax, lost, t_ref, want, got;
		int k;

		for (k = 0; k < TRIES; k++) {
			count(n / 20);
			a = count(n);
			if (dvfs_set_req(test_cpu, f[i]))
				return KSFT_FAIL;
			count(n / 20);
			r = count(n);
			if (dvfs_set_req(test_cpu, fmax))
				return KSFT_FAIL;
			count(n / 20);
			b = count(n);
			t_ref = (a.ms + b.ms) / 2;
			if (fabs(a.ms - b.ms) <= t_ref * STEADY && a.lost < QUIET &&
			    b.lost < QUIET && r.cpu_ms >= r.ms * (1 - TOL))
				break;
			fi_info("%u MHz: %.2f and %.2f ms at %u MHz (%.1f%% and %.1f%% lost), the task ran %.2f of %.2f ms at %u: again\n",
				f[i], a.ms, b.ms, fmax, a.lost * 100, b.lost * 100, r.cpu_ms,
				r.ms, f[i]);
		}
		lost = (a.lost + b.lost) / 2;
		want = (1 - lost) / (r_f - lost);
		got = r.ms / t_ref;
		fi_info("%u MHz: %.2f ms (the task ran %.2f), %.4f x the %.2f ms at %u MHz (want %.4f: %u / f = %.4f, the tick %.2f%%)\n",
			f[i], r.ms, r.cpu_ms, got, t_ref, fmax, want, fmax, 1 / r_f, lost * 100);
		if (k == TRIES && (fabs(a.ms - b.ms) > t_ref * STEADY || a.lost >= QUIET ||
				   b.lost >= QUIET)) {
			fi_err("%u MHz: the vCPU's speed is not steady, or other tasks ran: the same work took %.2f, then %.2f ms at %u MHz (QEMU TCG without -icount?)",
			       f[i], a.ms, b.ms, fmax);
			ret = KSFT_FAIL;
		} else if (fabs(got - want) > want * TOL) {
			fi_err("%u MHz: the work took %.4f x as long as at %u MHz, want %.4f +- %.0f%%",
			       f[i], got, fmax, want, TOL * 100);
			ret = KSFT_FAIL;
		}
		/* The spinning is the task's time (with IRQ time accounting: f/f_1C) */
		if (r.cpu_ms < r.ms * (1 - TOL)) {
			fi_err("%u MHz: the task ran %.2f ms of the %.2f it took, want all of it +- %.0f%%",
			       f[i], r.cpu_ms, r.ms, TOL * 100);
			ret = KSFT_FAIL;
		}
	}
	return ret;
}

static const struct fi_test tests[] = {
	{ "cpus_run_at_their_frequency", test_slowdown },
};

int main(void)
{
	const char *why;

	dvfs_begin();
	nr_cpus = dvfs_setup_cpus(cpus, ARRAY_SIZE(cpus), false, &why);
	if (nr_cpus < 0)
		ksft_exit_fail_msg("%s\n", why);
	test_cpu = cpus[nr_cpus - 1];
	if (fi_pin_self(test_cpu))
		ksft_exit_fail_msg("cannot pin to CPU %d: %m\n", test_cpu);
	fi_info("platform %s: %u..%u MHz; CPU %d of %d\n", plat.name, plat.min,
		plat.turbo[L1C], test_cpu, nr_cpus);
	fi_run_tests(tests, ARRAY_SIZE(tests));
}
