// SPDX-License-Identifier: GPL-2.0
/*
 * x86 frequency invariance on a platform with APERF/MPERF, judged from
 * the architectural interfaces only: CPUID (/proc/cpuinfo's flags and
 * model), the MSRs (/dev/cpu/N/msr) and cpufreq's sysfs. What the kernel
 * says of itself (sched/freq_invariance's debugfs) is what is judged,
 * never the expectation. Runs on an Intel machine with the series, and on
 * QEMU's DVFS platform (x-dvfs), whose boots name their part on the
 * kernel command line (fi_platform=PROFILE, ignored by the kernel) so
 * that the MSRs themselves are checked against it:
 *
 *  - platform_msrs_are_the_boots: MSR_PLATFORM_INFO's base and minimum
 *    ratios and the turbo ratio limits, decoded in the model's layout,
 *    are the named part's (skips without fi_platform=);
 *  - boot_code_picks_the_reference: max_freq_ratio is the reference the
 *    SDM's layout gives over the base, x 1024: the base with turbo
 *    disabled (IA32_MISC_ENABLE bit 38), on the Xeons that list their
 *    limits by groups (Skylake-X, model 85, and later: dvfs_util.c's
 *    dvfs_trl_xeon_groups()) the first group of at least 4 cores
 *    (MSR_TURBO_RATIO_LIMIT1's sizes), on the Atoms that do (Goldmont, 92,
 *    and later) the first group, elsewhere the 4-core limit (the 1-core
 *    one where that byte is 0); on the group layout the same MSRs read by
 *    cores (byte 3) must give another reference, or the boot cannot tell
 *    the layouts apart (the inline control);
 *  - busy_cpu_scale_is_aperf_over_mperf: a busy CPU at four requested
 *    frequencies (cpufreq's userspace governor; the minimum, between it
 *    and the base, the base, the 2-core limit): its freq_scale is
 *    min(f / f_ref, 1) x 1024 within 1%, f its frequency by APERF/MPERF
 *    over the window; the same data judged with the 1-core turbo as the
 *    reference must miss where the two differ (the inline control);
 *  - turbo_cap_follows_busy_cpus: with fi_platform=, a CPU asking for
 *    the 1-core turbo runs at the 1-core limit alone (at the 2-core one
 *    for the share of the window CPU 0 was in C0), at the 2-core limit
 *    beside a second busy CPU, and at the base with turbo disabled (where
 *    cpufreq clamps its requests to the base, the 1-core turbo is written
 *    to IA32_PERF_CTL directly); a cap that ignores the active CPUs is the
 *    control (skips without fi_platform=);
 *  - idle_cpu_mperf_stops: MPERF counts an idle CPU's C0 moments only,
 *    and all of a busy CPU's time (the control).
 *
 * fi_platform=PROFILE+turbo-off names a part whose firmware disabled
 * turbo: IA32_MISC_ENABLE bit 38 set and CPUID's IDA clear.
 *
 * Skips, saying why, where CPUID.06H:ECX has no APERF/MPERF (a VM without a
 * platform: the unpatched QEMU's boots), or there is no cpufreq policy
 * with the userspace governor.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"
#include "dvfs_util.h"
#include "pelt_model.h"

#define TEST_CPU	1
#define WINDOW_US	200000
/*
 * freq_scale within 1% of 1024 of the formula: the kernel's integer
 * arithmetic is within 2 units, and the window's APERF and MPERF are read
 * by two IPIs, whose skew over the window is a fraction of a percent.
 */
#define SCALE_TOL	0.01
/* The effective frequency against the request: the same reads' skew */
#define RATIO_TOL	0.01
/* An idle CPU's MPERF: C0 for its ticks and wakeups only */
#define IDLE_C0_MAX	0.2
/*
 * idle_cpu_mperf_stops' window: its reads are IPIs to a CPU that a
 * platform slowing its vCPUs on a busy host may answer only after
 * milliseconds (its thread waits for a host CPU); 1 s keeps reads of up
 * to 5 ms each within half RATIO_TOL of the window
 */
