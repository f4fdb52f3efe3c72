// SPDX-License-Identifier: GPL-2.0
/*
 * PELT utilization end to end: a CPU-bound task's util_avg rises to near
 * SCHED_CAPACITY_SCALE, and an idle task's decays to near zero, at the
 * rates PELT's half-life gives. The half-life is 32 periods of 1024 PELT
 * units of 1024 ns (___update_load_sum() shifts its delta right by 10):
 * H = 33.554 ms of the rq's clock, not 32 ms.
 *
 * util_avg of a task that always runs, from u0:  u(t) = 1024 - (1024 - u0) * 2^(-t/H)
 * util_avg of a task that sleeps, from u0:       u(t) = u0 * 2^(-t/H)
 *
 * Needs CONFIG_SCHED_DEBUG (/proc/PID/sched) and two CPUs: the task under
 * test is pinned to one, the sampler to another.
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
#include "pelt_model.h"

#define PELT_HALFLIFE_MS	(PELT_HALFLIFE * PELT_PERIOD_US / 1000)
#define PELT_PERIOD_MS		(PELT_PERIOD_US / 1000)
#define TICK_MS			(PELT_TICK_US / 1000.0)
/*
 * "busy": util_avg above this. Not higher: each ms the task is off its CPU
 * (a kworker, more of them on a KASAN kernel) costs about u / (1024 - u) ms
 * of running to make up the decay, 2.4 at 720 but 7 at 900.
 */
#define BUSY_UTIL		720
#define DEADLINE_MS		500	/* no transition may take longer */
#define SAMPLE_US		2000

static int test_cpu, sampler_cpu;
/* How long the decay test sleeps: about two half-lives (--sleep-ms) */
static int sleep_ms = 64;

/* Milliseconds PELT needs to take util_avg from @from to @to. */
static double pelt_ms(double from, double to)
{
	if (to > from)	/* rising while always running: towards 1024 */
		return PELT_HALFLIFE_MS * log2((1024 - from) / (1024 - to));
	return PELT_HALFLIFE_MS * log2(from / to);
}

/*
 * Running time a task at util_avg @u needs to make up @off_ms spent off
 * its CPU: util_avg decays to u * 2^(-off/H), then rises back to u.
 */
static double makeup_ms(double u, double off_ms)
{
	return pelt_ms(u * exp2(-off_ms / PELT_HALFLIFE_MS), u);
}

/*
 * A pinned CPU hog's util_avg rises from its first sample (a forked task
 * does not start at 0: post_init_entity_util_avg()) to above BUSY_UTIL in
 * the running time PELT says. Time is the task's own se.sum_exec_runtime,
 * read with util_avg from one update (a late sample, as when the host
 * preempts the sampler's vCPU, changes nothing).
 *
 * What the hog spends off its CPU (a kworker, the timer softirq's thread)
 * lets util_avg decay, and the rise takes longer by what it needs to make
 * that up: makeup_ms() at the util_avg of the time. The off-CPU time of
 * each sampling interval is the growth of se.exec_start (the rq's
 * clock_task at the update) less that of se.sum_exec_runtime; util_avg
 * then was at least the interval's first sample and at most where all of
 * the interval's running would have taken it, which bounds the makeup.
 *
 * The bar, from PELT's arithmetic (pelt_model.c run against the series
 * gives the same): util_avg is recomputed only when a period ends, so the
 * one read at each end is stale by up to a period against the running
 * time read with it (the first read's staleness shortens the rise, the
 * last's lengthens it); the kernel's sums run ahead of the series by up to
 * 0.17 ms; util_avg is truncated to an integer. Nothing else: the CPU's
 * capacity and frequency scale are 1024 here (the debugfs test checks
 * that clock_pelt then runs with clock_task), so clock_pelt, which PELT
 * uses, and clock_task, which the running time counts, advance alike.
 */
