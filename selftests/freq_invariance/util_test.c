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
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"
#include "pelt_model.h"

#define PELT_HALFLIFE_MS	(PELT_HALFLIFE * PELT_PERIOD_US / 1000)
#define PELT_PERIOD_MS		(PELT_PERIOD_US / 1000)
/*
 * "busy": util_avg above this. Not higher: each ms the task is off its CPU
 * (a kworker, more of them on a KASAN kernel) costs about u / (1024 - u) ms
 * of running to make up the decay, 2.4 at 720 but 7 at 900.
 */
#define BUSY_UTIL		720
#define DEADLINE_MS		500	/* no transition may take longer */
/* A woken task runs and sleeps again, a busy one gets its running time */
#define WAKE_DEADLINE_MS	5000
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
	if (u <= 0 || off_ms <= 0)
		return 0;
	return pelt_ms(u * exp2(-off_ms / PELT_HALFLIFE_MS), u);
}

/*
 * How far the kernel's rise from @from to @to runs ahead of the series, in
 * ms: with its divider (LOAD_AVG_MAX - 1024 + period_contrib) util_avg
 * levels off near 1025, not 1024 (0.13 ms for 0 -> 750, 0.17 at 800).
 */
static double lead_ms(double from, double to)
{
	return PELT_HALFLIFE_MS * fabs(log2((1024 - from) / (1024 - to)) -
				       log2((1025 - from) / (1025 - to)));
}

/*
 * A pinned CPU hog's util_avg rises from a first sample (a forked task
 * does not start at 0: post_init_entity_util_avg()) to above BUSY_UTIL in
 * the running time PELT says. Time is the task's own running time, from
 * the kernel's fields: a late sample, as when the host preempts the
 * sampler's vCPU, changes nothing.
 *
 * What the hog spends off its CPU (a kworker, the timer softirq's thread)
 * lets util_avg decay, and the rise takes longer by what it needs to make
 * that up: makeup_ms() at the util_avg of the time. The off-CPU time of
 * each sampling interval is the growth of se.exec_start (the rq's
 * clock_task at each update_curr()) less that of se.sum_exec_runtime;
 * util_avg then was at least the interval's first sample decayed by it,
 * and at most where all of the interval's running, and a period more,
 * would have taken it: that bounds the makeup.
 *
 * The running time must be what the PELT sums last saw: an update_curr()
 * alone (e.g. a wakeup, enqueue or dequeue of another task on the CPU)
 * moves se.sum_exec_runtime and se.exec_start but not
 * se.avg.last_update_time, by up to a tick, or more when a stalled vCPU
 * delays the tick. At a PELT update both are set at once, and
 * while the hog runs, exec_start less last_update_time stays where it was
 * (clock_task and clock_pelt advance alike at scale 1024; last_update_time
 * moves in whole 1024 ns units): a sample where it is above its lowest
 * value is not used as the end of the rise, and the excess of the first
 * sample over the final lowest value is taken off its running time. (Were
 * clock_pelt to run at another rate, no sample would do as the end, and
 * the test fails; with CFS bandwidth throttling the rule would not hold,
 * and there is none here.) util_avg itself
 * is recomputed only at the first update of a period, so it may lag that
 * by a period, and may not yet show the decay of an off-CPU stretch in
 * it, up to a period's worth of it. If a stalled sampler finds util_avg
 * above BUSY_UTIL at the first usable sample, the test starts over with a
 * new hog, three times at most.
 *
 * The bar, from PELT's arithmetic: that period at each end (the first
 * read's shortens the rise, the last's lengthens it), the decay of up to a
 * period off the CPU not yet shown at each end (at the first, it
 * lengthens the rise, at the last, it shortens it), the lead of the
 * kernel's sums over the series (lead_ms()), util_avg's truncation, and
 * half the makeup's range. Nothing else: the CPU's capacity and frequency
 * scale are 1024 here (the debugfs test checks that clock_pelt then runs
 * with clock_task), so clock_pelt, which PELT uses, and clock_task, which
 * the running time counts, advance alike.
 */
#define RECENT	8	/* intervals kept to find the off-CPU time of the last period */

