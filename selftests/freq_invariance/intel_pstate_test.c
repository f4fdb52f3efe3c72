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
 *  - platform_is_the_boots: MSR_PLATFORM_INFO's base and minimum ratios,
 *    the turbo limits of 1, 2, 4 and all cores (MSR_TURBO_RATIO_LIMIT in
 *    the model's layout) and, with HWP, IA32_HWP_CAPABILITIES (highest the
 *    1-core limit, guaranteed the base, lowest the minimum) are the part
 *    the boot names with fi_platform= (skips without it); the same
 *    readings judged against another named part must not fit (the
 *    control);
 *  - driver_and_mode_are_the_boots: with HWP and its EPP in CPUID (and no
 *    intel_pstate=no_hwp) the driver uses HWP, in active mode unless
 *    intel_pstate=passive; without, it runs in passive mode unless
 *    intel_pstate=active. scaling_driver (intel_pstate in active mode,
 *    intel_cpufreq in passive mode), intel_pstate/status and every CPU's
 *    IA32_PM_ENABLE (1 with HWP in use, 0 with HWP unused, a fault
 *    without HWP) must say so;
 *  - busy_cpu_runs_at_the_policy_limits: with scaling_min_freq and
 *    scaling_max_freq both at f, at four frequencies (the minimum, between
 *    it and the base, the base, the 2-core turbo limit), the register the
 *    mode writes asks for f (IA32_HWP_REQUEST's minimum and maximum, and
 *    its desired ratio f under schedutil in passive mode, none in active
 *    mode; or IA32_PERF_CTL's ratio), and a busy CPU runs at f by
 *    APERF/MPERF within 1%; the control: the 1-core turbo limit, where a
 *    busy CPU runs when its limits are ignored, must miss at a frequency
 *    below it. With HWP, CPU 0's request must not move meanwhile;
 *  - min_and_max_bound_apart: the maximum alone at m (between the minimum
 *    and the base; the minimum at the lowest): the register asks for at
 *    most m, and a busy CPU runs at m (the control: the 1-core limit must
 *    miss); then the minimum alone at m (the maximum at the 1-core
 *    limit): the register asks for at least m, and a CPU in C0 for a small
 *    share of its time (200 us every 20 ms; with HWP, its EPP at "power")
 *    runs at m or above while in C0 (the control: the lowest ratio, near
 *    which such a CPU runs when its minimum is ignored, must miss);
 *  - no_turbo_holds_the_base: with both limits at the 1-core turbo limit,
 *    a busy CPU runs at the base (MSR_PLATFORM_INFO) within 1% once
 *    intel_pstate/no_turbo is 1; before, it must run above the base by
 *    more than that (the control).
 *
 * The vendor, family and model come from CPUID itself. Skips, saying why,
 * with intel_pstate=disable, without CPUs 0 and 1 online, on a CPU that
 * is not Intel's, where intel_pstate
 * cannot load (neither HWP with EPP nor APERF/MPERF in CPUID: a VM without
 * a platform), on a hybrid part (its frequencies are not 100 MHz per
 * ratio), and, for no_turbo_holds_the_base only, where the firmware
 * disabled turbo. Each CPU's limits, CPU 1's EPP and no_turbo are
 * restored on exit.
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

#define TEST_CPU	1
#define WINDOW_US	200000
/*
 * The light load: C0 for 200 us every 20 ms, over a longer window (its
 * reads then count enough C0 time), with HWP's energy/performance
 * preference at "power": what runs a CPU near its lowest ratio when its
 * minimum is ignored
 */
#define LIGHT_PERIOD_US	20000
#define LIGHT_BUSY_US	200
#define LIGHT_WINDOW_US	2000000
/* A light load's share of C0, above which it cannot tell a minimum */
#define LIGHT_C0_MAX	0.5
/* A busy CPU's frequency by APERF/MPERF against the limit: the reads' skew */
#define RATIO_TOL	0.01
/* Windows whose reads the host stalled (a precondition) before giving up */
#define WINDOW_TRIES	3
#define MAX_CPUS	64

static struct {
	bool hwp_cpuid, hwp, active;	/* what the boot must give */
	bool desired;			/* HWP's desired ratio set: passive, schedutil */
} want;

static struct fi_part boot;
static unsigned int model;
static uint64_t plat_info, trl, trl1, hwp_cap;

static unsigned int base, min_ratio, top, two;	/* ratios (100 MHz) */
static bool turbo_off;
static int cpus[MAX_CPUS], nr_cpus;
static struct {
	char min[32], max[32];
} saved[MAX_CPUS];
static char no_turbo_saved[8];
#define EPP	"energy_performance_preference"
static char epp_saved[64];

/* intel_pstate=@opt on the command line (one option per parameter) */
static bool pstate_opt(const char *opt)
{
	char word[64];

	snprintf(word, sizeof(word), "intel_pstate=%s", opt);
	return dvfs_cmdline_has(word);
}

/* How many of the MSRs' figures differ from @part's (0: they are its) */
static int part_misses(const struct fi_part *part, bool say)
{
	unsigned int got[LEVELS] = {
		dvfs_trl_limit(model, trl, trl1, 1), dvfs_trl_limit(model, trl, trl1, 2),
		dvfs_trl_limit(model, trl, trl1, 4), dvfs_trl_limit(model, trl, trl1, 8) };
	uint64_t cap_want;
	int i, miss = 0;

	if (base != part->base || min_ratio != part->min) {
		if (say)
			fi_err("base/min ratio %u/%u, the boot's part has %u/%u", base, min_ratio,
			       part->base, part->min);
		miss++;
	}
	for (i = 0; i < LEVELS; i++)
		if (got[i] != part->turbo[i]) {
			if (say)
				fi_err("turbo limit %d: ratio %u, the boot's part has %u", i,
				       got[i], part->turbo[i]);
			miss++;
		}
	if (want.hwp_cpuid && want.hwp) {
		cap_want = part->turbo[L1C] | part->base << 8 | part->min << 16 |
			   (uint64_t)part->min << 24;
		if ((hwp_cap & 0xffffffff) != cap_want) {
			if (say)
				fi_err("HWP_CAPABILITIES 0x%llx is not the part's 0x%llx",
				       (unsigned long long)hwp_cap,
				       (unsigned long long)cap_want);
			miss++;
		}
	}
	return miss;
}

static int test_platform(void)
{
	struct fi_part other;
	int bad = 0;

	if (!boot.named) {
		fi_info("no fi_platform= on the command line: the part is what its MSRs say\n");
		return KSFT_SKIP;
	}
	dvfs_other_part(&boot, &other);
	fi_info("base %u, min %u, turbo 1/2/4/all cores %u/%u/%u/%u, HWP_CAPABILITIES 0x%llx; the boot's part: %u, %u, %u/%u/%u/%u\n",
		base, min_ratio, dvfs_trl_limit(model, trl, trl1, 1),
		dvfs_trl_limit(model, trl, trl1, 2), dvfs_trl_limit(model, trl, trl1, 4),
		dvfs_trl_limit(model, trl, trl1, 8), (unsigned long long)hwp_cap, boot.base,
		boot.min, boot.turbo[L1C], boot.turbo[L2C], boot.turbo[L4C], boot.turbo[LAC]);
	if (part_misses(&boot, true))
		bad = 1;
	/* The control: the same readings judged against another part must miss */
	if (!part_misses(&other, false)) {
		fi_err("the readings also fit another part (base %u, 1-core %u)", other.base,
		       other.turbo[L1C]);
		bad = 1;
	}
	return bad ? KSFT_FAIL : KSFT_PASS;
}

static int test_driver_and_mode(void)
{
	const char *drv = want.active ? "intel_pstate" : "intel_cpufreq";
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

/* @cpu's limits at ratios @lo and @hi, the minimum lowered first: min <= max always */
static int set_range(int cpu, unsigned int lo, unsigned int hi)
{
	return dvfs_cpufreq_write_khz(cpu, "scaling_min_freq", min_ratio * 100000) ||
	       dvfs_cpufreq_write_khz(cpu, "scaling_max_freq", hi * 100000) ||
	       dvfs_cpufreq_write_khz(cpu, "scaling_min_freq", lo * 100000);
}

/* Both limits of @cpu at @khz */
static int set_limits(int cpu, unsigned int khz)
{
	return set_range(cpu, khz / 100000, khz / 100000);
}

static void restore(void)
{
	int i;

	if (epp_saved[0]) {
		dvfs_cpufreq_write(TEST_CPU, EPP, epp_saved);
		epp_saved[0] = 0;
	}
	if (no_turbo_saved[0])
		fi_write_str(PSTATE "/no_turbo", no_turbo_saved);
	for (i = 0; i < nr_cpus; i++) {
		if (!saved[i].min[0])
			continue;
		dvfs_cpufreq_write_khz(cpus[i], "scaling_min_freq", min_ratio * 100000);
		dvfs_cpufreq_write(cpus[i], "scaling_max_freq", saved[i].max);
		dvfs_cpufreq_write(cpus[i], "scaling_min_freq", saved[i].min);
	}
}

/*
 * TEST_CPU busy for a window (or, with @light, in C0 for LIGHT_BUSY_US of
 * every LIGHT_PERIOD_US, over LIGHT_WINDOW_US): its mean effective ratio
 * in C0 by APERF/MPERF, its share of the window in C0 (MPERF over the
 * TSC), and the register its mode writes, read at the end. A window whose
 * reads the host stalled (APERF and MPERF read more than half the bar
 * apart) is a failed precondition: run again, up to WINDOW_TRIES windows.
 */
static int measure_load(bool light, double *ratio, double *c0, uint64_t *reg)
{
	uint64_t a0, m0, a1, m1, b0, b1, t0, t1;
	pid_t pid = light ? fi_spawn_duty(TEST_CPU, LIGHT_PERIOD_US, LIGHT_BUSY_US) :
			    fi_spawn_spinner(TEST_CPU);
	int tries, ret = -1;

	if (pid < 0)
		return -1;
	for (tries = 1; tries <= WINDOW_TRIES; tries++) {
		fi_sleep_us(50000);		/* a few ticks at the new limits */
		t0 = dvfs_tsc();
		if (dvfs_read_am(TEST_CPU, &a0, &m0, &b0))
			break;
		fi_sleep_us(light ? LIGHT_WINDOW_US : WINDOW_US);
		if (dvfs_read_am(TEST_CPU, &a1, &m1, &b1) || m1 <= m0 ||
		    dvfs_msr_read(TEST_CPU, want.hwp ? MSR_IA32_HWP_REQUEST : MSR_IA32_PERF_CTL,
				  reg))
			break;
		t1 = dvfs_tsc();
		if ((b0 + b1) / 2 <= RATIO_TOL / 2 * (m1 - m0)) {
			*ratio = (double)base * (a1 - a0) / (m1 - m0);
			*c0 = t1 > t0 ? (double)(m1 - m0) / (t1 - t0) : 1;
			ret = 0;
			break;
		}
		fi_info("window %d: APERF and MPERF read %llu and %llu MPERF ticks apart over %llu: the host stalled the reads\n",
			tries, (unsigned long long)b0, (unsigned long long)b1,
			(unsigned long long)(m1 - m0));
	}
	fi_reap(pid);
	if (ret)
		fi_err("CPU %d could not be measured", TEST_CPU);
	return ret;
}

static int measure(double *ratio, uint64_t *reg)
{
	double c0;

	return measure_load(false, ratio, &c0, reg);
}

/* The register's minimum, maximum and desired ratios (PERF_CTL: its one ratio) */
static void decode(uint64_t reg, unsigned int *lo, unsigned int *hi, unsigned int *des)
{
	if (want.hwp) {
		*lo = reg & 0xff;
		*hi = (reg >> 8) & 0xff;
		*des = (reg >> 16) & 0xff;
	} else {
		*lo = (reg >> 8) & 0xff;
		*hi = *lo;
		*des = 0;
	}
}

static int test_policy_limits(void)
{
	unsigned int ratios[4] = { min_ratio, (min_ratio + base) / 2, base, two };
	uint64_t cpu0_before = 0, cpu0_after = 0;
	int i, bad = 0, told = 0;

	if (want.hwp && dvfs_msr_read(0, MSR_IA32_HWP_REQUEST, &cpu0_before)) {
		fi_err("cannot read CPU 0's IA32_HWP_REQUEST");
		return KSFT_FAIL;
	}
	for (i = 0; i < 4; i++) {
		unsigned int lo, hi, des, des_want = want.desired ? ratios[i] : 0;
		uint64_t reg;
		double r;

		if (set_limits(TEST_CPU, ratios[i] * 100000) || measure(&r, &reg)) {
			restore();
			return KSFT_FAIL;
		}
		decode(reg, &lo, &hi, &des);
		fi_info("limits %u MHz: %s 0x%llx (ratios %u-%u, desired %u), APERF/MPERF %.0f MHz (the 1-core limit, limits ignored: %u)\n",
			ratios[i] * 100, want.hwp ? "HWP_REQUEST" : "PERF_CTL",
			(unsigned long long)reg, lo, hi, des, r * 100, top * 100);
		if (lo != ratios[i] || hi != ratios[i] || des != des_want) {
			fi_err("the driver asked for ratios %u-%u, desired %u; the limits are %u, desired %u",
			       lo, hi, des, ratios[i], des_want);
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
	restore();
	if (!told) {
		fi_err("no frequency told the limits from the 1-core limit %u", top);
		bad = 1;
	}
	if (want.hwp && (dvfs_msr_read(0, MSR_IA32_HWP_REQUEST, &cpu0_after) ||
			 (cpu0_after & 0xffff) != (cpu0_before & 0xffff))) {
		fi_err("CPU 0's HWP request went from 0x%llx to 0x%llx with CPU %d's limits",
		       (unsigned long long)cpu0_before, (unsigned long long)cpu0_after, TEST_CPU);
		bad = 1;
	}
	return bad ? KSFT_FAIL : KSFT_PASS;
}

static int test_min_max_apart(void)
{
	unsigned int m = (min_ratio + base) / 2, lo, hi, des;
	uint64_t reg;
	double r, c0;
	int bad = 0;

	if (m <= min_ratio * (1 + 2 * RATIO_TOL) || m >= top) {
		fi_err("no ratio between the minimum %u and the 1-core limit %u to tell them",
		       min_ratio, top);
		return KSFT_FAIL;
	}
	/* The maximum alone: a busy CPU at m, asked for no more */
	if (set_range(TEST_CPU, min_ratio, m) || measure(&r, &reg)) {
		restore();
		return KSFT_FAIL;
	}
	decode(reg, &lo, &hi, &des);
	fi_info("limits %u-%u MHz, busy: %s 0x%llx (ratios %u-%u), APERF/MPERF %.0f MHz (the 1-core limit: %u)\n",
		min_ratio * 100, m * 100, want.hwp ? "HWP_REQUEST" : "PERF_CTL",
		(unsigned long long)reg, lo, hi, r * 100, top * 100);
	if (hi != m || lo > m || (want.hwp && lo != min_ratio)) {
		fi_err("the driver asked for ratios %u-%u, the limits are %u-%u", lo, hi,
		       min_ratio, m);
		bad = 1;
	}
	if (fabs(r - m) > RATIO_TOL * m) {
		fi_err("a busy CPU at %.0f MHz, its maximum %u MHz", r * 100, m * 100);
		bad = 1;
	}
	if (fabs(r - top) <= RATIO_TOL * top) {
		fi_err("the run also fits a maximum ignored (the 1-core limit)");
		bad = 1;
	}
	/* The minimum alone: a CPU mostly idle at m or above while in C0 */
	if (want.hwp && (dvfs_cpufreq_read(TEST_CPU, EPP, epp_saved, sizeof(epp_saved)) ||
			 dvfs_cpufreq_write(TEST_CPU, EPP, "power"))) {
		fi_err("cannot set CPU %d's %s to power", TEST_CPU, EPP);
		restore();
		return KSFT_FAIL;
	}
	if (set_range(TEST_CPU, m, top) || measure_load(true, &r, &c0, &reg)) {
		restore();
		return KSFT_FAIL;
	}
	restore();
	decode(reg, &lo, &hi, &des);
	fi_info("limits %u-%u MHz, C0 %.3f of the time: %s 0x%llx (ratios %u-%u), APERF/MPERF in C0 %.0f MHz (the lowest ratio, minimum ignored: %u)\n",
		m * 100, top * 100, c0, want.hwp ? "HWP_REQUEST" : "PERF_CTL",
		(unsigned long long)reg, lo, hi, r * 100, min_ratio * 100);
	if (c0 > LIGHT_C0_MAX) {
		fi_err("the light load kept CPU %d in C0 %.3f of the time: it cannot tell a minimum",
		       TEST_CPU, c0);
		return KSFT_FAIL;
	}
	/*
	 * HWP's request carries the limits; PERF_CTL the governor's pick
	 * within them, which a CPU slowed by its frequency (its light load's
	 * C0 time longer) may put above the minimum
	 */
	if (want.hwp ? lo != m || hi != top : lo < m || lo > top) {
		fi_err("the driver asked for ratios %u-%u, the limits are %u-%u", lo, hi, m, top);
		bad = 1;
	}
	if (r < m * (1 - RATIO_TOL)) {
		fi_err("a CPU in C0 at %.0f MHz, below its minimum %u MHz", r * 100, m * 100);
		bad = 1;
	}
	if (fabs(r - min_ratio) <= RATIO_TOL * min_ratio) {
		fi_err("the run also fits a minimum ignored (the lowest ratio)");
		bad = 1;
	}
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
	{ "platform_is_the_boots", test_platform },
	{ "driver_and_mode_are_the_boots", test_driver_and_mode },
	{ "busy_cpu_runs_at_the_policy_limits", test_policy_limits },
	{ "min_and_max_bound_apart", test_min_max_apart },
	{ "no_turbo_holds_the_base", test_no_turbo },
};

int main(void)
{
	unsigned int eax, ebx, ecx, edx, family;
	char vendor[13] = "", gov[32];
	uint64_t misc;
	int i;

	ksft_print_header();
	if (dvfs_cpuid_ident(vendor, &family, &model) || strcmp(vendor, "GenuineIntel"))
		ksft_exit_skip("not an Intel CPU (CPUID vendor \"%s\")\n", vendor);
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
	nr_cpus = fi_online_cpus(cpus, MAX_CPUS);
	if (nr_cpus < 2 || cpus[1] != TEST_CPU)
		ksft_exit_skip("needs CPUs 0 and %d online\n", TEST_CPU);
	/* schedutil in passive mode with HWP writes its target as the desired ratio */
	want.desired = want.hwp && !want.active &&
		       !dvfs_cpufreq_read(TEST_CPU, "scaling_governor", gov, sizeof(gov)) &&
		       !strcmp(gov, "schedutil");
	if (dvfs_fi_platform(&boot))
		ksft_exit_fail_msg("fi_platform= on the command line is not a part\n");
	if (dvfs_msr_read(0, MSR_PLATFORM_INFO, &plat_info) ||
	    dvfs_msr_read(0, MSR_TURBO_RATIO_LIMIT, &trl) ||
	    dvfs_msr_read(0, MSR_IA32_MISC_ENABLE, &misc) ||
	    (dvfs_trl_groups(model) && dvfs_msr_read(0, MSR_TURBO_RATIO_LIMIT + 1, &trl1)) ||
	    (want.hwp && dvfs_msr_read(0, MSR_IA32_HWP_CAPABILITIES, &hwp_cap)))
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
	fi_info("family %u model %u: ratios min %u, base %u, turbo 1-core %u, 2-core %u%s\n",
		family, model, min_ratio, base, top, two, turbo_off ? " (turbo disabled)" : "");
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