static int test_busy_task_rises(void)
{
	long long util = 0, ran = 0, at = 0, prev_util, prev_ran, prev_at;
	long long first = -1, ran_first = 0;
	double took, want, tol, off, peak, off_ms = 0, lo = 0, hi = 0;
	uint64_t start;
	pid_t pid;
	int ret = KSFT_FAIL;

	pid = fi_spawn_spinner(test_cpu);
	if (pid < 0) {
		fi_err("fork: %m");
		return KSFT_FAIL;
	}
	start = fi_now_us();
	do {
		fi_sleep_us(SAMPLE_US);
		prev_util = util;
		prev_ran = ran;
		prev_at = at;
		if (fi_read_util_ran_at(pid, &util, &ran, &at)) {
			fi_err("cannot read /proc/%d/sched", pid);
			goto out;
		}
		if (first < 0) {
			first = util;
			ran_first = ran;
			continue;
		}
		off = ((at - prev_at) - (ran - prev_ran)) / 1e6;
		if (off > 0) {
			/* util_avg then: from where it was, at most what all the running gave */
			peak = 1024 - (1024 - prev_util) *
			       exp2(-(ran - prev_ran) / 1e6 / PELT_HALFLIFE_MS);
			off_ms += off;
			lo += makeup_ms(prev_util, off);
			hi += makeup_ms(peak, off);
		}
		if (util > BUSY_UTIL) {
			took = (ran - ran_first) / 1e6;
			want = pelt_ms(first, util) + (lo + hi) / 2;
			tol = PELT_PERIOD_MS + 0.17 + pelt_ms(util, util + 1) +
			      (hi - lo) / 2;
			fi_info("util %lld -> %lld in %.1f ms of running, %.1f ms off the CPU (PELT: %.1f +- %.1f ms)\n",
				first, util, took, off_ms, want, tol);
			if (fabs(took - want) > tol)
				fi_err("expected util %lld -> %lld in %.1f +- %.1f ms (%.1f ms off the CPU), took %.1f ms",
				       first, util, want, tol, off_ms, took);
			else
				ret = KSFT_PASS;
			goto out;
		}
	} while (fi_now_us() - start < DEADLINE_MS * 1000);
	fi_err("expected util_avg > %d within %d ms, got %lld (PELT from %lld: %.0f ms)",
	       BUSY_UTIL, DEADLINE_MS, util, first, pelt_ms(first, BUSY_UTIL));
out:
	fi_reap(pid);
	return ret;
}

/* Wait until task @pid sleeps (state S in /proc/PID/stat), up to a second. */
static int wait_sleeping(pid_t pid)
{
	char path[64], buf[256], *p;
	int tries;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (tries = 0; tries < 10000; tries++) {
		f = fopen(path, "r");
		if (!f)
			return -1;
		p = fgets(buf, sizeof(buf), f);
		fclose(f);
		p = p ? strrchr(buf, ')') : NULL;	/* comm may hold anything */
		if (!p)
			return -1;
		if (p[1] == ' ' && p[2] == 'S')
			return 0;
		fi_sleep_us(100);
	}
	return -1;
}

/*
 * A task that was busy and then slept sleep_ms shows util_avg decayed by
 * 2^(-slept/H). A blocked task's util_avg is only decayed when it is next
 * updated, at wakeup: the task wakes, and blocks again at once on a pipe
 * (no more than returning from read() and calling it again), so that what
 * /proc/PID/sched shows then is the decayed value, plus what it ran since
 * the wakeup if a PELT period ended in that run.
 *
 * The sleep is timed on the rq's clock_task, as PELT times it: util_avg
 * stops rising when the task leaves its CPU, se.exec_start then, and
 * starts again when it is back on it, se.exec_start of the next update
 * less what it ran since (a wakeup the CPU is slow to act on counts as
 * sleep, as it does for PELT: only running adds to util_avg).
 *
 * The bar, from PELT's arithmetic: the idle value shown may or may not
 * include the run since the wakeup, 1024 * (1 - 2^(-ran/H)); util_avg is
 * recomputed only when a period ends, so the busy value shown may miss up
 * to a period of the rise, (1024 - busy) * (1 - y), and the decay is
 * applied period by period, a period's decay of the result; and it is
 * truncated.
 */