#define IDLE_WINDOW_US	1000000
/*
 * turbo_cap_follows_busy_cpus' window: CPU 0's share of it in C0 is
 * counted from before its first reads of CPU 1 to after its last, and is
 * in C0 for those reads (IPIs a stalled host answers in milliseconds),
 * which CPU 1's window counts only in part; over 1 s, reads of a few ms
 * at each edge move that share by under 1%
 */
#define CAP_WINDOW_US	1000000

static struct fi_part boot;

static struct dvfs_msrs msrs;	/* CPU 0's */
static char gov_saved[2][64];

static bool group_layout(void)
{
	return dvfs_trl_groups(msrs.model);
}

/* The turbo limit with @n cores active, decoded as the SDM lays it out */
static unsigned int trl_limit(unsigned int n)
{
	return dvfs_trl_limit(msrs.model, msrs.trl, msrs.trl1, n);
}

/* The 4-core limit read by cores (byte 3), the 1-core one where it is 0 */
static unsigned int by_cores_reference(void)
{
	return dvfs_by_cores_reference(&msrs);
}

/*
 * The reference ratio the boot code must pick, as its design says: the
 * turbo limit with 4 cores active (on the Xeons' group layout, the first
 * group of 4 cores or more), the 1-core limit on Atoms
 */
static unsigned int reference(void)
{
	if (msrs.misc_enable & MISC_ENABLE_TURBO_DISABLE)
		return (msrs.plat_info >> 8) & 0xff;
	return dvfs_turbo_reference(&msrs);
}

static int test_platform_msrs(void)
{
	unsigned int base = (msrs.plat_info >> 8) & 0xff, min = (msrs.plat_info >> 40) & 0xff;
	unsigned int want[LEVELS], got[LEVELS] = {
		trl_limit(1), trl_limit(2), trl_limit(4), trl_limit(8) };
	int i, bad = 0;

	unsigned int eax, ecx;
	bool off = msrs.misc_enable & MISC_ENABLE_TURBO_DISABLE;

	if (!boot.named) {
		ksft_print_msg("no fi_platform= on the command line: %s\n",
			       "the part is what its MSRs say");
		return KSFT_SKIP;
	}
	memcpy(want, boot.turbo, sizeof(want));
	/* Turbo disabled by the firmware: MISC_ENABLE bit 38, and no IDA */
	dvfs_cpuid6(&eax, &ecx);
	fi_info("turbo: MISC_ENABLE bit 38 %d, CPUID.06H:EAX[1] (IDA) %d; the boot's part: %s\n",
		off, !!(eax & CPUID6_EAX_IDA), boot.turbo_off ? "disabled" : "enabled");
	if (off != boot.turbo_off || !!(eax & CPUID6_EAX_IDA) == boot.turbo_off) {
		fi_err("turbo %s by the MSR, IDA %d, the boot's part has it %s", off ? "off" : "on",
		       !!(eax & CPUID6_EAX_IDA), boot.turbo_off ? "disabled" : "enabled");
		bad = 1;
	}
	fi_info("PLATFORM_INFO 0x%llx: base %u, min %u; turbo 1/2/4/8 cores %u/%u/%u/%u (%s layout)\n",
		(unsigned long long)msrs.plat_info, base, min, got[0], got[1], got[2], got[3],
		group_layout() ? "group" : "core");
	if (base != boot.base || min != boot.min) {
		fi_err("base/min ratio %u/%u, the boot's part has %u/%u", base, min,
		       boot.base, boot.min);
		bad = 1;
	}
	for (i = 0; i < LEVELS; i++)
		if (got[i] != want[i]) {
			fi_err("turbo limit %d: ratio %u, the boot's part has %u", i, got[i],
			       want[i]);
			bad = 1;
		}
	return bad ? KSFT_FAIL : KSFT_PASS;
}

