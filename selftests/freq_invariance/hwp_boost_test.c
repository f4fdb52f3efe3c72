// SPDX-License-Identifier: GPL-2.0
/*
 * intel_pstate's HWP dynamic boost, where it runs: active mode with HWP.
 *
 *   - hwp_dynamic_boost (sysfs) rejects malformed input, value unchanged;
 *   - with the knob on, I/O waits on a pinned CPU move its boost counters
 *     in /sys/kernel/debug/intel_pstate/hwp_boost, and the boost is
 *     dropped at the first update after an idle gap longer than the hold
 *     time;
 *   - with the knob off, the same I/O leaves them where they were, and
 *     the CPU is not boosted (boost_min 0);
 *   - turning the knob off while a boost is held forgets it (boost_min 0,
 *     the request the policy's limits);
 *   - a CPU kept busy after the I/O keeps its boost (its ticks' updates
 *     come within the hold time: a run whose ticks the host stalled past
 *     it, traced with sched:sched_stat_runtime, or whose boost the I/O's
 *     end dropped, is repeated, counted), and drops it after an idle gap.
 *
 * Where the CPU's HWP request can be read (HWP in CPUID: the MSRs through
 * /dev/cpu/N/msr) the I/O is also sampled every SAMPLE_US. The request without
 * a boost is the policy's limits (scaling_min_freq and scaling_max_freq,
 * 100 MHz per ratio): with the knob off, before the I/O and throughout
 * it. With the knob on, the request's minimum takes only
 * the ladder's rungs, min -> (min + P1) / 2 -> P1 -> max (P1:
 * HWP_CAPABILITIES' guaranteed ratio), and reaches max (a climb may pass
 * a rung between two samples: counted, not failed; a drop to the first
 * rung and a climb may fit between two samples too, so where a drop
 * lands is not judged); in C0 the CPU's frequency (IA32_PERF_STATUS, read between two
 * reads of the request that agree) is never below
 * the minimum (or the 2-core turbo limit, where that is lower: the
 * sampler's CPU may be in C0) nor above the maximum; with the knob off
 * the minimum stays. Elsewhere those checks skip, saying why.
 *
 * Where intel_pstate has energy_efficiency (in 6.1 the Kaby Lake, model
 * 158, on which it disables the energy-efficiency optimization at boot:
 * MSR_IA32_POWER_CTL's bit 19), each value written reads back; on QEMU's
 * platform (x-dvfs) that is its POWER_CTL keeping what is written (QEMU's
 * TCG alone reads 0 and drops writes). Elsewhere that check skips. A kill
 * -9 between its two writes leaves the other value until reboot.
 *
 * The knobs are restored on exit. Anywhere else (no
 * intel_pstate, passive mode, no HWP, performance policy) the program
 * skips and says why. The I/O is O_DIRECT reads of a file in
 * $HWP_BOOST_DIR (default /var/tmp), which must be on a block device.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"
#include "dvfs_util.h"

#define PSTATE		"/sys/devices/system/cpu/intel_pstate"
#define KNOB		PSTATE "/hwp_dynamic_boost"
#define EE		PSTATE "/energy_efficiency"
#define CPUFREQ		"/sys/devices/system/cpu/cpu%d/cpufreq"
#define DEBUGFS		"/sys/kernel/debug/intel_pstate"
#define TABLE		DEBUGFS "/hwp_boost"
#define IO_FILE_SIZE	(16 << 20)
#define IO_BLOCK	4096
#define IO_RUN_US	2000000
#define SAMPLE_US	2000
#define MAX_SAMPLES	(IO_RUN_US / SAMPLE_US + 16)

struct boost_row {
	uint64_t boost_min, up[3], down, last;
};

static int test_cpu;
static char io_dir[256] = "/var/tmp";
static char io_path[300];
static char knob_orig[16];

/* HWP in CPUID: the test CPU's request is in its MSRs */
static bool msr_hwp;

/*
 * The request's minimum (ratio), and the frequency (MHz) when @judge: the
 * CPU was in C0, its minimum the same throughout the frequency's reading
 */
struct hwp_sample {
	unsigned long long min, eff, judge;
};

/* The last run_io()'s samples, and the request's minimum and maximum before it */
static struct hwp_sample samples[MAX_SAMPLES];
static int nr_samples;
static unsigned long long rest_min, rest_max;

static uint64_t ups(const struct boost_row *r)
{
	return r->up[0] + r->up[1] + r->up[2];
}