/* Off-CPU ms in the intervals that ended within a period of @at_ns, at most a period. */
static double recent_off(const long long *end_at, const double *off, int n, long long at_ns)
{
	double sum = 0;
	int i;

	for (i = 0; i < n && i < RECENT; i++)
		if (end_at[i] > at_ns - PELT_PERIOD_MS * 1e6)
			sum += off[i];
	return fmin(sum, PELT_PERIOD_MS);
}

/*
 * One rise: KSFT_PASS or KSFT_FAIL, or -EAGAIN when no sample could start
 * it below BUSY_UTIL (the sampler's vCPU stalled until util_avg was up).
 */
static int busy_task_rises_once(void)
{
	double took, want, tol, below, above, off, peak, off_ms = 0, lo = 0, hi = 0;
	long long ran_first = 0, x_first = 0, off_ns, base = 0, util;
	double unseen_first = 0, recent_off_ms[RECENT] = { 0 };
	long long recent_at[RECENT] = { 0 };
	struct fi_pelt r, prev = { 0 };
	long long first = -1;
	bool have_prev = false, synced;
	int ret = KSFT_FAIL, n = 0;
	uint64_t start;
	pid_t pid;

	pid = fi_spawn_spinner(test_cpu);
	if (pid < 0) {
		fi_err("fork: %m");
		return KSFT_FAIL;
	}
	start = fi_now_us();
	do {
		fi_sleep_us(SAMPLE_US);
		if (fi_read_pelt(pid, &r)) {
			fi_err("cannot read /proc/%d/sched", pid);
			goto out;
		}
		if (!have_prev) {
			have_prev = true;
			base = r.at - r.lut;
			goto next;
		}
		off_ns = (r.at - prev.at) - (r.ran - prev.ran);
		off = fmax(off_ns / 1e6, 0);
		recent_at[n % RECENT] = r.at;
		recent_off_ms[n % RECENT] = off;
		n++;
		base = r.at - r.lut < base ? r.at - r.lut : base;
		synced = r.at - r.lut - base < 2048;
		if (first < 0) {
			if (!synced)
				goto next;
			if (r.util >= BUSY_UTIL) {
				ret = -EAGAIN;
				goto out;
			}
			first = r.util;
			ran_first = r.ran;
			x_first = r.at - r.lut;
			unseen_first = makeup_ms(first, recent_off(recent_at, recent_off_ms,
								   n, r.at));
			goto next;
		}
		if (off > 0) {
			peak = 1024 - (1024 - prev.util) *
			       exp2(-((r.ran - prev.ran) / 1e6 + PELT_PERIOD_MS) /
				    PELT_HALFLIFE_MS);
			off_ms += off;
			lo += makeup_ms(prev.util * exp2(-off / PELT_HALFLIFE_MS), off);
			hi += makeup_ms(peak, off);
		}
		if (r.util > BUSY_UTIL && synced) {
			/*
			 * The running time the sums saw at each end: less the
			 * excess of exec_start - last_update_time over its
			 * lowest, which a first read may have had unseen.
			 */
			took = ((r.ran - (r.at - r.lut - base)) -
				(ran_first - (x_first - base))) / 1e6;
			util = r.util < 1023 ? r.util : 1023;
			want = pelt_ms(first, util) + (lo + hi) / 2;
			tol = PELT_PERIOD_MS + lead_ms(first, util) +
			      pelt_ms(util, util + 1) + (hi - lo) / 2;
			below = tol + makeup_ms(util, recent_off(recent_at, recent_off_ms,
								 n, r.at));
			above = tol + unseen_first;
			fi_info("util %lld -> %lld in %.1f ms of running, %.1f ms off the CPU (PELT: %.1f -%.1f +%.1f ms)\n",
				first, r.util, took, off_ms, want, below, above);
			if (!(took >= want - below && took <= want + above))
				fi_err("expected util %lld -> %lld in %.1f -%.1f +%.1f ms (%.1f ms off the CPU), took %.1f ms",
				       first, r.util, want, below, above, off_ms, took);
			else
				ret = KSFT_PASS;
			goto out;
		}
next:
		prev = r;
	} while (fi_now_us() - start < DEADLINE_MS * 1000);
	if (first < 0)
		fi_err("no sample with exec_start - last_update_time at its lowest in %d ms (%lld ns above it): does clock_pelt run with clock_task?",
		       DEADLINE_MS, r.at - r.lut - base);
	else
		fi_err("expected util_avg > %d, with exec_start - last_update_time at its lowest, within %d ms: got %lld from %lld, %lld ns above its lowest",
		       BUSY_UTIL, DEADLINE_MS, r.util, first, r.at - r.lut - base);
out:
	fi_reap(pid);
	return ret;
}

