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
 *   mcross,<scale>,<target>,<ms>,<table_ms>      model and seed-table times
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

#define MAX_SAMPLES	20000

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
	/* The seed table: periods of 1 ms (its rounding) at 1024, x 1024/scale. */
	for (i = 0; i < ARRAY_SIZE(targets); i++)
		printf("mcross,%u,%.0f,%.1f,%ld\n", scale, targets[i],
		       pelt_time_to_util(&cfg, targets[i], 4e6) / 1000,
		       lround(pelt_series_periods(&full, targets[i])) * 1024 / scale);
}

/* Read exactly @len bytes: the samples exceed what one pipe read returns. */
static int read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t r = read(fd, p, len);

		if (r <= 0)
			return -1;
		p += r;
		len -= r;
	}
	return 0;
}

/* One ramp in a child pinned to @cpu; samples go up a pipe. */
static int ramp_once(int cpu, unsigned int scale, int run)
{
	static double ran_ms[MAX_SAMPLES], util[MAX_SAMPLES];
	double lim = limit_ms(scale);
	int fds[2], n = 0, status;
	long long u, last = 0, ran0, ran;
	pid_t pid;
	size_t i;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (!pid) {
		close(fds[0]);
		if (fi_pin_self(cpu) || fi_ramp_start(&ran0))
			_exit(1);
		ran_ms[n] = 0;		/* the wakeup: a point of the curve */
		util[n++] = 0;
		do {
			if (fi_read_util_ran(&u, &ran))
				_exit(1);
			if (u != last && n < MAX_SAMPLES) {
				ran_ms[n] = (ran - ran0) / 1e6;
				util[n++] = u;
				last = u;
			}
		} while ((ran - ran0) / 1e6 < lim);
		if (write(fds[1], &n, sizeof(n)) != sizeof(n) ||
		    write(fds[1], ran_ms, n * sizeof(double)) != (ssize_t)(n * sizeof(double)) ||
		    write(fds[1], util, n * sizeof(double)) != (ssize_t)(n * sizeof(double)))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read_full(fds[0], &n, sizeof(n)) ||
	    (n > 0 && (read_full(fds[0], ran_ms, n * sizeof(double)) ||
		       read_full(fds[0], util, n * sizeof(double)))))
		n = -1;
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (n < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;

	for (i = 0; i < (size_t)n; i++)
		printf("sample,%u,%d,%.3f,%.0f\n", scale, run, ran_ms[i], util[i]);
	for (i = 0; i < ARRAY_SIZE(targets); i++) {
		int j;

		for (j = 1; j < n && util[j] < targets[i]; j++)
			;
		if (j < n)
			printf("cross,%u,%d,%.0f,%.3f\n", scale, run, targets[i],
			       fi_cross(ran_ms[j - 1], util[j - 1],
					ran_ms[j], util[j], targets[i]));
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
	int runs = 1, cpu = -1, model = 0, opt, r, ret = 0, cpus[64], n;

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
			fprintf(stderr, "usage: ramp_trace [--model] [--scale S] [--runs N] [--cpu C]\n");
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
		fprintf(stderr, "ramp_trace: cannot force scale %u on CPU %d: needs root and CONFIG_X86_FREQ_SCALE_OVERRIDE\n",
			scale, cpu);
		return 1;
	}
	for (r = 0; r < runs; r++) {
		if (ramp_once(cpu, scale, r)) {
			fprintf(stderr, "ramp_trace: ramp %d at scale %u failed\n", r, scale);
			ret = 1;
		}
	}
	if (scale != 1024)
		fi_override(cpu, 0);
	fflush(stdout);
	return ret;
}