static int test_reference(void)
{
	unsigned int base = (msrs.plat_info >> 8) & 0xff, ref = reference();
	unsigned long long want = ref * 1024ULL / base;
	uint64_t ratio;
	char status[256];

	if (fi_read_u64(FI_DEBUGFS "/max_freq_ratio", &ratio) ||
	    fi_read_line(FI_DEBUGFS "/status", status, sizeof(status))) {
		fi_err("cannot read %s/max_freq_ratio or status (sched patches 2-5?)",
		       FI_DEBUGFS);
		return KSFT_FAIL;
	}
	fi_info("model %u, turbo %s: reference ratio %u over base %u: max_freq_ratio %llu; the kernel: %llu, status \"%s\"\n",
		msrs.model, msrs.misc_enable & MISC_ENABLE_TURBO_DISABLE ? "disabled" : "enabled",
		ref, base, want, (unsigned long long)ratio, status);
	if (strncmp(status, "on", 2)) {
		fi_err("status \"%s\", expected on", status);
		return KSFT_FAIL;
	}
	/* The control: the same MSRs read by cores, as a client part's */
	if (group_layout() && !(msrs.misc_enable & MISC_ENABLE_TURBO_DISABLE)) {
		unsigned int alt = by_cores_reference();

		fi_info("read by cores, byte 3 would give %u: max_freq_ratio %llu\n",
			alt, alt * 1024ULL / base);
		if (alt == ref) {
			fi_err("the reading by cores also gives %u: this boot cannot tell the layouts apart",
			       ref);
			return KSFT_FAIL;
		}
	}
	if (ratio != want) {
		fi_err("max_freq_ratio %llu, expected %llu", (unsigned long long)ratio, want);
		return KSFT_FAIL;
	}
	return KSFT_PASS;
}

static int set_khz(int cpu, unsigned int khz)
{
	char val[32];

	snprintf(val, sizeof(val), "%u", khz);
	return dvfs_cpufreq_write(cpu, "scaling_setspeed", val);
}

#define MSR_IA32_PERF_CTL	0x199

/*
 * @cpu's IA32_PERF_CTL asking for @ratio (bits 15:8), its other bits
 * kept: as a kernel that ignored turbo being disabled would write it
 * (cpufreq clamps its requests to the base then, and the platform's own
 * rule would go untested). The governor's next request replaces it.
 */
static int write_perf_ctl(int cpu, unsigned int ratio)
{
	char path[64];
	uint64_t v;
	int fd, ret;

	if (dvfs_msr_read(cpu, MSR_IA32_PERF_CTL, &v))
		return -1;
	v = (v & ~0xff00ULL) | (uint64_t)ratio << 8;
	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = pwrite(fd, &v, sizeof(v), MSR_IA32_PERF_CTL) == sizeof(v) ? 0 : -1;
	close(fd);
	return ret;
}

/* The userspace governor on @cpu, the one it had saved for restore() */
static int take_policy(int cpu)
{
	if (!gov_saved[cpu][0] &&
	    dvfs_cpufreq_read(cpu, "scaling_governor", gov_saved[cpu], sizeof(gov_saved[cpu])))
		return -1;
	return dvfs_cpufreq_write(cpu, "scaling_governor", "userspace");
}

/* Each CPU's governor back, after each test and at exit */
static void restore(void)
{
	int cpu;

	for (cpu = 0; cpu < 2; cpu++)
		if (gov_saved[cpu][0]) {
			dvfs_cpufreq_write(cpu, "scaling_governor", gov_saved[cpu]);
			gov_saved[cpu][0] = 0;
		}
}

/*
 * Spin on TEST_CPU (and on CPU 0 too with @both) for a window, sampling
 * TEST_CPU's APERF/MPERF at its ends and its freq_scale in its middle:
 * the mean effective ratio over the window, and the scale, the median of
 * SCALE_READS reads (one tick's scale is an APERF delta over an MPERF
 * delta read one after the other: a host that stalls the vCPU between
 * the two puts its stall into one tick's MPERF and the next one's APERF,
 * opposite errors that a mean keeps and a median drops; the reads stay
 * in scale_reads[] for the caller to judge each); and the share
 * of the window CPU 0 spent in C0 (its MPERF over the TSC), during which
 * two CPUs were active.
 */
