// SPDX-License-Identifier: GPL-2.0
/*
 * intel_pstate on a platform with frequencies, judged from the
 * architectural interfaces only: CPUID.06H (HWP, HWP's EPP, APERF/MPERF),
 * the MSRs the driver writes (IA32_PM_ENABLE, IA32_HWP_REQUEST,
 * IA32_PERF_CTL), APERF/MPERF and MSR_PLATFORM_INFO, cpufreq's sysfs, and
 * the mode the command line asks for (intel_pstate=active, passive or
 * no_hwp: the administrator's choice, not the kernel's claim). Runs on a
 * non-hybrid Intel machine, and on QEMU's DVFS platform (x-dvfs):
 *
 *  - driver_and_mode_are_the_boots: with HWP and its EPP in CPUID (and no
 *    intel_pstate=no_hwp) the driver uses HWP, in active mode unless
 *    intel_pstate=passive; without, it runs in passive mode unless
 *    intel_pstate=active. scaling_driver (intel_pstate in active mode,
 *    intel_cpufreq in passive mode), intel_pstate/status and every CPU's
 *    IA32_PM_ENABLE (1 with HWP in use, 0 with HWP unused, a fault
 *    without HWP) must say so; the same readings judged against the other
 *    mode must not fit (the control);
 *  - busy_cpu_runs_at_the_policy_limits: with scaling_min_freq and
 *    scaling_max_freq both at f, at four frequencies (the minimum, between
 *    it and the base, the base, the 2-core turbo limit), the register the
 *    mode writes asks for f (IA32_HWP_REQUEST's minimum and maximum, or
 *    IA32_PERF_CTL's ratio), and a busy CPU runs at f by APERF/MPERF
 *    within 1%; the control: the 1-core turbo limit, where a busy CPU runs
 *    when its limits are ignored, must miss at a frequency below it;
 *  - no_turbo_holds_the_base: with both limits at the 1-core turbo limit,
 *    a busy CPU runs at the base (MSR_PLATFORM_INFO) within 1% once
 *    intel_pstate/no_turbo is 1; before, it must run above the base by
 *    more than that (the control).
 *
 * Skips, saying why, on a CPU that is not Intel's, where intel_pstate
 * cannot load (neither HWP with EPP nor APERF/MPERF in CPUID: a VM without
 * a platform), on a hybrid part (its frequencies are not 100 MHz per
 * ratio), and, for no_turbo_holds_the_base only, where the firmware
 * disabled turbo. Each CPU's limits and no_turbo are restored on exit.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"
#include "dvfs_util.h"

#define PSTATE			"/sys/devices/system/cpu/intel_pstate"
#define MSR_PLATFORM_INFO	0xce
#define MSR_IA32_PERF_CTL	0x199
#define MSR_IA32_MISC_ENABLE	0x1a0
#define MISC_ENABLE_TURBO_DISABLE	0x4000000000ULL	/* bit 38 */
#define MSR_TURBO_RATIO_LIMIT	0x1ad
#define MSR_IA32_PM_ENABLE	0x770
#define MSR_IA32_HWP_REQUEST	0x774

#define TEST_CPU	1
#define WINDOW_US	200000
/* A busy CPU's frequency by APERF/MPERF against the limit: the reads' skew */
#define RATIO_TOL	0.01
/* Windows whose reads the host stalled (a precondition) before giving up */
#define WINDOW_TRIES	3
#define MAX_CPUS	64

static struct {
	bool hwp_cpuid, hwp, active;	/* what the boot must give */
} want;

static unsigned int base, min_ratio, top, two;	/* ratios (100 MHz) */
static bool turbo_off;
static int cpus[MAX_CPUS], nr_cpus;
static struct {
	char min[32], max[32];
} saved[MAX_CPUS];
static char no_turbo_saved[8];

/* intel_pstate=@opt on the command line (one option per parameter) */
static bool pstate_opt(const char *opt)
{
	char word[64];

	snprintf(word, sizeof(word), "intel_pstate=%s", opt);
	return dvfs_cmdline_has(word);
}

