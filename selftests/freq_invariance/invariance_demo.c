// SPDX-License-Identifier: GPL-2.0
/*
 * Frequency invariance at work, for `make run`: the same work per period
 * (20% of 5 ms at scale 1024) on the last CPU at scales 1024, 768, 512
 * and 256 forced with freq_scale_override, its busy time stretched by
 * 1024/scale as a slower clock would; for each, util_avg beside the PELT
 * model's expectation with and without invariance, how far clock_pelt fell
 * behind clock_task and how much idle time was lost. Not a test: it
 * reports, it asserts nothing.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>

#include "fi_util.h"
#include "pelt_model.h"

#define PERIOD_US	5000
#define UTIL		0.20

int main(void)
{
	static const unsigned int scales[] = { 1024, 768, 512, 256 };
	int cpus[64], n, cpu, i;
	struct fi_duty d;

	fi_teardown_on_signals();
	n = fi_online_cpus(cpus, 64);
	if (n < 2) {
		printf("invariance_demo: needs two CPUs\n");
		return 0;
	}
	cpu = cpus[n - 1];
	fi_pin_self(cpus[0]);
	if (fi_override(cpu, 1024)) {
		printf("invariance_demo: no %s/cpu%d/freq_scale_override\n",
		       FI_DEBUGFS, cpu);
		return 0;
	}
	printf("20%% of %d us at scale 1024 on CPU %d, busy time stretched by 1024/scale\n",
	       PERIOD_US, cpu);
	printf("%5s %8s %8s %9s %12s %12s %12s %12s\n", "scale", "busy_us", "ran_us",
	       "util_avg", "model", "model", "max pelt", "lost_idle");
	printf("%5s %8s %8s %9s %12s %12s %12s %12s\n", "", "", "", "", "invariant",
	       "not invar.", "lag (us)", "grew (us)");
	for (i = 0; i < 4; i++) {
		double busy = UTIL * PERIOD_US * PELT_SCALE / scales[i];
		struct pelt_cfg inv = { scales[i], PELT_TIME_SCALING };
		struct pelt_cfg non = { scales[i], PELT_NOT_INVARIANT };

		fi_override(cpu, scales[i]);
		if (fi_measure_duty(cpu, PERIOD_US, busy, 500000, 1000000, &d))
			break;
		printf("%5u %8.0f %8.0f %9.1f %12.1f %12.1f %12.0f %12.0f\n", scales[i], busy,
		       d.ran_us, d.util,
		       pelt_periodic(&inv, PERIOD_US, d.ran_us, 500000).seen,
		       pelt_periodic(&non, PERIOD_US, d.ran_us, 500000).seen,
		       d.max_lag_ns / 1e3, d.lost_ns / 1e3);
	}
	fi_override(cpu, 0);
	return 0;
}