/* The row of @cpu in the hwp_boost table. */
static int read_row(int cpu, struct boost_row *r)
{
	char line[256];
	FILE *f = fi_fopen_read(TABLE);
	int c, ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[7];

		if (sscanf(line, "%d %llu %llu %llu %llu %llu %llu", &c,
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) != 7 ||
		    c != cpu)
			continue;
		r->boost_min = v[1];
		r->up[0] = v[2];
		r->up[1] = v[3];
		r->up[2] = v[4];
		r->down = v[5];
		r->last = v[6];
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/* A child on @cpu doing O_DIRECT 4 KiB reads, each one an I/O wait. */
static pid_t spawn_io(int cpu)
{
	pid_t pid = fi_fork();
	void *buf;
	int fd;

	if (pid)
		return pid;
	if (fi_pin_self(cpu) || posix_memalign(&buf, IO_BLOCK, IO_BLOCK))
		_exit(1);
	fd = open(io_path, O_RDONLY | O_DIRECT);
	if (fd < 0)
		_exit(1);
	srandom(getpid());
	for (;;) {
		off_t off = (random() % (IO_FILE_SIZE / IO_BLOCK)) * IO_BLOCK;

		if (pread(fd, buf, IO_BLOCK, off) != IO_BLOCK)
			_exit(1);
	}
}

/*
 * The test CPU's HWP request's minimum and maximum (ratios), from its MSR:
 * 0, or -1.
 */
static int read_request(unsigned long long *min, unsigned long long *max)
{
	uint64_t req;

	if (dvfs_msr_read(test_cpu, MSR_IA32_HWP_REQUEST, &req)) {
		fi_err("cannot read IA32_HWP_REQUEST of CPU %d", test_cpu);
		return -1;
	}
	*min = req & 0xff;
	*max = (req >> 8) & 0xff;
	return 0;
}

/*
 * One sample of the test CPU: through the MSRs, each read of which runs
 * on it (in C0), the request, IA32_PERF_STATUS and the request again.
 */
static int sample(struct hwp_sample *s)
{
	uint64_t r0, st, r1;

	if (dvfs_msr_read(test_cpu, MSR_IA32_HWP_REQUEST, &r0) ||
	    dvfs_msr_read(test_cpu, MSR_IA32_PERF_STATUS, &st) ||
	    dvfs_msr_read(test_cpu, MSR_IA32_HWP_REQUEST, &r1)) {
		fi_err("cannot read IA32_HWP_REQUEST or IA32_PERF_STATUS of CPU %d", test_cpu);
		return -1;
	}
	*s = (struct hwp_sample){ r1 & 0xff, ((st >> 8) & 0xff) * 100,
				  (r0 & 0xff) == (r1 & 0xff) };
	return 0;
}

/*
 * The request without a boost: the policy's limits (scaling_min_freq and
 * scaling_max_freq, 100 MHz per ratio), which intel_pstate must have
 * written. With the knob off the request must be that now; with it on, a
 * boost may already be under way (any I/O on the CPU), so it is not read.
 */
static int read_rest(void)
{
	unsigned long long min, max;
	char path[128], knob[8];
	uint64_t lo, hi;

	snprintf(path, sizeof(path), CPUFREQ "/scaling_min_freq", test_cpu);
	if (fi_read_u64(path, &lo))
		return -1;
	snprintf(path, sizeof(path), CPUFREQ "/scaling_max_freq", test_cpu);
	if (fi_read_u64(path, &hi))
		return -1;
	rest_min = lo / 100000;
	rest_max = hi / 100000;
	if (fi_read_line(KNOB, knob, sizeof(knob)))
		return -1;
	if (strcmp(knob, "0"))
		return 0;
	if (read_request(&min, &max))
		return -1;
	if (min != rest_min || max != rest_max) {
		fi_err("hwp_dynamic_boost=0: CPU %d's HWP request ratios %llu-%llu, its policy's limits %llu-%llu",
		       test_cpu, min, max, rest_min, rest_max);
		return -1;
	}
	return 0;
}

/* @us of I/O, sampling the HWP's request every SAMPLE_US where it can */
static int sample_io(uint64_t us)
{
	uint64_t t0 = fi_now_us(), t;

	nr_samples = 0;
	if (!msr_hwp) {
		fi_sleep_us(us);
		return 0;
	}
	while ((t = fi_now_us()) < t0 + us && nr_samples < MAX_SAMPLES) {
		if (sample(&samples[nr_samples++]))
			return -1;
		t = fi_now_us();
		if (t < t0 + nr_samples * SAMPLE_US)
			fi_sleep_us(t0 + nr_samples * SAMPLE_US - t);
	}
	return 0;
}

/* The local timer interrupts of @cpu so far (/proc/interrupts, LOC) */
static int read_loc(int cpu, unsigned long long *n)
{
	char line[4096], *p;
	FILE *f = fi_fopen_read("/proc/interrupts");
	int i, ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " ");
		if (strncmp(p, "LOC:", 4))
			continue;
		p += 4;
		for (i = 0; i <= cpu; i++)
			*n = strtoull(p, &p, 10);
		ret = 0;
		break;
	}
	fclose(f);
	if (ret)
		fi_err("no LOC count for CPU %d in /proc/interrupts", cpu);
	return ret;
}