#define SCALE_READS	7
static double scale_reads[SCALE_READS];
/*
 * Windows whose reads the host stalled (a precondition) before giving up.
 * Whether a read is stalled is its own latency, measured around it, not
 * anything the kernel under test computes; a quiet host needs one window,
 * and a bound of ten costs nothing there (2 s at most per frequency, 10 s
 * per turbo cap window).
 */
#define WINDOW_TRIES	10

static int measure(bool both, unsigned int window_us, double share_tol, double *ratio,
		   double *scale, double *c0_share0)
{
	unsigned int base = (msrs.plat_info >> 8) & 0xff;
	uint64_t a0, m0, a1, m1, z0, z1, t0, t1, b0, b1, e0, e1;
	double *reads = scale_reads;
	pid_t spin[2] = { fi_spawn_spinner(TEST_CPU), both ? fi_spawn_spinner(0) : 0 };
	int i, n, tries, ret = -1;

	if (spin[0] < 0 || spin[1] < 0)
		goto out;
	for (tries = 1; tries <= WINDOW_TRIES; tries++) {
		fi_sleep_us(50000);		/* a few ticks at the new frequency */
		t0 = dvfs_tsc();
		if (dvfs_msr_read(0, MSR_IA32_MPERF, &z0) ||
		    dvfs_read_am(TEST_CPU, &a0, &m0, &b0))
			goto out;
		e0 = dvfs_tsc() - t0;
		for (i = 0, n = 0; i < 3 + SCALE_READS; i++) {
			char path[128];
			uint64_t s;

			fi_sleep_us(window_us / (3 + SCALE_READS));
			snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/freq_scale", TEST_CPU);
			if (i >= 3 && !fi_read_u64(path, &s))
				reads[n++] = s;
		}
		e1 = dvfs_tsc();
		if (dvfs_read_am(TEST_CPU, &a1, &m1, &b1) ||
		    dvfs_msr_read(0, MSR_IA32_MPERF, &z1) || m1 <= m0 || n != SCALE_READS)
			goto out;
		t1 = dvfs_tsc();
		e1 = t1 - e1;
		/*
		 * The brackets' halves bound the window's error: half of
		 * RATIO_TOL; and, where CPU 0's share in C0 is asked for, its
		 * reads at the window's edges (e0, e1), in C0 in that share,
		 * bound the share's: @share_tol (or the host stalled the
		 * reads: a precondition, the window is run again)
		 */
		if ((b0 + b1) / 2 <= RATIO_TOL / 2 * (m1 - m0) &&
		    (!c0_share0 || e0 + e1 <= share_tol * (t1 - t0)))
			break;
		fi_info("window %d: APERF and MPERF read %llu and %llu MPERF ticks apart over %llu, the edges' reads %.1f%% of the window: the host stalled the reads\n",
			tries, (unsigned long long)b0, (unsigned long long)b1,
			(unsigned long long)(m1 - m0), 100.0 * (e0 + e1) / (t1 - t0));
	}
	if (tries > WINDOW_TRIES) {
		fi_err("%d windows, each with reads the host stalled", WINDOW_TRIES);
		goto out;
	}
	*ratio = (double)base * (a1 - a0) / (m1 - m0);
	qsort(reads, n, sizeof(reads[0]), fi_cmp_double);
	*scale = reads[n / 2];
	if (reads[n - 1] - reads[0] > 0.01 * *scale)
		fi_info("freq_scale reads %.0f..%.0f over the window: the median %.0f\n",
			reads[0], reads[n - 1], *scale);
	if (c0_share0)
		*c0_share0 = t1 > t0 ? fmin((double)(z1 - z0) / (t1 - t0), 1) : 1;
	ret = 0;
out:
	fi_reap(spin[0]);
	if (both)
		fi_reap(spin[1]);
	return ret;
}