static int test_driver_and_mode(void)
{
	const char *drv = want.active ? "intel_pstate" : "intel_cpufreq";
	const char *other = want.active ? "intel_cpufreq" : "intel_pstate";
	char got[64], status[32];
	int i, bad = 0;

	if (dvfs_cpufreq_read(0, "scaling_driver", got, sizeof(got))) {
		fi_err("no cpufreq driver on CPU 0, expected %s (HWP %s)", drv,
		       want.hwp ? "in use" : "unused");
		return KSFT_FAIL;
	}
	if (fi_read_line(PSTATE "/status", status, sizeof(status)))
		status[0] = 0;
	fi_info("CPUID: HWP %d; expected %s in %s mode, HWP %s; the kernel: %s, status \"%s\"\n",
		want.hwp_cpuid, drv, want.active ? "active" : "passive",
		want.hwp ? "in use" : "unused", got, status);
	if (strcmp(got, drv) || strcmp(status, want.active ? "active" : "passive")) {
		fi_err("driver %s, status \"%s\": expected %s, %s", got, status, drv,
		       want.active ? "active" : "passive");
		bad = 1;
	}
	/* The control: the other mode's driver must not be the one loaded */
	if (!strcmp(got, other)) {
		fi_err("the readings fit the other mode (%s)", other);
		bad = 1;
	}
	for (i = 0; i < nr_cpus; i++) {
		uint64_t v;
		int err = dvfs_msr_read(cpus[i], MSR_IA32_PM_ENABLE, &v);

		if (!want.hwp_cpuid) {
			/* No HWP: the MSR does not exist, and reading it faults */
			if (err != -EIO) {
				fi_err("CPU %d: IA32_PM_ENABLE read %s without HWP in CPUID",
				       cpus[i], err ? strerror(-err) : "succeeded");
				bad = 1;
			}
			continue;
		}
		if (err) {
			fi_err("CPU %d: cannot read IA32_PM_ENABLE (%s)", cpus[i], strerror(-err));
			bad = 1;
		} else if ((v & 1) != want.hwp) {
			fi_err("CPU %d: IA32_PM_ENABLE %llu, HWP expected %s", cpus[i],
			       (unsigned long long)v, want.hwp ? "enabled" : "not enabled");
			bad = 1;
		}
	}
	return bad ? KSFT_FAIL : KSFT_PASS;
}

static int write_khz(int cpu, const char *file, unsigned int khz)
{
	char v[32];

	snprintf(v, sizeof(v), "%u", khz);
	if (dvfs_cpufreq_write(cpu, file, v)) {
		fi_err("CPU %d: cannot write %u to %s", cpu, khz, file);
		return -1;
	}
	return 0;
}

/* Both limits of @cpu at @khz, the minimum lowered first: min <= max always */
static int set_limits(int cpu, unsigned int khz)
{
	return write_khz(cpu, "scaling_min_freq", min_ratio * 100000) ||
	       write_khz(cpu, "scaling_max_freq", khz) ||
	       write_khz(cpu, "scaling_min_freq", khz);
}

static void restore(void)
{
	int i;

	if (no_turbo_saved[0])
		fi_write_str(PSTATE "/no_turbo", no_turbo_saved);
	for (i = 0; i < nr_cpus; i++) {
		if (!saved[i].min[0])
			continue;
		write_khz(cpus[i], "scaling_min_freq", min_ratio * 100000);
		dvfs_cpufreq_write(cpus[i], "scaling_max_freq", saved[i].max);
		dvfs_cpufreq_write(cpus[i], "scaling_min_freq", saved[i].min);
	}
}

/*
 * TEST_CPU busy for a window: its mean effective ratio by APERF/MPERF,
 * and the register its mode writes, read at the end. A window whose reads
 * the host stalled (APERF and MPERF read more than half the bar apart) is
 * a failed precondition: run again, up to WINDOW_TRIES windows.
 */
