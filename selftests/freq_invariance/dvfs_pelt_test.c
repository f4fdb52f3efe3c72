// SPDX-License-Identifier: GPL-2.0
/*
 * PELT's frequency invariance on a platform whose CPUs really run slower
 * at lower frequencies, the LISA way: nothing is stretched by the test.
 * The platform is the architectural one (QEMU's x-dvfs, or hardware): the
 * part is read from the MSRs (/dev/cpu/N/msr) and the reference from the
 * design's rule for that model (dvfs_util.c's dvfs_max_freq_ratio()),
 * never from what the kernel says of itself.
 *
 * A periodic task (SCHED_OTHER, pinned to one CPU) does a fixed amount of
 * work every 16 ms: a counted loop that takes 20% of the period at the
 * 1-core turbo, measured as the task runs. At 8 frequencies from 0.4 x
 * the 1-core turbo up, set with the userspace governor, the CPU really
 * runs slower and the task runs longer; the mean of its util_avg over a
 * settled window must be the PELT model's, read at the same times, for
 * the runs the task was observed to have (its CPU's sched_switch events,
 * from the start of the settle, with the time se.sum_exec_runtime counts
 * before a woken task's switch: see replay_read()) at the scale the
 * kernel should apply, within 1% of 1024 on average over the frequencies
 * and 3% at worst:
 *
 *   invariance on:   scale = min(f / f_ref, 1), f_ref = max_freq_ratio x
 *                    base / 1024; util stays put up to f_ref and falls as
 *                    f_ref / f above it (the scale clips)
 *   invariance off:  scale = 1; util grows as the task runs longer
 *
 * The inline controls, in every case: the same data judged against the
 * other hypothesis (and, with invariance, against the 1-core turbo as
 * f_ref) at the frequencies where its scale differs from the expected by
 * more than 6% of 1024, at least two, must miss those bars. A reference
 * one turbo step off is within them: the reference itself is
 * aperfmperf_test's (freq_scale within 1% of the formula).
 *
 * The observed pattern, not a wall-clock assumption: under multi-threaded
 * TCG a vCPU's speed follows the host's load. The sampler runs on another
 * CPU, reading every 23 ms: on the task's CPU, its reads keep the
 * runqueue busy while the task sleeps, and time-scaled PELT then decays
 * the task's util_avg at the CPU's scale instead of in wall time. (rt-app,
 * whose run event this loop stands for, would do under multi-threaded
 * TCG; its ldexp() loop is too slow under -icount, whose one vCPU leaves
 * the sampler no other CPU anyway.)
 *
 * A second task is busy for 20% of each period by the clock instead: it
 * does less work as f drops, and its util_avg is the model's for the
 * running time it is seen to have at the same scale, at 4 frequencies,
 * within the same bars. stress-ng drives such duty cycles too
 * (--cpu-load, at 2 loads and 3 frequencies: the lowest, one between it
 * and f_ref, the top), judged alike; its runs do not repeat one pattern.
 * Where stress-ng is not installed, that case says so and skips.
 *
 * The second expectation is for a part whose turbo ratios read 0 (QEMU's
 * x-dvfs-turbo-ratios-hidden), where the boot code must refuse invariance
 * ("base or turbo ratio reads 0"); a second test, run only in that boot,
 * checks the refusal. DVFS_PELT_EXPECT=invariant or not_invariant forces
 * the expectation (a control run by hand: each must fail in the other
 * boot); DVFS_PELT_FREQS=MHz,... chooses the frequencies (make run's
 * demonstration). Skips, as expected, on a CPU without APERF/MPERF; needs
 * two CPUs and tracefs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"
#include "dvfs_util.h"
#include "pelt_model.h"

#define PERIOD_US	16000
#define WORK_PCT	20		/* of the period, at the 1-core turbo */
#define SETTLE_US	300000		/* 9 half-lives: 0.2% of a step left */
#define FIRST_SETTLE_US	600000		/* from a new task's util */
#define WINDOW_US	1600000		/* 100 periods */
#define MODEL_SETTLE_US	600000		/* from util 0: 2^-18 left */
/*
 * The sampler's period: prime to the task's, so that the samples fall at
 * every phase of it, and long enough that its vCPU leaves the host's CPUs
 * to the task's (a read of /proc/PID/sched costs a few hundred us under
 * TCG).
 */