static int test_busy_scale(void)
{
	unsigned int base = (msrs.plat_info >> 8) & 0xff, min = (msrs.plat_info >> 40) & 0xff;
	unsigned int top = trl_limit(1) ? trl_limit(1) : base, ref = reference();
	/*
	 * At most the 2-core limit: the sampler's moments in C0 on CPU 0 must
	 * not cap the busy CPU's frequency under the reads it judges.
	 */
	unsigned int two = trl_limit(2) && trl_limit(2) < top ? trl_limit(2) : top;
	unsigned int ratios[4] = { min, (min + base) / 2, base, two };
	bool off = msrs.misc_enable & MISC_ENABLE_TURBO_DISABLE;
	int i, j, n_off, bad = 0, told = 0;

	if (take_policy(TEST_CPU)) {
		ksft_print_msg("no cpufreq policy with the userspace governor on CPU %d\n",
			       TEST_CPU);
		return KSFT_SKIP;
	}
	for (i = 0; i < 4; i++) {
		double r, scale, want, wrong, req;

		if (set_khz(TEST_CPU, ratios[i] * 100000) ||
		    measure(false, WINDOW_US, 0, &r, &scale, NULL)) {
			fi_err("could not set or measure CPU %d at %u MHz", TEST_CPU,
			       ratios[i] * 100);
			return KSFT_FAIL;
		}
		want = pelt_freq_scale(r * 100, base * 100,
				       pelt_freq_ratio(ref * 100, base * 100));
		/* Below the 2-core limit, the platform runs what was asked */
		req = fmin(ratios[i], off ? base : two);
		/* The inline control: the 1-core limit taken as the reference */
		wrong = pelt_freq_scale(r * 100, base * 100,
					pelt_freq_ratio(top * 100, base * 100));
		fi_info("asked %u MHz: APERF/MPERF %.0f MHz, freq_scale %.1f, min(f / f_ref, 1) x 1024 %.1f (with the 1-core reference %.1f)\n",
			ratios[i] * 100, r * 100, scale, want, wrong);
		if (boot.named && fabs(r - req) > RATIO_TOL * req) {
			fi_err("APERF/MPERF %.0f MHz for a request of %.0f MHz", r * 100,
			       req * 100);
			bad = 1;
		}
		if (fabs(scale - want) > SCALE_TOL * 1024) {
			fi_err("freq_scale %.1f, expected %.1f +- %.1f", scale, want,
			       SCALE_TOL * 1024);
			bad = 1;
		}
		/*
		 * The reads are a tenth of the window apart: a host stall
		 * spoils at most one; a kernel wrong on some ticks, more
		 */
		for (j = 0, n_off = 0; j < SCALE_READS; j++)
			n_off += fabs(scale_reads[j] - want) > SCALE_TOL * 1024;
		if (n_off > DVFS_SCALE_OFF) {
			fi_err("%d of %d reads of freq_scale off %.1f by over %.1f (%.0f..%.0f), at most %d may be (host stalls)",
			       n_off, SCALE_READS, want, SCALE_TOL * 1024, scale_reads[0],
			       scale_reads[SCALE_READS - 1], DVFS_SCALE_OFF);
			bad = 1;
		}
		if (fabs(scale - wrong) > SCALE_TOL * 1024)
			told = 1;
	}
	if (ref != top && !told) {
		fi_err("no frequency told the reference %u from the 1-core limit %u", ref, top);
		bad = 1;
	}
	restore();
	return bad ? KSFT_FAIL : KSFT_PASS;
}