/*
 * Run the I/O for IO_RUN_US (sampled: sample_io()) and return the row
 * before and after; with @busy, for BUSY_IO_US only, then a spinner on
 * the CPU from before the I/O stops until BUSY_US after: once it runs
 * and the CPU is boosted (read every ms for up to BOOSTED_US while the
 * I/O goes on: the boost comes and goes between the I/O's reads) the I/O
 * is stopped; the row two hold times later into busy[0], BUSY_US later
 * into busy[1], the CPU's timer interrupts per second meanwhile into
 * *@tick_hz, and when the first drop came, in ms into that window (the
 * row read every 10 ms), into drop_ms (-1: none); then the idle gap.
 */
#define BUSY_IO_US	300000
#define BUSY_US		200000
#define BOOSTED_US	500000
#define MAX_TICKS	(BUSY_US / 1000 * 20)	/* events: a tick's and others' */
#define HOLD_NS		3000000		/* intel_pstate's hold time */
static int drop_ms;
/*
 * The longest time two consecutive tick intervals spanned on the busy CPU
 * (its sched:sched_stat_runtime events, update_curr() at each tick),
 * window's ends included; -1 where tracing was not available
 */
static double two_ticks_us;

/* The longest span of two consecutive intervals between @n times in @t */
static double longest_two(const double *t, int n)
{
	double most = 0;
	int i;

	for (i = 2; i < n; i++)
		if (t[i] - t[i - 2] > most)
			most = t[i] - t[i - 2];
	return most;
}

static int run_io_busy(struct boost_row *before, struct boost_row *after,
		       struct boost_row *busy, double *tick_hz)
{
	unsigned long long loc0 = 0, loc1 = 0;
	pid_t pid, spin = -1;
	uint64_t t0, t_read = 0;
	int status;

