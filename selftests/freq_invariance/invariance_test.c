// SPDX-License-Identifier: GPL-2.0
/*
 * Frequency invariance of util_avg, with the frequency scale forced per
 * CPU through freq_scale_override (CONFIG_X86_FREQ_SCALE_OVERRIDE), as a
 * slower clock would be seen: a task doing the same work per period runs
 * busy_us * 1024 / scale at scale "scale". Expected values and tolerances
 * come from the PELT model (pelt_model.c); the bars are LISA's: mean error
 * at most 2% of 1024, largest error at most 5%.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"
#include "pelt_model.h"

#define FI_DIR		FI_DEBUGFS
#define MEAN_BAR	(0.02 * PELT_SCALE)
#define MAX_BAR		(0.05 * PELT_SCALE)
#define PERIOD_US	5000
#define UTIL		0.20		/* of the period, at scale 1024 */
#define SETTLE_US	500000
#define MEASURE_US	1000000

static const unsigned int scales[] = { 1024, 768, 512, 256 };
/* --withhold-override: stretch the busy time but leave the kernel non-invariant. */
static bool withhold;
static int cpus[64], nr_cpus, test_cpu, sampler_cpu;

/* Every override is cleared on exit, also after a failure or a signal. */
static void restore_overrides(void)
{
	int i;

	for (i = 0; i < nr_cpus; i++)
		fi_override(cpus[i], 0);
}

static void restore_and_die(int sig)
{
	restore_overrides();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Run the stretched duty cycle at @scale on the test CPU. */
static int measure(unsigned int scale, double *util, double *busy)
{
	struct fi_duty d;
	int ret;

	ret = fi_measure_duty(test_cpu, PERIOD_US, UTIL * PERIOD_US * PELT_SCALE / scale,
			      SETTLE_US, MEASURE_US, &d);
	*util = d.util;
	*busy = d.ran_us;
	return ret;
}

/* util_avg of a task busy @busy_us of every PERIOD_US, as sampled: see pelt_model.h */
static double model(unsigned int scale, enum pelt_invariance mode, double busy_us)
{
	struct pelt_cfg cfg = { scale, mode };

	return pelt_periodic(&cfg, PERIOD_US, busy_us, SETTLE_US).seen;
}

/* LISA's bars over the scales: mean error <= 2%, largest <= 5% of 1024. */
static int check_bars(double sum, double max, int n)
{
	fi_info("mean error %.2f%% (bar 2%%), max %.2f%% (bar 5%%)\n",
		100 * sum / n / PELT_SCALE, 100 * max / PELT_SCALE);
	if (sum / n > MEAN_BAR || max > MAX_BAR) {
		fi_err("expected mean error <= 2%% and max <= 5%% of 1024, got %.2f%% and %.2f%%",
		       100 * sum / n / PELT_SCALE, 100 * max / PELT_SCALE);
		return KSFT_FAIL;
	}
	return KSFT_PASS;
}

static int test_invariance(void)
{
	double util, busy, want, err, sum = 0, max = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(scales); i++) {
		if (!withhold && fi_override(test_cpu, scales[i])) {
			fi_err("cannot set cpu%d/freq_scale_override to %u: %m",
			       test_cpu, scales[i]);
			return KSFT_FAIL;
		}
		if (measure(scales[i], &util, &busy)) {
			fi_err("cannot sample the duty cycle at scale %u", scales[i]);
			return KSFT_FAIL;
		}
		want = model(scales[i], PELT_TIME_SCALING, busy);
		err = fabs(util - want);
		sum += err;
		max = fmax(max, err);
		fi_info("scale %4u: busy %5.0f (ran %5.0f) of %d us: util %6.1f, model %6.1f, %4.1f%%\n",
			scales[i], UTIL * PERIOD_US * PELT_SCALE / scales[i], busy,
			PERIOD_US, util, want, 100 * err / PELT_SCALE);
	}
	fi_override(test_cpu, 0);
	return check_bars(sum, max, ARRAY_SIZE(scales));
}

/*
 * Negative control: the same stretched work without the override must
 * come out near util * 1024 / scale, beyond the bars of the invariant
 * expectation: the check above would catch a non-invariant kernel.
 */
static int test_negative_control(void)
{
	double util, busy, inv, non;
	int i;

	fi_override(test_cpu, 0);
	for (i = 1; i < ARRAY_SIZE(scales); i++) {
		if (measure(scales[i], &util, &busy)) {
			fi_err("cannot sample the duty cycle at scale %u", scales[i]);
			return KSFT_FAIL;
		}
		inv = model(scales[i], PELT_TIME_SCALING, busy);
		non = model(scales[i], PELT_NOT_INVARIANT, busy);
		fi_info("no override, busy of %4u: util %6.1f, model %6.1f (invariant: %6.1f)\n",
			scales[i], util, non, inv);
		if (fabs(util - non) > MAX_BAR || fabs(util - inv) <= MAX_BAR) {
			fi_err("expected util_avg near %.1f and beyond 5%% of %.1f, got %.1f",
			       non, inv, util);
			return KSFT_FAIL;
		}
	}
	return KSFT_PASS;
}