#define SAMPLE_US	23000

static int cpus[64], nr_cpus, test_cpu;
static pid_t task = -1;

static void stop_task(void)
{
	fi_reap(task);
	task = -1;
}

/*
 * A hypothesis: invariance off (scale 1), or on with the reference
 * max_freq_ratio @ratio
 */
struct hyp {
	const char *name;
	bool inv;
	uint64_t ratio;
};

static struct hyp want;		/* what the kernel should do */
static struct hyp ctl[2];	/* the inline controls: each must miss */
static int nr_ctl;

/* The scale at @mhz, x 1024, under @h */
static double scale_of(const struct hyp *h, unsigned int mhz)
{
	return h->inv ? pelt_freq_scale(mhz, plat.base, h->ratio) : 1024;
}

/* The scale the kernel should apply to a CPU at @mhz, x 1024 */
static double want_scale(unsigned int mhz)
{
	return scale_of(&want, mhz);
}

/*
 * A frequency tells a control from the expectation where their scales
 * differ by more than 6% of 1024: twice the worst bar, so that data
 * within it cannot fit both
 */
#define TELLS	(0.06 * 1024)

/* What at_frequencies() keeps of a control */
struct ctl_fit {
	int n;			/* frequencies that tell */
	double sum, worst;	/* its |error| there */
};

/*
 * Whether control @c, judged at the @fit->n frequencies that tell it from
 * the expectation, missed the bars the expectation met; said why if not.
 * Frequencies chosen by hand (DVFS_PELT_FREQS) may tell nothing: then it
 * is only reported.
 */
static bool control_missed(const struct hyp *c, const struct ctl_fit *fit, bool by_hand)
{
	if (fit->n < 2) {
		if (by_hand) {
			fi_info("the control %s: %d frequencies tell it, not judged\n", c->name,
				fit->n);
			return true;
		}
		fi_err("only %d frequencies tell the control %s from the expectation, want 2",
		       fit->n, c->name);
		return false;
	}
	fi_info("the control %s at the %d frequencies that tell it: off by %.1f on average, %.1f at worst\n",
		c->name, fit->n, fit->sum / fit->n, fit->worst);
	if (fit->sum / fit->n <= 0.01 * 1024 && fit->worst <= 0.03 * 1024) {
		fi_err("the control %s fits too: the data do not tell it from the expectation",
		       c->name);
		return false;
	}
	return true;
}

static unsigned int env_f[16], env_n;	/* DVFS_PELT_FREQS */

/*
 * The task's runs, as its CPU's sched_switch events give them from the
 * start of a settle (replay_start()) to the end of the window, and its
 * util_avg then
 */
#define MAX_RUNS	16384
static struct {
	double start_us, util0;
	double on[MAX_RUNS], off[MAX_RUNS];
	bool resumed[MAX_RUNS];
	int n;
} runs;

/* The trace of @tid's runs, from now: 0, or -1 said why */
static int replay_start(pid_t tid)
{
	long long u;

	if (dvfs_trace_clear(test_cpu))
		return -1;
	runs.start_us = fi_now_us();
	if (fi_read_sched_field(tid, "se.avg.util_avg", &u))
		return -1;
	runs.util0 = u;
	return 0;
}

/*
 * The running time of the runs within @seen's window; in *@woken, how
 * many of them began at a wakeup, in *@mean_us their mean length there
 */
static double traced_in(const struct dvfs_seen *seen, int *woken, double *mean_us)
{
	double t1 = seen->t0_us + seen->window_us, in = 0;
	int i, k = 0;

	for (*woken = 0, i = 0; i < runs.n; i++) {
		double d = fmin(runs.off[i], t1) - fmax(runs.on[i], seen->t0_us);

		if (d > 0) {
			in += d;
			k++;
			*woken += !runs.resumed[i];
		}
	}
	*mean_us = k ? in / k : 0;
	return in;
}