	if (read_row(test_cpu, before)) {
		fi_err("no row for CPU %d in %s", test_cpu, TABLE);
		return -1;
	}
	if (msr_hwp && read_rest())
		return -1;
	pid = spawn_io(test_cpu);
	if (pid < 0)
		return -1;
	if (sample_io(busy ? BUSY_IO_US : IO_RUN_US)) {
		fi_reap(pid);
		return -1;
	}
	if (waitpid(pid, &status, WNOHANG) == pid) {
		fi_err("the I/O worker on CPU %d stopped (exit %d)", test_cpu,
		       WEXITSTATUS(status));
		return -1;
	}
	if (busy) {
		/*
		 * Busy before the I/O stops: no idle gap. The row once the
		 * spinner runs (boosted), and after BUSY_US of it alone, with
		 * the CPU's local timer interrupts meanwhile (its tick rate).
		 */
		spin = fi_spawn_spinner(test_cpu);
		t0 = fi_now_us();
		do {
			if (spin < 0 || read_row(test_cpu, &busy[0])) {
				fi_reap(spin);
				fi_reap(pid);
				return -1;
			}
			if (busy[0].boost_min)
				break;
			fi_sleep_us(1000);
		} while (fi_now_us() < t0 + BOOSTED_US);
		fi_reap(pid);
		/*
		 * The I/O's own end may drop the boost: an update flagged
		 * with I/O wait that takes no step leaves the hold's start
		 * where it was (upstream's rule), so the first update without
		 * it may find the hold expired. The row once the I/O is over
		 * and two hold times have passed, the busy window from there.
		 */
		fi_sleep_us(2 * HOLD_NS / 1000);
		/*
		 * The ticks are traced from the read of the boost on: the
		 * buffer is emptied first (it may wait for a grace period)
		 */
		if (two_ticks_us >= 0 && dvfs_trace_clear(test_cpu)) {
			fi_reap(spin);
			return -1;
		}
		t_read = fi_now_us();
		if (read_row(test_cpu, &busy[0]) || read_loc(test_cpu, &loc0)) {
			fi_reap(spin);
			return -1;
		}
		t0 = fi_now_us();
		drop_ms = -1;
		while (fi_now_us() < t0 + BUSY_US) {
			struct boost_row r;

			fi_sleep_us(10000);
			if (read_row(test_cpu, &r)) {
				fi_reap(spin);
				return -1;
			}
			if (drop_ms < 0 && r.down != busy[0].down)
				drop_ms = (fi_now_us() - t0) / 1000;
		}
		if (read_row(test_cpu, &busy[1]) || read_loc(test_cpu, &loc1)) {
			fi_reap(spin);
			return -1;
		}
		*tick_hz = (loc1 - loc0) * 1e6 / (fi_now_us() - t0);
		if (two_ticks_us >= 0) {
			static double ticks[MAX_TICKS + 2];
			int n;

			/*
			 * The window's ends count as ticks, from the read of
			 * the boost: a stall there too
			 */
			ticks[0] = t_read;
			n = dvfs_trace_times(test_cpu, "sched_stat_runtime", ticks + 1, MAX_TICKS);
			if (n < 0) {
				fi_reap(spin);
				return -1;
			}
			ticks[n + 1] = fi_now_us();
			two_ticks_us = longest_two(ticks, n + 2);
		}
		fi_reap(spin);
	} else {
		fi_reap(pid);
	}
	/*
	 * A boost is dropped at the CPU's first update without I/O wait
	 * after the hold time (3 ms): wait well beyond it, then make the
	 * CPU busy for a few ticks, as an idle CPU may get no update.
	 */
	fi_sleep_us(1100000);
	pid = fi_spawn_spinner(test_cpu);
	fi_sleep_us(20000);
	fi_reap(pid);
	if (read_row(test_cpu, after))
		return -1;
	fi_info("CPU %d: up %llu/%llu/%llu -> %llu/%llu/%llu, down %llu -> %llu\n",
		test_cpu, (unsigned long long)before->up[0],
		(unsigned long long)before->up[1],
		(unsigned long long)before->up[2],
		(unsigned long long)after->up[0],
		(unsigned long long)after->up[1],
		(unsigned long long)after->up[2],
		(unsigned long long)before->down,
		(unsigned long long)after->down);
	return 0;
}

static int run_io(struct boost_row *before, struct boost_row *after)
{
	return run_io_busy(before, after, NULL, NULL);
}

/* @path must refuse each of @bad with EINVAL and keep its value. */
static int rejects(const char *path, const char * const *bad, int n)
{
	char before[32], now[32];
	int i, ret, fail = 0;

	if (fi_read_line(path, before, sizeof(before)))
		return -1;
	for (i = 0; i < n; i++) {
		ret = fi_write_str(path, bad[i]);
		if (ret != -EINVAL) {
			fi_err("writing \"%s\" to %s: expected -EINVAL, got %d",
			       bad[i], path, ret);
			fail = 1;
		}
		if (fi_read_line(path, now, sizeof(now)) || strcmp(before, now)) {
			fi_err("%s changed from %s to %s after writing \"%s\"",
			       path, before, now, bad[i]);
			fail = 1;
		}
	}
	return fail ? -1 : 0;
}

static int test_knob_rejects_malformed(void)
{
	static const char * const bad[] = { "abc", "-1", "1x", "\n", "0x" };

	return rejects(KNOB, bad, ARRAY_SIZE(bad)) ? KSFT_FAIL : KSFT_PASS;
}

static char ee_orig[8];

static int test_energy_efficiency_sticks(void)
{
	char want[2][8], got[8];
	int i;

	if (access(EE, F_OK)) {
		fi_info("no %s: intel_pstate leaves energy efficiency alone on this part (or per_cpu_perf_limits)\n",
			EE);
		return KSFT_SKIP;
	}
	if (fi_read_line(EE, ee_orig, sizeof(ee_orig)) ||
	    (strcmp(ee_orig, "0") && strcmp(ee_orig, "1"))) {
		fi_err("cannot read %s as 0 or 1", EE);
		ee_orig[0] = 0;
		return KSFT_FAIL;
	}
	/* The other value, then back */
	snprintf(want[0], sizeof(want[0]), "%s", strcmp(ee_orig, "0") ? "0" : "1");
	snprintf(want[1], sizeof(want[1]), "%s", ee_orig);
	for (i = 0; i < 2; i++) {
		if (fi_write_str(EE, want[i]) || fi_read_line(EE, got, sizeof(got))) {
			fi_err("cannot write %s to %s, or read it back", want[i], EE);
			return KSFT_FAIL;
		}
		if (strcmp(got, want[i])) {
			fi_err("%s: wrote %s, reads %s", EE, want[i], got);
			return KSFT_FAIL;
		}
	}
	fi_info("%s: %s, then %s, read back\n", EE, want[0], want[1]);
	return KSFT_PASS;
}