static int test_busy_task_rises(void)
{
	int tries, ret = -EAGAIN;

	for (tries = 0; tries < 3 && ret == -EAGAIN; tries++)
		ret = busy_task_rises_once();
	if (ret == -EAGAIN) {
		fi_err("3 tries: util_avg was above %d at the first usable sample each time (the sampler's vCPU stalled)",
		       BUSY_UTIL);
		ret = KSFT_FAIL;
	}
	return ret;
}

/* Wait until task @pid sleeps (state S in /proc/PID/stat), for @ms at most. */
/* Where task @pid sleeps: its wchan, system call and kernel stack */
static void show_where(pid_t pid)
{
	static const char * const files[] = { "wchan", "syscall", "stack" };
	char path[64], line[256];
	size_t i;
	FILE *f;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "/proc/%d/%s", pid, files[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			fi_info("%s: %s%s", files[i], line,
				line[strlen(line) - 1] == '\n' ? "" : "\n");
		fclose(f);
	}
}

/* Spin until the calling thread has run for @ms */
static void spin_running_ms(int ms)
{
	struct timespec ts;

	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	while (ts.tv_sec * 1000 + ts.tv_nsec / 1000000 < ms);
}

/*
 * Wait up to @ms for task @pid to be asleep (S); 0 when it is, else -1
 * with its last state in @state ('?' if /proc could not be read).
 */
static int wait_sleeping_state(pid_t pid, int ms, char *state)
{
	uint64_t start = fi_now_us();

	do {
		*state = fi_task_state(pid);
		if (!*state) {
			*state = '?';
			return -1;
		}
		if (*state == 'S')
			return 0;
		fi_sleep_us(100);
	} while (fi_now_us() - start < ms * 1000ULL);
	return -1;
}