/*
 * @tid's runs since replay_start() into runs, each begun where the
 * scheduler counts it. A task woken on an idle CPU is picked at the rq
 * clock of its wakeup, which is not updated again when it preempts the
 * idle task: its runtime, and PELT, count the time to the switch as
 * running. The trace does not show that time: each run that began at a
 * wakeup starts earlier by the same lead, the runtime the window counted
 * (sum_exec_runtime) beyond the traced runs, over their number, in
 * *@lead_us. A lead of a tick or more is not that latency (the tick
 * would have updated the clock), nor one below 0 beyond 1% of a run (the
 * runtime read up to a tick stale, shared among the runs): the trace and
 * the runtime disagree, -1 said why (as for any failure).
 */
static int replay_read(pid_t tid, const struct dvfs_seen *seen, double *lead_us)
{
	double traced, mean;
	int i, woken;

	runs.n = dvfs_trace_runs(test_cpu, tid, runs.start_us, fi_now_us(), runs.on, runs.off,
				 runs.resumed, MAX_RUNS);
	if (runs.n < 0)
		return -1;
	traced = traced_in(seen, &woken, &mean);
	if (!woken) {
		fi_err("no run of task %d traced from a wakeup in the window", tid);
		return -1;
	}
	*lead_us = (seen->duty * seen->window_us - traced) / woken;
	if (*lead_us < -0.01 * mean || *lead_us >= PELT_TICK_US) {
		fi_err("task %d ran %.0f us of the window by its runtime, %.0f in %d runs traced: a lead of %.0f us on runs of %.0f",
		       tid, seen->duty * seen->window_us, traced, woken, *lead_us, mean);
		return -1;
	}
	for (i = 0; i < runs.n; i++) {
		if (runs.resumed[i])
			continue;
		runs.on[i] = fmin(fmax(runs.on[i] - *lead_us, runs.start_us), runs.off[i]);
		if (i)
			runs.on[i] = fmax(runs.on[i], runs.off[i - 1]);
	}
	return 0;
}

/*
 * The model's util_avg at @scale for the runs traced, read at the times
 * the sampler read it in @seen
 */
static double model_at(double scale, const struct dvfs_seen *seen)
{
	struct pelt_cfg cfg = { .scale = lround(scale), .mode = PELT_TIME_SCALING };

	return pelt_replay_seen(&cfg, runs.util0, runs.start_us, runs.on, runs.off, runs.n,
				seen->at_us, seen->n_at);
}

/*
 * The task @tid at each of the @n frequencies @f: the mean of its util_avg
 * against the model's for its runs as traced (replay_read()) at the scale
 * the kernel should apply, within 3% of 1024 each and 1% on average. The
 * period printed is @period_us, or with 0 (a duty cycle the test does not
 * time itself) the window over the task's sleeps in it, and beside the
 * model what one pattern of the mean run in that period would give. The
 * inline controls: the same runs against each other hypothesis, at the
 * frequencies that tell it from the expectation, must miss the same bars.
 */