static int test_boost_moves_when_on(void)
{
	struct boost_row a, b;

	if (fi_write_str(KNOB, "1") || run_io(&a, &b))
		return KSFT_FAIL;
	if (ups(&b) <= ups(&a)) {
		fi_err("hwp_dynamic_boost=1: no boost step on CPU %d during 2 s of I/O waits",
		       test_cpu);
		return KSFT_FAIL;
	}
	if (b.down <= a.down || b.boost_min) {
		fi_err("boost on: not dropped 1 s after the I/O (down %llu -> %llu, min %llu)",
		       (unsigned long long)a.down, (unsigned long long)b.down,
		       (unsigned long long)b.boost_min);
		return KSFT_FAIL;
	}
	return KSFT_PASS;
}

/*
 * The samples of the last run_io() with the knob on: the request's
 * minimum only on the ladder's rungs, one up at a time or back to the
 * first, reaching the top; the frequency at least the minimum.
 */
static int test_ladder_and_frequency(void)
{
	unsigned long long rung[4], at[4] = { 0 }, below = 0, above = 0, top_eff = 0, floor;
	unsigned int family, model, cap2;
	uint64_t cap, trl, trl1 = 0;
	int i, r, prev = 0, fail = 0, jumps = 0;
	char vendor[13];

	if (!msr_hwp) {
		fi_info("no HWP in CPUID: the request cannot be sampled\n");
		return KSFT_SKIP;
	}
	if (!nr_samples) {
		fi_err("no samples: the run with the knob on failed");
		return KSFT_FAIL;
	}
	if (dvfs_msr_read(test_cpu, MSR_IA32_HWP_CAPABILITIES, &cap)) {
		fi_err("cannot read MSR_HWP_CAPABILITIES of CPU %d (/dev/cpu/%d/msr)", test_cpu,
		       test_cpu);
		return KSFT_FAIL;
	}
	/*
	 * The 2-core turbo limit: the sampler's own moments in C0 on another
	 * CPU may cap the test CPU there, below a boosted minimum
	 */
	if (dvfs_cpuid_ident(vendor, &family, &model) ||
	    dvfs_msr_read(0, MSR_TURBO_RATIO_LIMIT, &trl) ||
	    (dvfs_trl_groups(model) && dvfs_msr_read(0, MSR_TURBO_RATIO_LIMIT + 1, &trl1))) {
		fi_err("cannot read MSR_TURBO_RATIO_LIMIT (/dev/cpu/0/msr)");
		return KSFT_FAIL;
	}
	cap2 = dvfs_trl_limit(model, trl, trl1, 2);
	/* hwp_boost_step_up(): min, (P1 + min) / 2, P1, max, for min < P1 < max */
	rung[0] = rest_min;
	rung[1] = (((cap >> 8) & 0xff) + rest_min) / 2;
	rung[2] = (cap >> 8) & 0xff;
	rung[3] = rest_max;
	if (!(rung[0] < rung[1] && rung[1] < rung[2] && rung[2] < rung[3])) {
		fi_err("no four-rung ladder: min %llu, P1 %llu, max %llu", rung[0], rung[2],
		       rung[3]);
		return KSFT_FAIL;
	}
	for (i = 0; i < nr_samples; i++) {
		for (r = 0; r < 4 && samples[i].min != rung[r]; r++)
			;
		if (r == 4) {
			fi_err("sample %d: HWP min %llu is none of the rungs %llu/%llu/%llu/%llu",
			       i, samples[i].min, rung[0], rung[1], rung[2], rung[3]);
			return KSFT_FAIL;
		}
		/* Sampled every SAMPLE_US, a climb may show two steps at once */
		if (r > prev + 1)
			jumps++;
		at[r]++;
		prev = r;
		/* In C0 it runs at the minimum or above (capped), the maximum or below */
		floor = samples[i].min;
		if (cap2 && cap2 < floor)
			floor = cap2;
		if (samples[i].judge && samples[i].eff < floor * 100)
			below++;
		if (samples[i].judge && samples[i].eff > rung[3] * 100)
			above++;
		if (r == 3 && samples[i].judge && samples[i].eff > top_eff)
			top_eff = samples[i].eff;
	}
	fi_info("HWP min sampled %d times: at %llu/%llu/%llu/%llu: %llu/%llu/%llu/%llu; %d rises of more than one rung between samples; highest effective frequency at the top %llu MHz\n",
		nr_samples, rung[0], rung[1], rung[2], rung[3], at[0], at[1], at[2], at[3], jumps,
		top_eff);
	if (!at[3]) {
		fi_err("the boost never reached the ladder's top (%llu)", rung[3]);
		fail = 1;
	}
	if (below || above) {
		fi_err("samples in C0 with the effective frequency below the HWP min: %llu, above its max: %llu",
		       below, above);
		fail = 1;
	}
	return fail ? KSFT_FAIL : KSFT_PASS;
}