static int wait_sleeping(pid_t pid, int ms)
{
	char state;

	return wait_sleeping_state(pid, ms, &state);
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
 * The bar, from PELT's arithmetic. Everything but truncation can only
 * make the idle value higher than busy * 2^(-slept/H): it may include the
 * run since the wakeup, 1024 * (1 - 2^(-ran/H)); util_avg is recomputed
 * only when an update crosses a period boundary, so the busy value shown
 * may miss up to a period of the rise, (1024 - busy) * (1 - y), decayed
 * with it, and the idle one, recomputed at the wakeup, misses the decay
 * from there to the task's running, up to a period's, when the CPU is
 * slow to run it. Below it: idle's truncation, where in a period the
 * decay stopped (at most 0.03% of the value), and the busy value shown
 * may be ahead of the sum PELT decays: recomputed at the last period
 * boundary, it does not see the part of the period before the task
 * blocked in which it did not run (preempted), which adds to the divider
 * but not to the sum, up to a period: busy * (1 - y), decayed with it.
 */
static int idle_task_decays_once(void)
{
	double ran_ms, run, slept_ms, want, tol, below;
	struct fi_pelt r0, r1;
	long long busy, idle;
	int ret = KSFT_FAIL;
	char c = 0, state;
	uint64_t start;
	int down[2];
	pid_t pid;

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
		uint64_t t0 = fi_now_us();
		long long util = 0, ran;

		if (fi_pin_self(test_cpu))
			_exit(1);
		/*
		 * Busy for DEADLINE_MS of its own running time, not of the
		 * wall clock, and then until its util_avg is above BUSY_UTIL:
		 * other tasks on its CPU at the start of a boot (the kselftest
		 * runner's) can hold it below BUSY_UTIL after 500 ms of
		 * wall-clock time, and even after 500 ms of running.
		 */
		spin_running_ms(DEADLINE_MS);
		while (!fi_read_util_ran(&util, &ran) && util <= BUSY_UTIL &&
		       fi_now_us() - t0 < WAKE_DEADLINE_MS * 1000ULL)
			spin_running_ms(ran / 1000000 + 10);
		while (read(down[0], &c, 1) == 1)
			;
		_exit(0);
	}
	if (wait_sleeping(pid, 2 * WAKE_DEADLINE_MS) || fi_read_pelt(pid, &r0)) {
		fi_err("the busy child did not block");
		goto out;
	}
	fi_sleep_us(sleep_ms * 1000);
	if (write(down[1], &c, 1) != 1) {
		fi_err("cannot wake the child: %m");
		goto out;
	}
	/*
	 * Woken, it ran (its running time moved) and sleeps again. Bounded
	 * by time, not by polls: a host that stalls the child's vCPU delays
	 * the run, and that is no failure of PELT (the sleep is timed on the
	 * rq's clock below).
	 */
	start = fi_now_us();
	for (;;) {
		fi_sleep_us(100);
		if (wait_sleeping_state(pid, WAKE_DEADLINE_MS, &state)) {
			fi_err("the woken child was not asleep again within %d ms (state %c)",
			       WAKE_DEADLINE_MS, state);
			goto out;
		}
		if (fi_read_pelt(pid, &r1)) {
			fi_err("cannot read /proc/%d/sched consistently", pid);
			goto out;
		}
		if (r1.ran != r0.ran)
			break;
		if (fi_now_us() - start > WAKE_DEADLINE_MS * 1000ULL) {
			fi_info("the woken child did not run within %d ms (state %c, sum_exec_runtime still %lld ns):\n",
				WAKE_DEADLINE_MS, state, r1.ran);
			show_where(pid);
			ret = -EAGAIN;
			goto out;
		}
	}

	busy = r0.util;
	idle = r1.util;
	ran_ms = (r1.ran - r0.ran) / 1e6;
	slept_ms = (r1.at - r0.at) / 1e6 - ran_ms;
	run = 1024 * (1 - exp2(-ran_ms / PELT_HALFLIFE_MS));
	want = busy * exp2(-slept_ms / PELT_HALFLIFE_MS);
	below = want * (1 - exp2(-PELT_PERIOD_MS / PELT_HALFLIFE_MS)) + 1.5;
	tol = want * (exp2(PELT_PERIOD_MS / PELT_HALFLIFE_MS) - 1) +
	      (1024 - busy) * (1 - exp2(-1.0 / PELT_HALFLIFE)) *
	      exp2(-slept_ms / PELT_HALFLIFE_MS) + 1;
	if (busy <= BUSY_UTIL) {
		fi_err("expected util_avg > %d after %d ms busy, got %lld",
		       BUSY_UTIL, DEADLINE_MS, busy);
	} else if (idle < want - below || idle > want + run + tol) {
		fi_err("util %lld -> %lld after %.2f ms asleep and %.3f ms run: expected %.1f - %.1f .. + %.1f (%.1f for the run)",
		       busy, idle, slept_ms, ran_ms, want, below, tol + run, run);
	} else {
		fi_info("util %lld -> %lld after %.2f ms asleep and %.3f ms run (PELT: %.1f - %.1f .. + %.1f)\n",
			busy, idle, slept_ms, ran_ms, want, below, tol + run);
		ret = KSFT_PASS;
	}
out:
	fi_reap(pid);
	close(down[0]);
	close(down[1]);
	return ret;
}

/*
 * The measurement's precondition is that the woken child runs: its
 * util_avg is read once it has (its sum_exec_runtime moved). A child that
 * is woken and does not run within WAKE_DEADLINE_MS is rare, its cause
 * not known; its util_avg is not looked at: where it sleeps is printed,
 * and the measurement made again with a new child, 3 times at most (an
 * empirical margin).
 */
static int test_idle_task_decays(void)
{
	int tries, ret = -EAGAIN;

	for (tries = 0; tries < 3 && ret == -EAGAIN; tries++)
		ret = idle_task_decays_once();
	if (ret == -EAGAIN) {
		fi_err("3 tries: the woken child did not run within %d ms each time",
		       WAKE_DEADLINE_MS);
		ret = KSFT_FAIL;
	}
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