static int at_frequencies(pid_t tid, const unsigned int *f, int n, double period_us)
{
	struct ctl_fit fit[ARRAY_SIZE(ctl)] = { 0 };
	double err_sum = 0, worst = 0;
	int ret = KSFT_PASS, i, c;

	fi_info("expectation: %s; the controls: %s%s%s\n", want.name, ctl[0].name,
		nr_ctl > 1 ? ", " : "", nr_ctl > 1 ? ctl[1].name : "");
	fi_info("   MHz  scale (seen)  period_us  ran_us  util_avg  model  error  controls\n");
	for (i = 0; i < n; i++) {
		double scale = want_scale(f[i]), util, ran, model, err, period, lead = 0;
		static struct dvfs_seen seen;
		char ctls[64] = "";

		if (dvfs_set_req(test_cpu, f[i])) {
			fi_err("%u MHz: cannot set the frequency", f[i]);
			return KSFT_FAIL;
		}
		if (replay_start(tid) ||
		    dvfs_observe(test_cpu, tid, period_us ? period_us : PERIOD_US,
				 i ? SETTLE_US : FIRST_SETTLE_US, WINDOW_US, SAMPLE_US, &seen) ||
		    replay_read(tid, &seen, &lead)) {
			fi_err("%u MHz: cannot observe task %d%s", f[i], tid,
			       kill(tid, 0) ? ", gone" : "");
			return KSFT_FAIL;
		}
		util = seen.util;
		period = period_us;
		if (!period) {
			/* A duty cycle sleeps once a period: at least 5 ms */
			if (seen.sleeps < 1 || seen.window_us / seen.sleeps < 5000) {
				fi_err("%u MHz: task %d slept %lld times in %.0f us: not a duty cycle",
				       f[i], tid, seen.sleeps, seen.window_us);
				return KSFT_FAIL;
			}
			period = seen.window_us / seen.sleeps;
		}
		ran = seen.duty * period;
		if (ran >= period) {
			fi_err("%u MHz: the task ran %.0f us of each %.0f us: not periodic",
			       f[i], ran, period);
			return KSFT_FAIL;
		}
		model = model_at(scale, &seen);
		err = util - model;
		{
			struct pelt_cfg cfg = { .scale = lround(scale), .mode = PELT_TIME_SCALING };

			fi_info("%u MHz: %d runs traced, those from a wakeup %.0f us before their switch in; one pattern of %.0f us in %.0f would give %.1f\n",
				f[i], runs.n, lead, ran, period,
				pelt_periodic(&cfg, period, ran, MODEL_SETTLE_US).seen);
		}
		err_sum += fabs(err);
		worst = fmax(worst, fabs(err));
		for (c = 0; c < nr_ctl; c++) {
			double cs = scale_of(&ctl[c], f[i]), e;
			size_t len = strlen(ctls);

			if (fabs(cs - scale) <= TELLS) {
				snprintf(ctls + len, sizeof(ctls) - len, " %8s", "-");
				continue;
			}
			e = util - model_at(cs, &seen);
			fit[c].n++;
			fit[c].sum += fabs(e);
			fit[c].worst = fmax(fit[c].worst, fabs(e));
			snprintf(ctls + len, sizeof(ctls) - len, " %+8.1f", e);
		}
		fi_info("%6u %6.1f %6.1f %10.0f %7.0f %9.1f %6.1f %+6.1f%s\n", f[i], scale,
			seen.scale, period, ran, util, model, err, ctls);
		if (fabs(err) > 0.03 * 1024) {
			fi_err("%u MHz: util_avg %.1f, the model's %.1f for %.0f us of %.0f at scale %.1f, want +- 3%% of 1024",
			       f[i], util, model, ran, period, scale);
			ret = KSFT_FAIL;
		}
	}
	fi_info("off the model by %.1f on average, %.1f at worst\n", err_sum / n, worst);
	if (err_sum / n > 0.01 * 1024) {
		fi_err("util_avg off the model by %.1f on average, want 1%% of 1024", err_sum / n);
		ret = KSFT_FAIL;
	}
	for (c = 0; c < nr_ctl; c++)
		if (!control_missed(&ctl[c], &fit[c], env_n))
			ret = KSFT_FAIL;
	return ret;
}

/* @n frequencies from 0.4 x the 1-core turbo (or the minimum) to it */
static void frequencies(unsigned int *f, int n)
{
	unsigned int f1c = plat.turbo[L1C], lo = (f1c * 4 / 10 + 99) / 100 * 100;
	int i;

	if (lo < plat.min)
		lo = plat.min;
	for (i = 0; i < n; i++)
		f[i] = (lo + (f1c - lo) * i / (n - 1)) / 100 * 100;
}

/* A periodic task, its work fixed: it runs longer as f drops */
static int test_periodic(void)
{
	unsigned int f[16], n_f = 8;
	unsigned long n;
	int ret;

	frequencies(f, 8);
	if (env_n) {
		memcpy(f, env_f, sizeof(env_f));
		n_f = env_n;
	}
	task = dvfs_start_fixed_work(cpus, nr_cpus, test_cpu, PERIOD_US,
				     PERIOD_US * WORK_PCT / 100.0, &n);
	if (task < 0) {
		fi_err("cannot calibrate or start the periodic task");
		return KSFT_FAIL;
	}
	fi_info("task %d: %lu iterations, %d%% of %d us at %u MHz\n", task, n, WORK_PCT,
		PERIOD_US, plat.turbo[L1C]);
	ret = at_frequencies(task, f, n_f, PERIOD_US);
	stop_task();
	return ret;
}