static int test_boost_still_when_off(void)
{
	struct boost_row a, b;
	int i;

	if (fi_write_str(KNOB, "0") || run_io(&a, &b))
		return KSFT_FAIL;
	if (ups(&b) != ups(&a) || b.down != a.down || b.boost_min) {
		fi_err("hwp_dynamic_boost=0: the counters of CPU %d moved", test_cpu);
		return KSFT_FAIL;
	}
	if (msr_hwp && !nr_samples) {
		fi_err("hwp_dynamic_boost=0: no samples of the request");
		return KSFT_FAIL;
	}
	for (i = 0; i < nr_samples; i++) {
		if (samples[i].min != rest_min) {
			fi_err("hwp_dynamic_boost=0: HWP min %llu, not %llu, in sample %d",
			       samples[i].min, rest_min, i);
			return KSFT_FAIL;
		}
	}
	return KSFT_PASS;
}

/*
 * Turning the knob off while a boost is held forgets it: once the knob
 * is off the CPU's boost_min reads 0, as its request, rewritten from the
 * policy's limits, holds no boost, and the next boost starts from the
 * bottom of the ladder. A run's precondition is a boost held when the
 * knob goes off: the I/O's CPU, idle once the I/O is killed, boosted just
 * before the write, and no drop counted between that read and the one
 * after it (an update may drop the boost in between). Runs that did not
 * meet it are repeated, counted, up to FORGET_RUNS in all.
 */
#define FORGET_RUNS	5
#define FORGET_IO_US	200000

static int test_knob_off_forgets(void)
{
	struct boost_row a, b;
	int runs;

	for (runs = 1; runs <= FORGET_RUNS; runs++) {
		pid_t pid;

		if (fi_write_str(KNOB, "1"))
			return KSFT_FAIL;
		pid = spawn_io(test_cpu);
		if (pid < 0)
			return KSFT_FAIL;
		fi_sleep_us(FORGET_IO_US);
		fi_reap(pid);
		if (read_row(test_cpu, &a) || fi_write_str(KNOB, "0") ||
		    read_row(test_cpu, &b)) {
			fi_err("cannot read CPU %d's row or turn the knob off", test_cpu);
			return KSFT_FAIL;
		}
		if (a.boost_min && b.down == a.down)
			break;
		fi_info("run %d: boost_min %llu before the knob went off, drops %llu -> %llu: no boost held then, again\n",
			runs, (unsigned long long)a.boost_min, (unsigned long long)a.down,
			(unsigned long long)b.down);
	}
	if (runs > FORGET_RUNS) {
		fi_err("%d runs, none with a boost held when the knob went off", FORGET_RUNS);
		return KSFT_FAIL;
	}
	fi_info("CPU %d: boost_min %llu with the knob on, %llu once it is off (run %d)\n",
		test_cpu, (unsigned long long)a.boost_min, (unsigned long long)b.boost_min, runs);
	if (b.boost_min) {
		fi_err("hwp_dynamic_boost=0: CPU %d's boost_min %llu, not 0: a boost the request no longer holds is kept",
		       test_cpu, (unsigned long long)b.boost_min);
		return KSFT_FAIL;
	}
	/* With the knob off, the request is the policy's limits */
	if (msr_hwp && read_rest())
		return KSFT_FAIL;
	return KSFT_PASS;
}