static int test_turbo_cap(void)
{
	unsigned int top = boot.turbo[L1C], base = (msrs.plat_info >> 8) & 0xff;
	bool off = msrs.misc_enable & MISC_ENABLE_TURBO_DISABLE;
	int bad = 0, n;

	if (!boot.named) {
		ksft_print_msg("no fi_platform= on the command line: %s\n",
			       "the turbo limits are the hardware's to apply");
		return KSFT_SKIP;
	}
	if (take_policy(0) || take_policy(TEST_CPU) || set_khz(0, top * 100000) ||
	    set_khz(TEST_CPU, top * 100000)) {
		fi_err("no cpufreq policy with the userspace governor on CPUs 0 and %d", TEST_CPU);
		return KSFT_FAIL;
	}
	/* Turbo disabled: the 1-core turbo asked for in the MSR itself */
	if (off && (write_perf_ctl(0, top) || write_perf_ctl(TEST_CPU, top))) {
		fi_err("cannot write IA32_PERF_CTL on CPUs 0 and %d: %m", TEST_CPU);
		restore();
		return KSFT_FAIL;
	}
	for (n = 1; n <= 2; n++) {
		double c1 = off ? base : boot.turbo[L1C], c2 = off ? base : boot.turbo[L2C];
		double r, scale, phi, want;

		/*
		 * Alone, CPU 0's share moves the expectation by (c1 - c2) x its
		 * error: at most half RATIO_TOL of the lower limit. Beside a
		 * second busy CPU the share does not enter it (and the reads,
		 * sharing CPU 0 with its spinner, take longer).
		 */
		double share_tol = n == 1 && c1 > c2 ? RATIO_TOL / 2 * c2 / (c1 - c2) : 1;

		if (measure(n == 2, CAP_WINDOW_US, share_tol, &r, &scale, &phi)) {
			fi_err("could not measure CPU %d with %d busy CPU(s)", TEST_CPU, n);
			restore();
			return KSFT_FAIL;
		}
		/*
		 * Alone, CPU 1 runs at the 1-core limit but for the share of the
		 * window CPU 0 spent in C0 (the test's own reads), at the 2-core
		 * one; beside a second busy CPU, at the 2-core limit throughout.
		 * The control: the same run judged with the active count ignored
		 * (always the 1-core limit) must miss where the limits differ.
		 */
		want = n == 2 ? c2 : c1 - phi * (c1 - c2);
		fi_info("%d busy CPU%s, both asking for %u MHz: CPU %d at %.0f MHz, expected %.0f (CPU 0 in C0 %.3f of the window; ignoring the active CPUs: %.0f)\n",
			n, n == 1 ? "" : "s", top * 100, TEST_CPU, r * 100, want * 100, phi,
			c1 * 100);
		if (fabs(r - want) > RATIO_TOL * want) {
			fi_err("%.0f MHz with %d busy CPU(s), expected %.0f", r * 100, n,
			       want * 100);
			bad = 1;
		}
		if (n == 2 && c1 != c2 && fabs(r - c1) <= RATIO_TOL * c1) {
			fi_err("the run also fits a cap that ignores the active CPUs");
			bad = 1;
		}
	}
	restore();
	return bad ? KSFT_FAIL : KSFT_PASS;
}

/*
 * @cpu's MPERF, at the TSC *@t (this CPU's) taken halfway between two
 * reads around it: the read is an IPI, whose delay is at most half their
 * distance (*@bracket)
 */
static int mperf_at(int cpu, uint64_t *m, uint64_t *t, uint64_t *bracket)
{
	uint64_t ta = dvfs_tsc(), tb;

	if (dvfs_msr_read(cpu, MSR_IA32_MPERF, m))
		return -1;
	tb = dvfs_tsc();
	*t = ta + (tb - ta) / 2;
	*bracket = tb - ta;
	return 0;
}

/*
 * MPERF counts only in C0: an idle CPU's MPERF over a window is the
 * moments its ticks and wakeups took, a busy CPU's the whole window (the
 * control: the same reads judged against a CPU that was busy). The
 * reads are IPIs from CPU 0 (this task pinned there), held at its top
 * frequency meanwhile (on a
 * platform that slows a CPU down, a slow reader's reads take
 * milliseconds); a window whose reads took so long that they could move
 * the share by half its bar (1% busy, IDLE_C0_MAX idle: the host stalled
 * them) is measured again, up to WINDOW_TRIES times.
 */