static int measure(double *ratio, uint64_t *reg)
{
	uint64_t a0, m0, a1, m1, b0, b1;
	pid_t spin = fi_spawn_spinner(TEST_CPU);
	int tries, ret = -1;

	if (spin < 0)
		return -1;
	for (tries = 1; tries <= WINDOW_TRIES; tries++) {
		fi_sleep_us(50000);		/* a few ticks at the new limits */
		if (dvfs_read_am(TEST_CPU, &a0, &m0, &b0))
			break;
		fi_sleep_us(WINDOW_US);
		if (dvfs_read_am(TEST_CPU, &a1, &m1, &b1) || m1 <= m0 ||
		    dvfs_msr_read(TEST_CPU, want.hwp ? MSR_IA32_HWP_REQUEST : MSR_IA32_PERF_CTL,
				  reg))
			break;
		if ((b0 + b1) / 2 <= RATIO_TOL / 2 * (m1 - m0)) {
			*ratio = (double)base * (a1 - a0) / (m1 - m0);
			ret = 0;
			break;
		}
		fi_info("window %d: APERF and MPERF read %llu and %llu MPERF ticks apart over %llu: the host stalled the reads\n",
			tries, (unsigned long long)b0, (unsigned long long)b1,
			(unsigned long long)(m1 - m0));
	}
	fi_reap(spin);
	if (ret)
		fi_err("CPU %d could not be measured", TEST_CPU);
	return ret;
}

static int test_policy_limits(void)
{
	unsigned int ratios[4] = { min_ratio, (min_ratio + base) / 2, base, two };
	int i, bad = 0, told = 0;

	for (i = 0; i < 4; i++) {
		unsigned int lo, hi;
		uint64_t reg;
		double r;

		if (set_limits(TEST_CPU, ratios[i] * 100000) || measure(&r, &reg)) {
			restore();
			return KSFT_FAIL;
		}
		if (want.hwp) {
			lo = reg & 0xff;
			hi = (reg >> 8) & 0xff;
		} else {
			lo = (reg >> 8) & 0xff;
			hi = lo;
		}
		fi_info("limits %u MHz: %s 0x%llx (ratios %u-%u), APERF/MPERF %.0f MHz (the 1-core limit, limits ignored: %u)\n",
			ratios[i] * 100, want.hwp ? "HWP_REQUEST" : "PERF_CTL",
			(unsigned long long)reg, lo, hi, r * 100, top * 100);
		if (lo != ratios[i] || hi != ratios[i]) {
			fi_err("the driver asked for ratios %u-%u, the limits are %u", lo, hi,
			       ratios[i]);
			bad = 1;
		}
		if (fabs(r - ratios[i]) > RATIO_TOL * ratios[i]) {
			fi_err("a busy CPU at %.0f MHz, its limits %u MHz", r * 100,
			       ratios[i] * 100);
			bad = 1;
		}
		if (fabs(r - top) > RATIO_TOL * top)
			told = 1;
	}
	if (!told) {
		fi_err("no frequency told the limits from the 1-core limit %u", top);
		bad = 1;
	}
	restore();
	return bad ? KSFT_FAIL : KSFT_PASS;
}

static int test_no_turbo(void)
{
	double on, off;
	uint64_t reg;
	int bad = 0;

	if (turbo_off) {
		fi_info("the firmware disabled turbo (IA32_MISC_ENABLE bit 38)\n");
		return KSFT_SKIP;
	}
	if (fi_read_line(PSTATE "/no_turbo", no_turbo_saved, sizeof(no_turbo_saved)) ||
	    fi_write_str(PSTATE "/no_turbo", "0") || set_limits(TEST_CPU, top * 100000) ||
	    measure(&on, &reg) || fi_write_str(PSTATE "/no_turbo", "1") || measure(&off, &reg)) {
		fi_err("cannot set the limits or no_turbo, or measure CPU %d", TEST_CPU);
		restore();
		return KSFT_FAIL;
	}
	restore();
	fi_info("limits at the 1-core limit %u MHz: %.0f MHz with no_turbo 0, %.0f with 1; the base %u\n",
		top * 100, on * 100, off * 100, base * 100);
	if (fabs(off - base) > RATIO_TOL * base) {
		fi_err("with no_turbo 1 a busy CPU at %.0f MHz, not the base %u", off * 100,
		       base * 100);
		bad = 1;
	}
	if (on <= base * (1 + RATIO_TOL)) {
		fi_err("with no_turbo 0 a busy CPU at %.0f MHz, not above the base %u: the run cannot tell",
		       on * 100, base * 100);
		bad = 1;
	}
	return bad ? KSFT_FAIL : KSFT_PASS;
}