/*
 * The boost is dropped at the first update without I/O wait that comes
 * more than the hold time (3 ms) after the previous update: a CPU kept
 * busy has an update at each tick where PELT crossed a period (1024 us of
 * clock_pelt), and keeps the boost as long as those come more often than
 * that (HZ 500 or more; below, intel_pstate drops it at every tick by
 * design, and the test skips). At a scale above half, any two consecutive
 * ticks hold a period's end, so no update gap is longer than the longest
 * span of two tick intervals. A vCPU that the host stalls has a longer
 * one, and a drop there is right: a run's precondition is that its
 * longest two-tick span (traced from the read that found the boost to
 * the end of the busy window, two_ticks_us) stayed below the hold time,
 * and that the CPU was still boosted two hold times after the I/O
 * stopped (updates flagged with I/O wait that take no step do not renew
 * the hold, so the I/O's end may drop the boost by design); only a run
 * that met both is judged, and there a drop fails. Runs that did not
 * are repeated, counted, up to HOLD_RUNS in all: the share of runs a
 * stall spoils is the host's, and a host that spoils all of them fails
 * the case as unable to test.
 */
#define HOLD_RUNS	10

static int test_boost_held_while_busy(void)
{
	struct boost_row a, busy[2], b;
	double hz = 0;
	int run, unboosted = 0, stalled = 0;

	if (fi_write_str(KNOB, "1"))
		return KSFT_FAIL;
	for (run = 1; run <= HOLD_RUNS; run++) {
		if (run_io_busy(&a, &b, busy, &hz))
			return KSFT_FAIL;
		if (hz < 500) {
			fi_info("the busy CPU had %.0f timer interrupts/s: with a tick longer than the hold time the boost drops at every tick\n",
				hz);
			return KSFT_SKIP;
		}
		if (!busy[0].boost_min) {
			unboosted++;
			fi_info("run %d: not boosted %d ms after the I/O stopped (min 0): the precondition failed, again\n",
				run, 2 * HOLD_NS / 1000000);
			continue;
		}
		if (two_ticks_us >= HOLD_NS / 1000) {
			stalled++;
			fi_info("run %d: two tick intervals spanned %.0f us, over the hold time: the precondition failed (boost min %llu -> %llu, drops %llu -> %llu), again\n",
				run, two_ticks_us, (unsigned long long)busy[0].boost_min,
				(unsigned long long)busy[1].boost_min,
				(unsigned long long)busy[0].down, (unsigned long long)busy[1].down);
			continue;
		}
		break;
	}
	if (run > HOLD_RUNS) {
		fi_err("%d runs, none met the precondition (%d not boosted, %d with a tick gap over the hold time): the case could not be tested",
		       HOLD_RUNS, unboosted, stalled);
		return KSFT_FAIL;
	}
	if (run > 1)
		fi_info("%d run(s) repeated: %d not boosted, %d with a tick gap over the hold time\n",
			run - 1, unboosted, stalled);
	if (!busy[1].boost_min || busy[1].down != busy[0].down) {
		fi_err("busy %d ms after the I/O, %.0f ticks/s, no two tick intervals longer than %.0f us: boost min %llu -> %llu, drops %llu -> %llu (the first %d ms after the I/O stopped)",
		       BUSY_US / 1000, hz, two_ticks_us, (unsigned long long)busy[0].boost_min,
		       (unsigned long long)busy[1].boost_min, (unsigned long long)busy[0].down,
		       (unsigned long long)busy[1].down, drop_ms);
		return KSFT_FAIL;
	}
	if (b.down <= busy[1].down || b.boost_min) {
		fi_err("not dropped after the idle gap (drops %llu -> %llu, min %llu)",
		       (unsigned long long)busy[1].down, (unsigned long long)b.down,
		       (unsigned long long)b.boost_min);
		return KSFT_FAIL;
	}
	fi_info("CPU %d busy %d ms after the I/O (%.0f ticks/s, two tick intervals at most %.0f us): boost min %llu held, no drop; dropped after 1.1 s idle\n",
		test_cpu, BUSY_US / 1000, hz, two_ticks_us, (unsigned long long)busy[1].boost_min);
	return KSFT_PASS;
}

static void restore(void)
{
	if (knob_orig[0])
		fi_write_str(KNOB, knob_orig);
	if (ee_orig[0])
		fi_write_str(EE, ee_orig);
	if (io_path[0])
		unlink(io_path);
}