static int test_idle_task_decays(void)
{
	long long busy = -1, idle = -1, ran0 = 0, ran1 = 0, at0 = 0, at1 = 0;
	double ran_ms, run, slept_ms, want, tol;
	int down[2];
	int ret = KSFT_FAIL;
	pid_t pid;
	char c = 0;

	if (pipe(down)) {
		fi_err("pipe: %m");
		return KSFT_FAIL;
	}
	pid = fi_fork();
	if (pid < 0) {
		fi_err("fork: %m");
		return KSFT_FAIL;
	}
	if (!pid) {
		if (fi_pin_self(test_cpu))
			_exit(1);
		fi_spin_us(DEADLINE_MS * 1000);
		while (read(down[0], &c, 1) == 1)
			;
		_exit(0);
	}
	if (wait_sleeping(pid) ||
	    fi_read_util_ran_at(pid, &busy, &ran0, &at0)) {
		fi_err("the busy child did not block");
		goto out;
	}
	fi_sleep_us(sleep_ms * 1000);
	if (write(down[1], &c, 1) != 1) {
		fi_err("cannot wake the child: %m");
		goto out;
	}
	/* Woken, it ran (its running time moved) and sleeps again. */
	do {
		fi_sleep_us(100);
		if (wait_sleeping(pid) ||
		    fi_read_util_ran_at(pid, &idle, &ran1, &at1)) {
			fi_err("the idle child did not block again");
			goto out;
		}
	} while (ran1 == ran0);

	ran_ms = (ran1 - ran0) / 1e6;
	slept_ms = (at1 - at0) / 1e6 - ran_ms;
	run = 1024 * (1 - exp2(-ran_ms / PELT_HALFLIFE_MS));
	want = busy * exp2(-slept_ms / PELT_HALFLIFE_MS);
	tol = want * (exp2(PELT_PERIOD_MS / PELT_HALFLIFE_MS) - 1) +
	      (1024 - busy) * (1 - exp2(-1.0 / PELT_HALFLIFE)) *
	      exp2(-slept_ms / PELT_HALFLIFE_MS) + 1;
	if (busy <= BUSY_UTIL) {
		fi_err("expected util_avg > %d after %d ms busy, got %lld",
		       BUSY_UTIL, DEADLINE_MS, busy);
	} else if (idle < want - tol || idle > want + run + tol) {
		fi_err("expected util %.0f +- %.1f (+ up to %.1f for %.3f ms run) after %.2f ms asleep, got %lld",
		       want, tol, run, ran_ms, slept_ms, idle);
	} else {
		fi_info("util %lld -> %lld after %.2f ms asleep and %.3f ms run (PELT: %.0f +- %.1f, + up to %.1f)\n",
			busy, idle, slept_ms, ran_ms, want, tol, run);
		ret = KSFT_PASS;
	}
out:
	fi_reap(pid);
	close(down[0]);
	close(down[1]);
	return ret;
}

static const struct fi_test tests[] = {
	{ "busy_task_util_rises", test_busy_task_rises },
	{ "idle_task_util_decays", test_idle_task_decays },
};

int main(int argc, char **argv)
{
	int cpus[2];

	if (argc == 3 && !strcmp(argv[1], "--sleep-ms"))
		sleep_ms = atoi(argv[2]);
	ksft_print_header();
	if (!fi_have_sched_debug())
		ksft_exit_skip("no se.avg.util_avg in /proc/self/sched: needs SCHED_DEBUG\n");
	if (fi_online_cpus(cpus, 2) < 2)
		ksft_exit_skip("needs two CPUs: one for the task under test, one to sample it\n");
	sampler_cpu = cpus[0];
	test_cpu = cpus[1];
	if (fi_pin_self(sampler_cpu))
		ksft_exit_fail_msg("cannot pin to CPU %d: %m\n", sampler_cpu);
	fi_info("task under test on CPU %d, sampler on CPU %d\n", test_cpu, sampler_cpu);

	fi_run_tests(tests, ARRAY_SIZE(tests));
}