/* A task busy for a fixed share of the clock: its work drops with f */
static int test_timed(void)
{
	unsigned int f[16], n_f = 4;
	int ret;

	frequencies(f, 4);
	if (env_n) {
		memcpy(f, env_f, sizeof(env_f));
		n_f = env_n;
	}
	task = dvfs_start_periodic(test_cpu, PERIOD_US, 0, PERIOD_US * WORK_PCT / 100);
	if (task < 0) {
		fi_err("cannot start the timed task");
		return KSFT_FAIL;
	}
	fi_info("task %d: busy %d%% of %d us by the clock\n", task, WORK_PCT, PERIOD_US);
	ret = at_frequencies(task, f, n_f, PERIOD_US);
	stop_task();
	return ret;
}

/*
 * An always-running task on a CPU at the platform's minimum (the case of
 * commit 23127296889f ("sched/fair: Update scale invariance of PELT")):
 * clock_pelt runs at the scale, so util_avg still reaches the top,
 * later; when the saturated CPU idles, what clock_pelt fell
 * behind, (1 - scale / 1024) of the running time, is lost idle time.
 * Without invariance the scale is 1024 and nothing is lost. Slack as
 * invariance_test's: 10 ms and 5%.
 */
static int test_saturated(void)
{
	double scale = want_scale(plat.min), model, got, tol;
	struct fi_saturation r;
	int c;

	if (dvfs_set_req(test_cpu, plat.min) ||
	    fi_saturate(test_cpu, 1000000 * fmax(1, 512 / scale), &r)) {
		fi_err("cannot run a spinner on CPU %d at %u MHz", test_cpu, plat.min);
		return KSFT_FAIL;
	}
	model = (1 - scale / 1024) * r.ran_ns / 1e6;
	got = r.lost_ns / 1e6;
	tol = 0.05 * model + 10;
	fi_info("%u MHz (scale %.1f), always running %.0f ms: util_avg %lld, lost_idle_time +%.1f ms (model %.1f +- %.1f)\n",
		plat.min, scale, r.ran_ns / 1e6, r.util, got, model, tol);
	/* The inline controls: each hypothesis's lost time must miss */
	for (c = 0; c < nr_ctl; c++) {
		double cm = (1 - scale_of(&ctl[c], plat.min) / 1024) * r.ran_ns / 1e6;

		fi_info("the control %s: %.1f ms\n", ctl[c].name, cm);
		if (fabs(got - cm) <= 0.05 * cm + 10) {
			fi_err("lost_idle_time +%.1f ms fits the control %s (%.1f ms) too",
			       got, ctl[c].name, cm);
			return KSFT_FAIL;
		}
	}
	if (r.util < 0.95 * 1024) {
		fi_err("util_avg %lld, want >= 95%% of 1024: an always-running task reaches the top at any scale",
		       r.util);
		return KSFT_FAIL;
	}
	if (fabs(got - model) > tol) {
		fi_err("lost_idle_time +%.1f ms, want +%.1f +- %.1f ms", got, model, tol);
		return KSFT_FAIL;
	}
	return KSFT_PASS;
}

/*
 * stress-ng's duty cycles (--cpu-load L, busy slices of SNG_SLICE_MS by
 * the clock, then a sleep for the rest of the period), pinned to the
 * test's CPU: at 2 loads and 3 frequencies, its worker's util_avg is the
 * model's for the runs it is seen to have, as at_frequencies() judges.
 * The runs are stress-ng's, not the
 * pattern asked for: under TCG a slice overruns by a bogo-op, so the duty
 * is above L, and stress-ng shortens each sleep by what the one before
 * overslept and skips it where that leaves none, so that two slices run
 * back to back at times.
 */
#define SNG_SLICE_MS	"4"
#define SNG_METHOD	"fibonacci"	/* the shortest bogo-op under TCG */