/*
 * A time-based duty cycle (busy P% of wall time whatever the clock, as
 * stress-ng --cpu-load does) at scale s settles at P * s / 1024 of 1024.
 */
static int test_time_based_duty(void)
{
	static const double load = 0.40;
	double err, sum = 0, max = 0, want;
	struct fi_duty d;
	int i;

	for (i = 0; i < ARRAY_SIZE(scales); i++) {
		struct pelt_cfg cfg = { scales[i], PELT_TIME_SCALING };

		if (fi_override(test_cpu, scales[i]) ||
		    fi_measure_duty(test_cpu, PERIOD_US, load * PERIOD_US, SETTLE_US,
				    MEASURE_US, &d)) {
			fi_err("cannot run the duty cycle at scale %u", scales[i]);
			return KSFT_FAIL;
		}
		want = pelt_periodic(&cfg, PERIOD_US, d.ran_us, SETTLE_US).seen;
		err = fabs(d.util - want);
		sum += err;
		max = fmax(max, err);
		fi_info("%.0f%% at scale %4u (ran %4.0f of %d us): util %6.1f, model %6.1f, P*s %6.1f\n",
			100 * load, scales[i], d.ran_us, PERIOD_US, d.util, want,
			load * scales[i]);
	}
	fi_override(test_cpu, 0);
	return check_bars(sum, max, ARRAY_SIZE(scales));
}

/* At scale 512 an always-running task still saturates, and loses idle time. */
static int test_saturation(void)
{
	struct fi_saturation r;
	double want, got, tol;

	if (fi_override(test_cpu, 512))
		return KSFT_FAIL;
	if (fi_saturate(test_cpu, 1000000, &r)) {
		fi_override(test_cpu, 0);
		return KSFT_FAIL;
	}
	fi_override(test_cpu, 0);

	/*
	 * The model: the CPU ran the spinner all along without idling, so
	 * clock_pelt fell behind clock_task by (1 - 512/1024) of that time;
	 * the rq was saturated when it idled, so all of it went to
	 * lost_idle_time. Slack: the spinner's last tick and exit, and what
	 * else ran on the CPU (10 ms), and 5%.
	 */
	want = (1 - 512.0 / PELT_SCALE) * r.ran_ns / 1e6;
	got = r.lost_ns / 1e6;
	tol = 0.05 * want + 10;
	fi_info("scale 512, always running %.0f ms: util %lld (the rq's %llu), lost_idle_time +%.1f ms (model %.1f +- %.1f)\n",
		r.ran_ns / 1e6, r.util, (unsigned long long)r.rq_util, got, want, tol);
	if (r.util < 0.95 * PELT_SCALE) {
		fi_err("expected util_avg >= 95%% of 1024 at scale 512, got %lld", r.util);
		return KSFT_FAIL;
	}
	if (fabs(got - want) > tol) {
		fi_err("expected lost_idle_time +%.1f +- %.1f ms, got +%.1f ms", want, tol, got);
		return KSFT_FAIL;
	}
	return KSFT_PASS;
}

/*
 * One ramp from util 0 at scale 512 (fi_ramp()): the spinning task samples
 * itself, reading /proc/self/sched as it runs (a sampler on another CPU
 * would add its own wakeup latency). The time is the task's own running
 * time, se.sum_exec_runtime: what kernel threads take of the CPU meanwhile
 * (2-3% on the debug kernel under TCG) is not the task's.
 */
static int ramp_once(const double *targets, double *seen, double limit_ms)
{
	static struct fi_ramp r;
	const char *why;
	int i;

	if (fi_ramp(test_cpu, limit_ms, &r, &why)) {
		fi_info("ramp failed: %s\n", why);
		return -1;
	}
	for (i = 0; i < 3; i++)
		seen[i] = fi_ramp_cross(&r, targets[i]);
	return 0;
}

/*
 * From util 0 at scale 512, util_avg crosses 256/486/972 when PELT says,
 * +-10%, plus what the observation cannot resolve: util_avg is published
 * at ticks (PELT_TICK_US), and where in its PELT period (1.05 ms) the task
 * wakes moves a crossing by up to one period of PELT time, two periods of
 * running at scale 512. That is 3 ms, as much as the 10% of the first
 * crossing. The median of RAMPS ramps, as a vCPU under TCG jitters.
 */
