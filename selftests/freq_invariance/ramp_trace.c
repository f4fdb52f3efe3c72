// SPDX-License-Identifier: GPL-2.0
/*
 * util_avg of an always-running task from 0, against its own running
 * time, at a forced frequency scale: the responsiveness that `make bench`
 * reports and plots. Not a test: it prints CSV and asserts nothing.
 *
 *   ramp_trace [--scale S] [--runs N] [--cpu C]   measure (root, guest)
 *   ramp_trace --model [--scale S]                the PELT model only
 *
 * Output, one record per line:
 *   sample,<scale>,<run>,<ran_ms>,<util_avg>     each change of util_avg
 *   cross,<scale>,<run>,<target>,<ran_ms>        when util crossed target
 *   model,<scale>,<ran_ms>,<util_avg>            the model, every 0.5 ms
 *   mcross,<scale>,<target>,<ms>,<table_ms>      model and table times
 *
 * The table is the one in commit 23127296889f ("sched/fair: Update scale
 * invariance of PELT"): pelt_series_periods().
 *
 * Scale 1024 needs nothing; any other scale needs
 * CONFIG_X86_FREQ_SCALE_OVERRIDE (freq_invariance/cpuN/freq_scale_override).
 * Time is the task's own se.sum_exec_runtime since its wakeup
 * (fi_ramp_start()), as in invariance_test; each sample is a pair one
 * PELT update published (fi_read_util_ran()), a crossing is interpolated
 * between two samples.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "fi_util.h"
#include "pelt_model.h"

static const double targets[] = { 256, 486, 972 };

/* Running time the model needs to 972, with room: when to stop. */
static double limit_ms(unsigned int scale)
{
	const struct pelt_cfg cfg = { scale, PELT_TIME_SCALING };

	return 1.3 * pelt_time_to_util(&cfg, 972, 4e6) / 1000;
}

static void print_model(unsigned int scale)
{
	const struct pelt_cfg cfg = { scale, PELT_TIME_SCALING };
	const struct pelt_cfg full = { 1024, PELT_TIME_SCALING };
	struct pelt_model m;
	double t, lim = limit_ms(scale);
	size_t i;

	pelt_init(&m, &cfg, 0);
	for (t = 0; t <= lim; t += 0.5) {
		printf("model,%u,%.1f,%.1f\n", scale, t, pelt_util(&m));
		pelt_run(&m, 500, true);
	}
	/* The commit's table: periods of 1 ms (its rounding) at 1024, x 1024/scale. */
	for (i = 0; i < ARRAY_SIZE(targets); i++)
		printf("mcross,%u,%.0f,%.1f,%ld\n", scale, targets[i],
		       pelt_time_to_util(&cfg, targets[i], 4e6) / 1000,
		       lround(pelt_series_periods(&full, targets[i])) * 1024 / scale);
}

/* One ramp (fi_ramp()), printed as samples and crossings. */
static int ramp_once(int cpu, unsigned int scale, int run)
{
	static struct fi_ramp r;
	const char *why;
	double t;
	int i;

	if (fi_ramp(cpu, limit_ms(scale), &r, &why)) {
		fprintf(stderr, "ramp_trace: ramp %d at scale %u failed: %s\n", run, scale, why);
		return -1;
	}
	for (i = 0; i < r.n; i++)
		printf("sample,%u,%d,%.3f,%.0f\n", scale, run, r.ran_ms[i], r.util[i]);
	for (i = 0; i < ARRAY_SIZE(targets); i++) {
		t = fi_ramp_cross(&r, targets[i]);
		if (t >= 0)
			printf("cross,%u,%d,%.0f,%.3f\n", scale, run, targets[i], t);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "scale", required_argument, NULL, 's' },
		{ "runs", required_argument, NULL, 'n' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "model", no_argument, NULL, 'm' },
		{}
	};
	unsigned int scale = 1024;
	int runs = 1, cpu = -1, model = 0, opt, r, tries, ret = 0, cpus[64], n;

	fi_teardown_on_signals();

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			scale = strtoul(optarg, NULL, 10);
			break;
		case 'n':
			runs = atoi(optarg);
			break;
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'm':
			model = 1;
			break;
		default:
			fputs("usage: ramp_trace [--model] [--scale S] [--runs N] [--cpu C]\n",
			      stderr);
			return 2;
		}
	}
	if (scale < 1 || scale > 1024 || runs < 1) {
		fprintf(stderr, "ramp_trace: --scale takes 1..1024, --runs at least 1\n");
		return 2;
	}
	if (model) {
		print_model(scale);
		return 0;
	}
	if (cpu < 0) {
		n = fi_online_cpus(cpus, ARRAY_SIZE(cpus));
		cpu = n > 1 ? cpus[n - 1] : 0;
	}
	if (scale != 1024 && fi_override(cpu, scale)) {
		fprintf(stderr,
			"ramp_trace: cannot force scale %u on CPU %d: needs root and CONFIG_X86_FREQ_SCALE_OVERRIDE\n",
			scale, cpu);
		return 1;
	}
	/* A failed ramp (it says why) is tried again, twice at most */
	for (r = 0; r < runs; r++) {
		for (tries = 0; tries < 3 && ramp_once(cpu, scale, r); tries++)
			;
		if (tries == 3) {
			fprintf(stderr, "ramp_trace: ramp %d at scale %u failed 3 times\n",
				r, scale);
			ret = 1;
		}
	}
	if (scale != 1024)
		fi_override(cpu, 0);
	fflush(stdout);
	return ret;
}