static const struct fi_test tests[] = {
	{ "driver_and_mode_are_the_boots", test_driver_and_mode },
	{ "busy_cpu_runs_at_the_policy_limits", test_policy_limits },
	{ "no_turbo_holds_the_base", test_no_turbo },
};

int main(void)
{
	unsigned int eax, ebx, ecx, edx, model;
	uint64_t plat_info, trl, trl1 = 0, misc;
	char buf[64];
	int i;

	ksft_print_header();
	if (dvfs_cpuinfo_field("vendor_id", buf, sizeof(buf)) || strcmp(buf, "GenuineIntel"))
		ksft_exit_skip("not an Intel CPU (vendor %s)\n", buf);
	if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (edx & (1U << 15)))
		ksft_exit_skip("a hybrid part: its frequencies are not 100 MHz per ratio\n");
	dvfs_cpuid6(&eax, &ecx);
	want.hwp_cpuid = eax & CPUID6_EAX_HWP;
	want.hwp = want.hwp_cpuid && (eax & CPUID6_EAX_HWP_EPP) && !pstate_opt("no_hwp");
	if (!want.hwp && !(ecx & CPUID6_ECX_APERFMPERF))
		ksft_exit_skip("neither HWP with EPP nor APERF/MPERF in CPUID: %s\n",
			       "intel_pstate cannot load (a VM without a platform)");
	if (pstate_opt("disable"))
		ksft_exit_skip("intel_pstate=disable on the command line\n");
	want.active = pstate_opt("active") || (want.hwp && !pstate_opt("passive"));
	if (dvfs_cpuinfo_field("model", buf, sizeof(buf)))
		ksft_exit_fail_msg("no model in /proc/cpuinfo\n");
	model = strtoul(buf, NULL, 10);
	nr_cpus = fi_online_cpus(cpus, MAX_CPUS);
	if (nr_cpus < 2 || cpus[1] != TEST_CPU)
		ksft_exit_skip("needs CPUs 0 and %d online\n", TEST_CPU);
	if (dvfs_msr_read(0, MSR_PLATFORM_INFO, &plat_info) ||
	    dvfs_msr_read(0, MSR_TURBO_RATIO_LIMIT, &trl) ||
	    dvfs_msr_read(0, MSR_IA32_MISC_ENABLE, &misc) ||
	    (dvfs_trl_groups(model) && dvfs_msr_read(0, MSR_TURBO_RATIO_LIMIT + 1, &trl1)))
		ksft_exit_fail_msg("cannot read the MSRs through /dev/cpu/0/msr (%s)\n",
				   "CONFIG_X86_MSR, root");
	base = (plat_info >> 8) & 0xff;
	min_ratio = (plat_info >> 40) & 0xff;
	turbo_off = misc & MISC_ENABLE_TURBO_DISABLE;
	top = dvfs_trl_limit(model, trl, trl1, 1);
	two = dvfs_trl_limit(model, trl, trl1, 2);
	if (turbo_off || !top) {
		top = base;
		two = base;
	}
	/* The 2-core limit: CPU 0's moments in C0 must not cap the busy CPU */
	if (!two || two > top)
		two = top;
	fi_info("model %u: ratios min %u, base %u, turbo 1-core %u, 2-core %u%s\n", model,
		min_ratio, base, top, two, turbo_off ? " (turbo disabled)" : "");
	for (i = 0; i < nr_cpus; i++)
		if (dvfs_cpufreq_read(cpus[i], "scaling_min_freq", saved[i].min,
				      sizeof(saved[i].min)) ||
		    dvfs_cpufreq_read(cpus[i], "scaling_max_freq", saved[i].max,
				      sizeof(saved[i].max)))
			saved[i].min[0] = 0;
	atexit(restore);
	fi_run_tests(tests, ARRAY_SIZE(tests));
	return 0;
}