#define RAMPS	5
static int test_ramp(void)
{
	static const double targets[] = { 256, 486, 972 };
	const struct pelt_cfg half = { 512, PELT_TIME_SCALING };
	const struct pelt_cfg full = { 1024, PELT_TIME_SCALING };
	double runs[RAMPS][3], seen[3], want, tol;
	/* Run until the model's time to 972, and 30% more */
	double limit = 1.3 * pelt_time_to_util(&half, targets[2], 2e6) / 1000;
	int i, r, ret = KSFT_PASS;

	if (fi_override(test_cpu, 512))
		return KSFT_FAIL;
	for (r = 0; r < RAMPS; r++) {
		int tries;

		for (tries = 0; tries < 3 && ramp_once(targets, runs[r], limit); tries++)
			fi_info("ramp %d failed: retried\n", r);
		if (tries == 3)
			ret = KSFT_FAIL;
	}
	fi_override(test_cpu, 0);
	if (ret != KSFT_PASS) {
		fi_err("a ramp did not report");
		return ret;
	}

	for (i = 0; i < 3; i++) {
		double v[RAMPS];

		for (r = 0; r < RAMPS; r++)
			v[r] = runs[r][i];
		qsort(v, RAMPS, sizeof(v[0]), fi_cmp_double);
		seen[i] = v[RAMPS / 2];
		want = pelt_time_to_util(&half, targets[i], 2e6) / 1000;
		tol = 0.1 * want +
		      (PELT_PERIOD_US * PELT_SCALE / half.scale + PELT_TICK_US) / 1000.0;
		fi_info("util %4.0f after %6.1f ms at 512 (median of %d, %.1f..%.1f; model %5.1f +- %.1f, table %ld)\n",
			targets[i], seen[i], RAMPS, v[0], v[RAMPS - 1], want, tol,
			2 * lround(pelt_series_periods(&full, targets[i])));
		if (seen[i] < 0 || fabs(seen[i] - want) > tol) {
			fi_err("expected util %.0f after %.1f +- %.1f ms of running, got %.1f ms",
			       targets[i], want, tol, seen[i]);
			ret = KSFT_FAIL;
		}
	}
	return ret;
}

static int test_bad_writes_rejected(void)
{
	static const char * const bad[] = { "1025", "-1", "abc", "512x", "\n" };
	char path[128], buf[32];
	int i, ret = KSFT_PASS;

	snprintf(path, sizeof(path), FI_DIR "/cpu%d/freq_scale_override", test_cpu);
	if (fi_override(test_cpu, 300))
		return KSFT_FAIL;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int err = fi_write_str(path, bad[i]);

		fi_read_line(path, buf, sizeof(buf));
		if (err != -EINVAL || strcmp(buf, "300")) {
			fi_err("writing \"%s\": expected -EINVAL and 300 kept, got %d and %s",
			       bad[i], err, buf);
			ret = KSFT_FAIL;
		}
	}

	/* "512" a byte at a time: only the first write, at offset 0, counts. */
	{
		int fd = open(path, O_WRONLY);
		ssize_t w1 = -1, w2 = -1;

		if (fd >= 0) {
			w1 = write(fd, "5", 1);
			w2 = write(fd, "1", 1);
			close(fd);
		}
		fi_read_line(path, buf, sizeof(buf));
		if (fd < 0 || w1 != 1 || w2 != -1 || strcmp(buf, "5")) {
			fi_err("\"5\" then \"1\" at offset 1: expected the second write refused and 5 kept, got %zd, %zd and %s",
			       w1, w2, buf);
			ret = KSFT_FAIL;
		}
	}
	fi_override(test_cpu, 0);
	return ret;
}

static const struct fi_test tests[] = {
	{ "override_rejects_bad_writes", test_bad_writes_rejected },
	{ "util_avg_invariant_at_1024_768_512_256", test_invariance },
	{ "negative_control_without_override", test_negative_control },
	{ "time_based_duty_cycle_settles_at_p_times_s", test_time_based_duty },
	{ "saturation_at_512", test_saturation },
	{ "ramp_at_512", test_ramp },
};

int main(int argc, char **argv)
{
	char path[128];

	/* Line by line: a run cut by the runner's timeout shows how far it got */
	setvbuf(stdout, NULL, _IOLBF, 0);

	withhold = argc > 1 && !strcmp(argv[1], "--withhold-override");
	ksft_print_header();
	if (withhold)
		fi_info("--withhold-override: runs without the override; must fail\n");
	if (!fi_have_sched_debug())
		ksft_exit_skip("no se.avg.util_avg in /proc/self/sched: needs SCHED_DEBUG\n");
	nr_cpus = fi_online_cpus(cpus, ARRAY_SIZE(cpus));
	if (nr_cpus < 2)
		ksft_exit_skip("needs two CPUs\n");
	sampler_cpu = cpus[0];
	test_cpu = cpus[nr_cpus - 1];
	snprintf(path, sizeof(path), FI_DIR "/cpu%d/freq_scale_override", test_cpu);
	if (access(path, W_OK))
		ksft_exit_skip("%s: %m: needs CONFIG_X86_FREQ_SCALE_OVERRIDE and root\n", path);
	if (fi_pin_self(sampler_cpu))
		ksft_exit_fail_msg("cannot pin to CPU %d: %m\n", sampler_cpu);
	atexit(restore_overrides);
	signal(SIGTERM, restore_and_die);
	signal(SIGINT, restore_and_die);

	fi_run_tests(tests, ARRAY_SIZE(tests));
}
