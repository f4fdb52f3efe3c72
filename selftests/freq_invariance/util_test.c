// SPDX-License-Identifier: GPL-2.0
/*
 * PELT utilization end to end: a CPU-bound task's util_avg rises to near
 * SCHED_CAPACITY_SCALE, and an idle task's decays to near zero, at the
 * rates PELT's half-life (32 ms) gives.
 *
 * util_avg of a task that always runs, from 0:  u(t) = 1024 * (1 - 2^(-t/32ms))
 * util_avg of a task that sleeps, from u0:      u(t) = u0 * 2^(-t/32ms)
 *
 * Needs CONFIG_SCHED_DEBUG (/proc/PID/sched) and two CPUs: the task under
 * test is pinned to one, the sampler to another.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"

#define PELT_HALFLIFE_MS	32.0
#define BUSY_UTIL		900	/* "busy": util_avg above this */
#define IDLE_UTIL		50	/* "idle": util_avg below this */
#define DEADLINE_MS		500	/* each transition must finish by then */
#define SAMPLE_US		2000

static int test_cpu, sampler_cpu;

/* Milliseconds PELT needs to take util_avg from @from to @to. */
static double pelt_ms(double from, double to)
{
	if (to > from)	/* rising while always running: towards 1024 */
		return PELT_HALFLIFE_MS * log2((1024 - from) / (1024 - to));
	return PELT_HALFLIFE_MS * log2(from / to);
}

/* A pinned CPU hog reaches BUSY_UTIL within DEADLINE_MS. */
static int test_busy_task_rises(void)
{
	long long util = 0, first = -1;
	uint64_t start, now;
	pid_t pid;
	int ret = KSFT_FAIL;

	pid = fi_spawn_spinner(test_cpu);
	if (pid < 0) {
		fi_fail("fork: %m");
		return KSFT_FAIL;
	}
	start = fi_now_us();
	do {
		fi_sleep_us(SAMPLE_US);
		now = fi_now_us();
		if (fi_read_sched_field(pid, "se.avg.util_avg", &util)) {
			fi_fail("cannot read /proc/%d/sched", pid);
			goto out;
		}
		if (first < 0)
			first = util;
		if (util > BUSY_UTIL) {
			ksft_print_msg("util_avg %lld -> %lld in %.0f ms (PELT from %lld: %.0f ms, bar %d ms)\n",
				       first, util, (now - start) / 1000.0, first,
				       pelt_ms(first, BUSY_UTIL), DEADLINE_MS);
			ret = KSFT_PASS;
			goto out;
		}
	} while (now - start < DEADLINE_MS * 1000);
	fi_fail("expected util_avg > %d within %d ms, got %lld (PELT from %lld: %.0f ms)",
		BUSY_UTIL, DEADLINE_MS, util, first, pelt_ms(first, BUSY_UTIL));
out:
	fi_reap(pid);
	return ret;
}

/*
 * A task that was busy and then slept DEADLINE_MS shows util_avg below
 * IDLE_UTIL. A blocked task's util_avg is only decayed when it is next
 * updated, at wakeup: the task wakes, and blocks again at once on a pipe,
 * so that what /proc/PID/sched shows then is the decayed value plus what
 * it ran since the wakeup, which se.sum_exec_runtime tells.
 */
static int test_idle_task_decays(void)
{
	long long busy = -1, idle = -1, ran0 = 0, ran1 = 0;
	double ran_ms, decayed;
	int up[2], down[2];
	int ret = KSFT_FAIL;
	pid_t pid;
	char c = 0;

	if (pipe(up) || pipe(down)) {
		fi_fail("pipe: %m");
		return KSFT_FAIL;
	}
	pid = fork();
	if (pid < 0) {
		fi_fail("fork: %m");
		return KSFT_FAIL;
	}
	if (!pid) {
		if (fi_pin_self(test_cpu))
			_exit(1);
		fi_spin_us(DEADLINE_MS * 1000);
		/* Report in, block; report in again once woken, block. */
		while (write(up[1], &c, 1) == 1 && read(down[0], &c, 1) == 1)
			;
		_exit(0);
	}
	if (read(up[0], &c, 1) != 1 ||
	    fi_read_sched_ns(pid, "se.sum_exec_runtime", &ran0) ||
	    fi_read_sched_field(pid, "se.avg.util_avg", &busy)) {
		fi_fail("the busy child did not report in");
		goto out;
	}
	fi_sleep_us(DEADLINE_MS * 1000);
	if (write(down[1], &c, 1) != 1 || read(up[0], &c, 1) != 1 ||
	    fi_read_sched_field(pid, "se.avg.util_avg", &idle) ||
	    fi_read_sched_ns(pid, "se.sum_exec_runtime", &ran1)) {
		fi_fail("the idle child did not report in");
		goto out;
	}

	/*
	 * Since the wakeup the task ran ran_ms (more than the few syscalls
	 * take when the vCPU is preempted on the host): PELT adds up to
	 * 1024 * (1 - 2^(-ran_ms/32)) for that. What is left is the decay.
	 */
	ran_ms = (ran1 - ran0) / 1e6;
	decayed = idle - 1024 * (1 - exp2(-ran_ms / PELT_HALFLIFE_MS));
	if (busy <= BUSY_UTIL) {
		fi_fail("expected util_avg > %d after %d ms busy, got %lld",
			BUSY_UTIL, DEADLINE_MS, busy);
	} else if (decayed >= IDLE_UTIL) {
		fi_fail("expected util_avg < %d after %d ms asleep, got %lld, %.0f without the %.3f ms it ran since the wakeup (PELT: %.0f ms to decay %lld -> %d)",
			IDLE_UTIL, DEADLINE_MS, idle, decayed, ran_ms,
			pelt_ms(busy, IDLE_UTIL), busy, IDLE_UTIL);
	} else {
		ksft_print_msg("util_avg %lld busy -> %lld after %d ms asleep and %.3f ms running since the wakeup (PELT: decayed below %d after %.0f ms)\n",
			       busy, idle, DEADLINE_MS, ran_ms, IDLE_UTIL,
			       pelt_ms(busy, IDLE_UTIL));
		ret = KSFT_PASS;
	}
out:
	fi_reap(pid);
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
	return ret;
}

static const struct fi_test tests[] = {
	{ "busy_task_util_rises", test_busy_task_rises },
	{ "idle_task_util_decays", test_idle_task_decays },
};

int main(void)
{
	int cpus[2];

	ksft_print_header();
	if (!fi_have_sched_debug())
		ksft_exit_skip("/proc/self/sched has no se.avg.util_avg: needs CONFIG_SCHED_DEBUG\n");
	if (fi_online_cpus(cpus, 2) < 2)
		ksft_exit_skip("needs two CPUs: one for the task under test, one to sample it\n");
	sampler_cpu = cpus[0];
	test_cpu = cpus[1];
	if (fi_pin_self(sampler_cpu))
		ksft_exit_fail_msg("cannot pin to CPU %d: %m\n", sampler_cpu);
	ksft_print_msg("task under test on CPU %d, sampler on CPU %d\n", test_cpu, sampler_cpu);

	fi_run_tests(tests, ARRAY_SIZE(tests));
}