static void on_signal(int sig)
{
	restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A file for O_DIRECT reads, or a reason why there cannot be one. */
static const char *make_io_file(void)
{
	static char buf[IO_BLOCK];
	int fd, i;

	snprintf(io_path, sizeof(io_path), "%s/hwp_boost_test.%d", io_dir, getpid());
	fd = open(io_path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return "cannot create a file in $HWP_BOOST_DIR";
	memset(buf, 0x5a, sizeof(buf));
	for (i = 0; i < IO_FILE_SIZE / IO_BLOCK; i++) {
		if (write(fd, buf, sizeof(buf)) != sizeof(buf)) {
			close(fd);
			return "cannot write the I/O file in $HWP_BOOST_DIR";
		}
	}
	fsync(fd);
	close(fd);
	fd = open(io_path, O_RDONLY | O_DIRECT);
	if (fd < 0)
		return "$HWP_BOOST_DIR does not support O_DIRECT (tmpfs?): use a disk";
	close(fd);
	return NULL;
}

/* Why the boost cannot be tested here, or NULL when it can. */
static const char *why_skip(void)
{
	char status[32], path[128], gov[32];
	uint64_t lo, hi;

	if (geteuid())
		return "needs root";
	if (access(PSTATE, F_OK))
		return "no " PSTATE ": intel_pstate not loaded (no HWP?)";
	if (fi_read_line(PSTATE "/status", status, sizeof(status)))
		return "cannot read " PSTATE "/status";
	if (!strcmp(status, "off"))
		return "intel_pstate status is off";
	if (!strcmp(status, "passive"))
		return "intel_pstate is in passive mode: the boost works in active mode only";
	if (access(KNOB, F_OK))
		return "no HWP: " KNOB " exists only with HWP enabled";
	if (access(TABLE, F_OK))
		return "no " TABLE ": debugfs not mounted, or a kernel without the boost counters";
	snprintf(path, sizeof(path), CPUFREQ "/scaling_governor", test_cpu);
	if (!fi_read_line(path, gov, sizeof(gov)) && !strcmp(gov, "performance"))
		return "the test CPU uses the performance policy, under which nothing is boosted";
	snprintf(path, sizeof(path), CPUFREQ "/scaling_min_freq", test_cpu);
	if (!fi_read_u64(path, &lo)) {
		snprintf(path, sizeof(path), CPUFREQ "/scaling_max_freq", test_cpu);
		if (!fi_read_u64(path, &hi) && lo == hi)
			return "scaling_min_freq = scaling_max_freq: nothing to boost";
	}
	return NULL;
}

static const struct fi_test tests[] = {
	{ "hwp_dynamic_boost_rejects_malformed_input", test_knob_rejects_malformed },
	{ "energy_efficiency_reads_what_was_written", test_energy_efficiency_sticks },
	{ "boost_counters_move_with_knob_on", test_boost_moves_when_on },
	{ "hwp_min_climbs_the_ladder_and_frequency_follows", test_ladder_and_frequency },
	{ "boost_counters_still_with_knob_off", test_boost_still_when_off },
	{ "knob_off_forgets_a_held_boost", test_knob_off_forgets },
	{ "boost_held_while_busy_dropped_after_idle", test_boost_held_while_busy },
};

int main(void)
{
	const char *why, *dir = getenv("HWP_BOOST_DIR");
	unsigned int eax, ecx;
	int cpus[64], n;

	ksft_print_header();

	n = fi_online_cpus(cpus, ARRAY_SIZE(cpus));
	test_cpu = n > 1 ? cpus[n - 1] : 0;
	/* The sampler away from the test CPU */
	if (n > 1)
		fi_pin_self(cpus[0]);
	dvfs_cpuid6(&eax, &ecx);
	msr_hwp = eax & CPUID6_EAX_HWP;
	why = why_skip();
	if (why)
		ksft_exit_skip("%s\n", why);

	if (dir)
		snprintf(io_dir, sizeof(io_dir), "%s", dir);
	why = make_io_file();
	if (why) {
		restore();
		ksft_exit_skip("%s (%s)\n", why, io_dir);
	}
	if (fi_read_line(KNOB, knob_orig, sizeof(knob_orig)))
		ksft_exit_fail_msg("cannot read %s\n", KNOB);
	atexit(restore);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* The busy CPU's ticks, for test_boost_held_while_busy()'s precondition */
	atexit(dvfs_trace_stop);
	if (dvfs_trace_start_event("sched/sched_stat_runtime")) {
		two_ticks_us = -1;
		fi_info("no tracing of sched:sched_stat_runtime: a CPU kept busy is judged without its tick gaps\n");
	}
	fi_info("CPU %d, hwp_dynamic_boost was %s, I/O in %s\n",
		test_cpu, knob_orig, io_dir);

	fi_run_tests(tests, ARRAY_SIZE(tests));
	return 0;
}