static bool in_path(const char *prog)
{
	char path[4096], *dir, *save, file[4200];
	const char *env = getenv("PATH");

	snprintf(path, sizeof(path), "%s", env ? env : "/usr/bin:/bin");
	for (dir = strtok_r(path, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(file, sizeof(file), "%s/%s", dir, prog);
		if (!access(file, X_OK))
			return true;
	}
	return false;
}

/* The stress-ng worker whose parent is @parent, waiting up to 5 s; -1 if none */
static pid_t worker_of(pid_t parent)
{
	pid_t pid = 0;
	int tries;

	for (tries = 0; tries < 100 && !pid; tries++) {
		pid = fi_find_child("stress-ng-cpu", parent);
		if (!pid)
			fi_sleep_us(50000);
	}
	return pid > 0 ? pid : -1;
}

static pid_t sng = -1;

static void stop_sng(void)
{
	int tries;

	if (sng <= 0)
		return;
	kill(sng, SIGINT);
	for (tries = 0; tries < 40 && waitpid(sng, NULL, WNOHANG) == 0; tries++)
		fi_sleep_us(50000);
	kill(-sng, SIGKILL);
	waitpid(sng, NULL, 0);
	sng = -1;
}

static int test_stress_ng(void)
{
	static const char * const loads[] = { "25", "50" };
	unsigned int f[3], ref;
	char cpu[16];
	size_t l;
	int ret = KSFT_PASS;

	if (!in_path("stress-ng")) {
		ksft_print_msg("stress-ng is not installed (PATH %s): %s\n",
			       getenv("PATH") ? getenv("PATH") : "unset",
			       "it drives these duty cycles");
		return KSFT_SKIP;
	}
	/* The lowest, one between it and f_ref (or the base), the top */
	frequencies(f, 3);
	ref = want.inv ? want.ratio * plat.base / 1024 : plat.base;
	f[1] = ((f[0] + (ref < f[2] ? ref : f[2])) / 2 + 50) / 100 * 100;
	snprintf(cpu, sizeof(cpu), "%d", test_cpu);
	for (l = 0; l < ARRAY_SIZE(loads) && ret == KSFT_PASS; l++) {
		pid_t worker;

		/* Killed with the test (fi_fork()), else after a minute */
		sng = fi_fork();
		if (!sng) {
			setpgid(0, 0);
			execlp("stress-ng", "stress-ng", "--cpu", "1", "--cpu-load", loads[l],
			       "--cpu-load-slice", SNG_SLICE_MS, "--cpu-method", SNG_METHOD,
			       "--taskset", cpu, "--timeout", "60s", "--temp-path", "/tmp", "-q",
			       (char *)NULL);
			_exit(127);
		}
		if (sng > 0)
			setpgid(sng, sng);
		worker = sng > 0 ? worker_of(sng) : -1;
		if (worker < 0) {
			fi_err("stress-ng (pid %d) started no worker", sng);
			stop_sng();
			return KSFT_FAIL;
		}
		fi_info("stress-ng --cpu 1 --cpu-load %s --cpu-load-slice %s --cpu-method %s --taskset %d: worker %d\n",
			loads[l], SNG_SLICE_MS, SNG_METHOD, test_cpu, worker);
		ret = at_frequencies(worker, f, 3, 0);
		stop_sng();
	}
	return ret;
}

/*
 * In the boot with the turbo ratios withheld: the boot code refused
 * invariance for that reason, and a busy CPU below the base keeps
 * freq_scale 1024.
 */
static int test_refused(void)
{
	char buf[128], path[128];
	int ret = KSFT_PASS;
	uint64_t scale = 0;
	pid_t pid;

	if (fi_read_line(FI_DEBUGFS "/status", buf, sizeof(buf)) ||
	    strcmp(buf, "off: base or turbo ratio reads 0")) {
		fi_err("status \"%s\", want \"off: base or turbo ratio reads 0\"", buf);
		ret = KSFT_FAIL;
	}
	pid = fi_spawn_spinner(test_cpu);
	if (pid < 0 || dvfs_set_req(test_cpu, plat.min))
		ret = KSFT_FAIL;
	fi_sleep_us(50000);
	snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/freq_scale", test_cpu);
	if (fi_read_u64(path, &scale) || scale != 1024) {
		fi_err("CPU %d busy at %u MHz: freq_scale %llu, want 1024 (no invariance)",
		       test_cpu, plat.min, (unsigned long long)scale);
		ret = KSFT_FAIL;
	}
	fi_reap(pid);
	return ret;
}

/* DVFS_PELT_FREQS: 0, or -1 if not a list of the platform's frequencies */
static int parse_freqs(const char *arg)
{
	const char *p = arg;
	char *end;

	for (env_n = 0; env_n < ARRAY_SIZE(env_f); env_n++) {
		unsigned long mhz = strtoul(p, &end, 10);

		if (end == p || mhz < plat.min || mhz > plat.turbo[L1C] || mhz % 100)
			return -1;
		env_f[env_n] = mhz;
		if (!*end) {
			env_n++;
			return 0;
		}
		if (*end != ',')
			return -1;
		p = end + 1;
	}
	return -1;
}

static struct fi_test tests[] = {
	{ "periodic_util_is_pelt_of_its_run_at_the_scale", test_periodic },
	{ "timed_duty_util_is_pelt_of_its_run_at_the_scale", test_timed },
	{ "saturated_cpu_loses_what_clock_pelt_lagged", test_saturated },
	{ "stress_ng_duty_util_is_pelt_of_its_run_at_the_scale", test_stress_ng },
	{ "invariance_refused_without_turbo_ratios", test_refused },
};

int main(void)
{
	const char *why, *expect = getenv("DVFS_PELT_EXPECT");
	const char *freqs = getenv("DVFS_PELT_FREQS");
	struct fi_test plan[ARRAY_SIZE(tests)];
	uint64_t ratio = 0;
	size_t n = 0, i;
	bool withheld;

	/* Each line as it comes: a timeout should not swallow them */
	setvbuf(stdout, NULL, _IOLBF, 0);
	dvfs_begin();
	ratio = dvfs_max_freq_ratio(&dvfs_msrs);
	withheld = !ratio;
	fi_info("model %u, from its MSRs: min %u, base %u, 1-core turbo %u MHz%s\n",
		dvfs_msrs.model, plat.min, plat.base, plat.turbo[L1C],
		withheld ? "; no reference: the boot code must refuse invariance" : "");
	want.inv = !withheld;
	if (expect && (strcmp(expect, "invariant") && strcmp(expect, "not_invariant")))
		ksft_exit_fail_msg("DVFS_PELT_EXPECT=%s: want invariant or not_invariant\n",
				   expect);
	if (freqs && parse_freqs(freqs))
		ksft_exit_fail_msg("DVFS_PELT_FREQS=%s: want %s %u..%u in steps of 100\n", freqs,
				   "up to 16 frequencies in MHz, comma-separated,",
				   plat.min, plat.turbo[L1C]);
	if (expect) {
		want.inv = !strcmp(expect, "invariant");
		fi_info("DVFS_PELT_EXPECT=%s: a control run\n", expect);
	}
	/* Without a reference, the other hypothesis's: as the platform would give */
	if (!ratio)
		ratio = plat.turbo[L4C] * 1024ULL / plat.base;
	fi_info("max_freq_ratio %llu (%s)\n", (unsigned long long)ratio,
		withheld ? "the control's" : "the design's for this part");
	want.ratio = ratio;
	want.name = want.inv ? "invariant, scale min(f / f_ref, 1)" : "not invariant, scale 1";
	/*
	 * The controls: the other hypothesis and, with invariance, the 1-core
	 * turbo as the reference (the reference itself, to 1%, is
	 * aperfmperf_test's: one turbo step is within these bars)
	 */
	if (want.inv) {
		ctl[nr_ctl++] = (struct hyp){ "scale 1", false, 0 };
		if (plat.turbo[L1C] * 1024ULL / plat.base != ratio)
			ctl[nr_ctl++] = (struct hyp){ "the 1-core turbo as f_ref", true,
						      plat.turbo[L1C] * 1024ULL / plat.base };
	} else {
		ctl[nr_ctl++] = (struct hyp){ "scale min(f / f_ref, 1)", true, ratio };
	}
	/* The refusal is checked only where it must happen */
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		if (tests[i].fn != test_refused || withheld)
			plan[n++] = tests[i];
	nr_cpus = dvfs_setup_cpus(cpus, ARRAY_SIZE(cpus), true, &why);
	if (nr_cpus < 0)
		ksft_exit_fail_msg("%s\n", why);
	if (nr_cpus < 2)
		ksft_exit_skip("needs two CPUs: the sampler must not share the task's\n");
	test_cpu = cpus[nr_cpus - 1];
	atexit(dvfs_trace_stop);
	if (dvfs_trace_start_event("sched/sched_switch"))
		ksft_exit_fail_msg("the tasks' runs come from sched:sched_switch: no trace\n");
	atexit(stop_task);
	atexit(stop_sng);
	fi_run_tests(plan, n);
}
