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
#include <string.h>
#include <unistd.h>
#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"

#define PELT_HALFLIFE_MS	32.0
/*
 * "busy": util_avg above this. Not higher: each ms the task is off its CPU
 * (a kworker, more of them on a KASAN kernel) costs about u / (1024 - u) ms
 * of running to make up the decay, 2.4 at 720 but 7 at 900.
 */
#define BUSY_UTIL		720
#define DEADLINE_MS		500	/* no transition may take longer */
#define SAMPLE_US		2000
/*
 * Timing slack of one observation: a sample is late by up to SAMPLE_US,
 * util_avg is updated at most a tick (4 ms at HZ=250) late, PELT accrues
 * in whole 1024 us periods. The model's time is off by at most this.
 */
#define SLACK_MS		(SAMPLE_US / 1000.0 + 4 + 1.024)

static int test_cpu, sampler_cpu;
/* How long the decay test sleeps: two half-lives, util_avg / 4 (--sleep-ms) */
static int sleep_ms = 64;

/* Milliseconds PELT needs to take util_avg from @from to @to. */
static double pelt_ms(double from, double to)
{
	if (to > from)	/* rising while always running: towards 1024 */
		return PELT_HALFLIFE_MS * log2((1024 - from) / (1024 - to));
	return PELT_HALFLIFE_MS * log2(from / to);
}

/*
 * A pinned CPU hog's util_avg rises from its first sample (a forked task
 * does not start at 0: post_init_entity_util_avg()) to above BUSY_UTIL in
 * the running time PELT says, within 10% and SLACK_MS. Time is the task's
 * own se.sum_exec_runtime, read with util_avg from one update (a late
 * sample, as when the host preempts the sampler's vCPU, changes nothing).
 */
static int test_busy_task_rises(void)
{
	long long util = 0, first = -1, ran = 0, ran_first = 0;
	double took, want, tol;
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
		if (fi_read_util_ran_pid(pid, &util, &ran)) {
			fi_err("cannot read /proc/%d/sched", pid);
			goto out;
		}
		if (first < 0) {
			first = util;
			ran_first = ran;
		}
		if (util > BUSY_UTIL) {
			took = (ran - ran_first) / 1e6;
			want = pelt_ms(first, util);
			tol = 0.1 * want + SLACK_MS;
			fi_info("util %lld -> %lld in %.1f ms of running (PELT: %.1f +- %.1f ms)\n",
				first, util, took, want, tol);
			if (fabs(took - want) > tol)
				fi_err("expected util %lld -> %lld in %.1f +- %.1f ms, took %.1f ms",
				       first, util, want, tol, took);
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

/*
 * A task that was busy and then slept sleep_ms shows util_avg decayed by
 * 2^(-slept/32 ms), within SLACK_MS; the task itself times its sleep,
 * from just before it blocks to just after it runs again. A blocked
 * task's util_avg is only decayed when it is next updated, at wakeup: the
 * task wakes, and blocks again at once on a pipe, so that what
 * /proc/PID/sched shows then is the decayed value plus what it ran since
 * the wakeup, which se.sum_exec_runtime tells.
 */
static int test_idle_task_decays(void)
{
	long long busy = -1, idle = -1, ran0 = 0, ran1 = 0;
	double ran_ms, decayed, slept_ms, want, tol;
	uint64_t t_block, t_run;
	int up[2], down[2];
	int ret = KSFT_FAIL;
	pid_t pid;
	char c = 0;

	if (pipe(up) || pipe(down)) {
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
		/* Report the time in, block; again once woken, block. */
		do {
			t_run = fi_now_us();
		} while (write(up[1], &t_run, sizeof(t_run)) == sizeof(t_run) &&
			 read(down[0], &c, 1) == 1);
		_exit(0);
	}
	if (read(up[0], &t_block, sizeof(t_block)) != sizeof(t_block) ||
	    fi_read_sched_ns(pid, "se.sum_exec_runtime", &ran0) ||
	    fi_read_sched_field(pid, "se.avg.util_avg", &busy)) {
		fi_err("the busy child did not report in");
		goto out;
	}
	fi_sleep_us(sleep_ms * 1000);
	if (write(down[1], &c, 1) != 1 ||
	    read(up[0], &t_run, sizeof(t_run)) != sizeof(t_run) ||
	    fi_read_sched_field(pid, "se.avg.util_avg", &idle) ||
	    fi_read_sched_ns(pid, "se.sum_exec_runtime", &ran1)) {
		fi_err("the idle child did not report in");
		goto out;
	}

	/*
	 * Since the wakeup the task ran ran_ms (more than the few syscalls
	 * take when the vCPU is preempted on the host): PELT adds up to
	 * 1024 * (1 - 2^(-ran_ms/32)) for that. What is left is the decay.
	 */
	slept_ms = (t_run - t_block) / 1000.0;
	ran_ms = (ran1 - ran0) / 1e6;
	decayed = idle - 1024 * (1 - exp2(-ran_ms / PELT_HALFLIFE_MS));
	want = busy * exp2(-slept_ms / PELT_HALFLIFE_MS);
	tol = want * (exp2(SLACK_MS / PELT_HALFLIFE_MS) - 1) + 2;
	if (busy <= BUSY_UTIL) {
		fi_err("expected util_avg > %d after %d ms busy, got %lld",
		       BUSY_UTIL, DEADLINE_MS, busy);
	} else if (fabs(decayed - want) > tol) {
		fi_err("expected util %.0f +- %.0f after %.1f ms asleep, got %.0f (%lld less %.3f ms run)",
		       want, tol, slept_ms, decayed, idle, ran_ms);
	} else {
		fi_info("util %lld -> %.0f after %.1f ms asleep (PELT: %.0f +- %.0f)\n",
			busy, decayed, slept_ms, want, tol);
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