static int test_idle_mperf(void)
{
	unsigned int top = trl_limit(1) ? trl_limit(1) : (msrs.plat_info >> 8) & 0xff;
	uint64_t m0, m1, t0, t1, b0, b1;
	double share[2];
	int busy, tries;

	if (fi_pin_self(0) || take_policy(0) || set_khz(0, top * 100000)) {
		fi_err("cannot run on CPU 0 held at %u MHz (the userspace governor)", top * 100);
		restore();
		return KSFT_FAIL;
	}
	for (busy = 0; busy < 2; busy++) {
		pid_t spin = busy ? fi_spawn_spinner(TEST_CPU) : 0;

		if (spin < 0) {
			fi_err("could not start a spinner on CPU %d", TEST_CPU);
			return KSFT_FAIL;
		}
		for (tries = 1; tries <= WINDOW_TRIES; tries++) {
			fi_sleep_us(50000);
			if (mperf_at(TEST_CPU, &m0, &t0, &b0)) {
				fi_reap(spin);
				return KSFT_FAIL;
			}
			fi_sleep_us(IDLE_WINDOW_US);
			if (mperf_at(TEST_CPU, &m1, &t1, &b1) || t1 <= t0) {
				fi_reap(spin);
				return KSFT_FAIL;
			}
			/*
			 * A busy CPU's MPERF runs through the reads: their
			 * midpoints err by half a bracket each; an idle one's
			 * is in C0 for the reads themselves, a bracket each
			 */
			if ((busy ? (b0 + b1) / 2 : b0 + b1) <=
			    (busy ? RATIO_TOL : IDLE_C0_MAX) / 2 * (t1 - t0))
				break;
			fi_info("window %d (CPU %d %s): the MPERF reads took %llu and %llu TSC ticks of %llu: the host stalled them\n",
				tries, TEST_CPU, busy ? "busy" : "idle", (unsigned long long)b0,
				(unsigned long long)b1, (unsigned long long)(t1 - t0));
		}
		if (busy)
			fi_reap(spin);
		if (tries > WINDOW_TRIES) {
			fi_err("%d windows, each with reads the host stalled", WINDOW_TRIES);
			restore();
			return KSFT_FAIL;
		}
		share[busy] = (double)(m1 - m0) / (t1 - t0);
	}
	restore();
	fi_info("CPU %d's MPERF over the TSC: %.3f idle, %.3f busy (the control)\n",
		TEST_CPU, share[0], share[1]);
	if (share[0] > IDLE_C0_MAX) {
		fi_err("MPERF counted %.3f of an idle CPU's time, expected below %.2f",
		       share[0], IDLE_C0_MAX);
		return KSFT_FAIL;
	}
	if (share[1] < 1 - RATIO_TOL) {
		fi_err("MPERF counted %.3f of a busy CPU's time, expected all of it", share[1]);
		return KSFT_FAIL;
	}
	return KSFT_PASS;
}

static const struct fi_test tests[] = {
	{ "platform_msrs_are_the_boots", test_platform_msrs },
	{ "boot_code_picks_the_reference", test_reference },
	{ "busy_cpu_scale_is_aperf_over_mperf", test_busy_scale },
	{ "turbo_cap_follows_busy_cpus", test_turbo_cap },
	{ "idle_cpu_mperf_stops", test_idle_mperf },
};

int main(void)
{
	const char *why;

	ksft_print_header();
	why = dvfs_intel_aperfmperf(&msrs.model);
	if (why)
		ksft_exit_skip("%s\n", why);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		ksft_exit_skip("needs two CPUs\n");
	if (dvfs_fi_platform(&boot))
		ksft_exit_fail_msg("fi_platform= on the command line is not a part\n");
	if (dvfs_read_msrs(0, &msrs))
		ksft_exit_fail_msg("cannot read the MSRs through /dev/cpu/0/msr (%s)\n",
				   "CONFIG_X86_MSR, root");
	atexit(restore);
	fi_run_tests(tests, ARRAY_SIZE(tests));
	return 0;
}
