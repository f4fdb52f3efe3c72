// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated DVFS platform (CONFIG_X86_DVFS_EMULATION, booted with
 * dvfs_emu=): the platform is the one the parameter names, the MSRs read
 * as that part's (and those it lacks fail), and the frequency scale the
 * unmodified x86 code computes from the synthetic APERF/MPERF at each tick
 * follows the frequency requested for a busy CPU:
 *
 *   freq_scale = min(f_eff / f_base * 1024 * 1024 / max_freq_ratio, 1024)
 *   f_eff      = min(f_requested, turbo limit for the CPUs in C0)
 *
 * with each reference the debug setter offers (1-core, 4-core, all-core
 * turbo, base), and the turbo limit follows the number of busy CPUs; its
 * cpufreq driver gives each CPU a policy that the governors drive. (That
 * the CPUs run at their frequency is dvfs_slowdown_test's, which needs a
 * steady clock; the reference the boot code picks is aperfmperf_test's,
 * on QEMU's platform.)
 * Skips, as expected, in a boot without dvfs_emu=.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"
#include "dvfs_util.h"

#define MSR_PLATFORM_INFO		0xce
#define MSR_TURBO_RATIO_LIMIT		0x1ad
#define MSR_TURBO_RATIO_LIMIT1		0x1ae
#define MSR_ATOM_CORE_RATIOS		0x66a
#define MSR_ATOM_CORE_TURBO_RATIOS	0x66c
#define MSR_IA32_MPERF			0xe7
#define MSR_IA32_APERF			0xe8

static int cpus[64], nr_cpus, test_cpu;

/* The turbo limit with @n CPUs in C0 (MSR_TURBO_RATIO_LIMIT byte n - 1) */
static unsigned int cap(int n)
{
	return plat.turbo[n <= 1 ? L1C : n == 2 ? L2C : n <= 4 ? L4C : LAC];
}

/* "key value" lines of @path: the value of @key */
static int read_key(const char *path, const char *key, char *val, size_t size)
{
	char line[256];
	size_t len = strlen(key);
	FILE *f = fi_fopen_read(path);
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, len) && line[len] == ' ') {
			line[strcspn(line, "\n")] = 0;
			snprintf(val, size, "%s", line + len + 1);
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

static int read_key_u(const char *path, const char *key, unsigned long long *v)
{
	char buf[128], *end;

	if (read_key(path, key, buf, sizeof(buf)))
		return -1;
	*v = strtoull(buf, &end, 10);
	return *end ? -1 : 0;
}

struct state {
	uint64_t aperf, mperf;
	uint64_t level_us[LEVELS];	/* the package's time at each turbo level */
	uint64_t slowed_us, dropped_us;	/* the slowdown's, in total */
	int64_t debt_us;		/* owed (negative: a credit) */
};

/*
 * @cpu's counters and the package's time at each turbo level, as of the
 * CPU's last update, from one read of its debugfs state (one snapshot: two
 * MSR reads are two IPIs, and a vCPU can be preempted between them).
 */
static int read_state(int cpu, struct state *st)
{
	static const char * const keys[] = {
		"aperf", "mperf", "level_1c_us", "level_2c_us", "level_4c_us",
		"level_all_us", "slowed_us", "dropped_us", "debt_us",
	};
	uint64_t *vals[] = { &st->aperf, &st->mperf, &st->level_us[0],
			     &st->level_us[1], &st->level_us[2], &st->level_us[3],
			     &st->slowed_us, &st->dropped_us, NULL };
	char path[128], line[128], key[32], val[32], *end;
	unsigned int found = 0;
	size_t i;
	FILE *f;

	snprintf(path, sizeof(path), EMU_DIR "/cpu%d/state", cpu);
	f = fi_fopen_read(path);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%31s %31s", key, val) != 2)
			continue;
		for (i = 0; i < ARRAY_SIZE(keys); i++) {
			if (strcmp(key, keys[i]))
				continue;
			errno = 0;
			/* debt_us is the one signed value */
			if (vals[i] && val[0] != '-')
				*vals[i] = strtoull(val, &end, 10);
			else if (!vals[i])
				st->debt_us = strtoll(val, &end, 10);
			else
				end = val;
			if (!errno && !*end && end != val)
				found |= 1U << i;
		}
	}
	fclose(f);
	return found == (1U << ARRAY_SIZE(keys)) - 1 ? 0 : -1;
}

static int test_platform(void)
{
	static const char * const keys[] = {
		"min_mhz", "base_mhz", "turbo_1c_mhz", "turbo_2c_mhz",
		"turbo_4c_mhz", "turbo_all_mhz",
	};
	unsigned int want[] = { plat.min, plat.base, plat.turbo[0],
				plat.turbo[1], plat.turbo[2], plat.turbo[3] };
	unsigned long long v = 0;
	char name[64];
	size_t i;
	int ret = KSFT_PASS;

	if (read_key(EMU_DIR "/platform", "profile", name, sizeof(name)) ||
	    strcmp(name, plat.name)) {
		fi_err("profile \"%s\", booted with %s", name, plat.name);
		ret = KSFT_FAIL;
	}
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (read_key_u(EMU_DIR "/platform", keys[i], &v) || v != want[i]) {
			fi_err("%s %llu, want %u", keys[i], v, want[i]);
			ret = KSFT_FAIL;
		}
	}
	return ret;
}

/* The MSRs as the part has them, /dev/cpu/N/msr as turbostat reads them */
static int test_msrs(void)
{
	static const unsigned int absent[] = {
		MSR_TURBO_RATIO_LIMIT1, MSR_ATOM_CORE_RATIOS,
		MSR_ATOM_CORE_TURBO_RATIOS,
	};
	unsigned int byte_lvl[8] = { L1C, L2C, L4C, L4C, LAC, LAC, LAC, LAC };
	int ret = KSFT_PASS, err, i;
	uint64_t v, a0, m0, a1, m1;
	size_t j;

	if (dvfs_msr_read(test_cpu, MSR_PLATFORM_INFO, &v)) {
		fi_err("cannot read MSR_PLATFORM_INFO: %m (CONFIG_X86_MSR?)");
		return KSFT_FAIL;
	}
	if (((v >> 8) & 0xff) * 100 != plat.base ||
	    ((v >> 40) & 0xff) * 100 != plat.min) {
		fi_err("MSR_PLATFORM_INFO 0x%llx: ratios %llu (base) %llu (min), want %u %u",
		       (unsigned long long)v, (unsigned long long)(v >> 8) & 0xff,
		       (unsigned long long)(v >> 40) & 0xff, plat.base / 100,
		       plat.min / 100);
		ret = KSFT_FAIL;
	}
	if (dvfs_msr_read(test_cpu, MSR_TURBO_RATIO_LIMIT, &v))
		return KSFT_FAIL;
	for (i = 0; i < 8; i++) {
		if (((v >> (8 * i)) & 0xff) * 100 != plat.turbo[byte_lvl[i]]) {
			fi_err("MSR_TURBO_RATIO_LIMIT 0x%llx: %d cores %llu, want %u",
			       (unsigned long long)v, i + 1,
			       (unsigned long long)(v >> (8 * i)) & 0xff,
			       plat.turbo[byte_lvl[i]] / 100);
			ret = KSFT_FAIL;
		}
	}
	for (j = 0; j < ARRAY_SIZE(absent); j++) {
		err = dvfs_msr_read(test_cpu, absent[j], &v);
		if (err != -EIO) {
			fi_err("MSR 0x%x: read %s, want EIO (the part has no such MSR)",
			       absent[j], err ? strerror(-err) : "succeeded");
			ret = KSFT_FAIL;
		}
	}
	/* The counters read through the MSRs too, as turbostat reads them */
	if (dvfs_msr_read(test_cpu, MSR_IA32_APERF, &a0) ||
	    dvfs_msr_read(test_cpu, MSR_IA32_MPERF, &m0))
		return KSFT_FAIL;
	fi_sleep_us(10000);
	if (dvfs_msr_read(test_cpu, MSR_IA32_APERF, &a1) ||
	    dvfs_msr_read(test_cpu, MSR_IA32_MPERF, &m1))
		return KSFT_FAIL;
	if (a1 <= a0 || m1 <= m0) {
		fi_err("APERF %llu -> %llu, MPERF %llu -> %llu in 10 ms: want both to grow",
		       (unsigned long long)a0, (unsigned long long)a1,
		       (unsigned long long)m0, (unsigned long long)m1);
		ret = KSFT_FAIL;
	}
	return ret;
}

static uint64_t tsc(void)
{
	return __builtin_ia32_rdtsc();
}

static int read_state_key(int cpu, const char *key, unsigned long long *v)
{
	char path[128];

	snprintf(path, sizeof(path), EMU_DIR "/cpu%d/state", cpu);
	return read_key_u(path, key, v);
}

/* test_cpu's MPERF through its MSR between two TSC reads, then its state */
static int sample_mperf(uint64_t *before, uint64_t *mperf, uint64_t *after,
			struct state *st)
{
	int err;

	*before = tsc();
	err = dvfs_msr_read(test_cpu, MSR_IA32_MPERF, mperf);
	*after = tsc();
	return err || read_state(test_cpu, st);
}

/*
 * MPERF counts TSC ticks in C0: a busy CPU's MPERF grows with the TSC
 * (within the time the two MSR reads take, both ways); APERF at the
 * requested frequency, the base at boot (below every turbo limit), is
 * MPERF's growth exactly. Once the CPU idles it leaves C0 and stops
 * being active; and a CPU that goes offline is not active.
 */
static int test_counters(void)
{
	uint64_t t0a, t0b, t1a, t1b, m0, m1, a;
	unsigned long long c0 = 1, act = 1;
	struct state s0, s1;
	int ret = KSFT_PASS, i;
	char path[128];
	pid_t pid;

	if (dvfs_set_req(test_cpu, plat.base))
		return KSFT_FAIL;
	pid = fi_spawn_spinner(test_cpu);
	if (pid < 0)
		return KSFT_FAIL;
	fi_sleep_us(10000);
	if (sample_mperf(&t0a, &m0, &t0b, &s0))
		ret = KSFT_FAIL;
	fi_sleep_us(100000);
	if (sample_mperf(&t1a, &m1, &t1b, &s1))
		ret = KSFT_FAIL;
	fi_reap(pid);
	if (ret != KSFT_PASS)
		return ret;
	fi_info("busy CPU %d: MPERF +%llu, TSC +%llu..%llu; from its state: APERF +%llu MPERF +%llu\n",
		test_cpu, (unsigned long long)(m1 - m0), (unsigned long long)(t1a - t0b),
		(unsigned long long)(t1b - t0a), (unsigned long long)(s1.aperf - s0.aperf),
		(unsigned long long)(s1.mperf - s0.mperf));
	if (m1 - m0 > t1b - t0a || m1 - m0 < (t1a - t0b) * 0.98) {
		fi_err("busy: MPERF grew by %llu while the TSC grew by %llu..%llu",
		       (unsigned long long)(m1 - m0), (unsigned long long)(t1a - t0b),
		       (unsigned long long)(t1b - t0a));
		ret = KSFT_FAIL;
	}
	a = s1.aperf - s0.aperf;
	if (s1.mperf == s0.mperf || a != s1.mperf - s0.mperf) {
		fi_err("busy at the base frequency: APERF +%llu, MPERF +%llu: want equal, > 0",
		       (unsigned long long)a, (unsigned long long)(s1.mperf - s0.mperf));
		ret = KSFT_FAIL;
	}
	/* Left alone, the CPU idles: out of C0, not active (within 1 s) */
	for (i = 0; i < 100 && (c0 || act); i++) {
		fi_sleep_us(10000);
		if (read_state_key(test_cpu, "c0", &c0) ||
		    read_state_key(test_cpu, "active", &act))
			return KSFT_FAIL;
	}
	if (c0 || act) {
		fi_err("CPU %d never left C0 (c0 %llu, active %llu) in 1 s without work",
		       test_cpu, c0, act);
		ret = KSFT_FAIL;
	}
	/* Offline: play_dead() is reached without arch_cpu_idle_enter() */
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", test_cpu);
	if (access(path, W_OK)) {
		fi_info("CPU %d cannot go offline here (%s): not checked offline\n",
			test_cpu, path);
		return ret;
	}
	pid = fi_spawn_spinner(test_cpu);	/* active when it goes */
	fi_sleep_us(10000);
	if (pid < 0 || fi_write_str(path, "0")) {
		fi_err("cannot offline CPU %d", test_cpu);
		fi_reap(pid);
		return KSFT_FAIL;
	}
	fi_reap(pid);
	if (read_state_key(test_cpu, "active", &act) || act) {
		fi_err("offline CPU %d: active %llu, want 0", test_cpu, act);
		ret = KSFT_FAIL;
	}
	if (fi_write_str(path, "1")) {
		fi_err("cannot bring CPU %d back online", test_cpu);
		return KSFT_FAIL;
	}
	return ret;
}

/* max_freq_ratio with the reference at @mhz, as the kernel computes it */
static unsigned long long ratio_of(unsigned int mhz)
{
	return mhz * 1024ULL / plat.base;
}

/* freq_scale at effective frequency @eff with max_freq_ratio @ratio */
static double want_scale_ref(unsigned int eff, unsigned long long ratio)
{
	double s = (double)eff / plat.base * 1024 * 1024 / ratio;

	return s > 1024 ? 1024 : s;
}

/*
 * The slowdown of test_cpu, busy at @mhz (its limit above @mhz): over 100
 * ms of C0 time c, it owes (1 - f/f_1C) x c and spins it in the tick,
 * drops it or still owes it. Each read is one snapshot of its state, and
 * the kernel carries the remainders of its divisions, so that holds to
 * the microsecond rounding of the values read: within 200 us and 0.5%.
 * Were the spinning not itself C0 time that owes, it would be (1 - r) /
 * (2 - r) of c (0.25 ms less over 100 ms at 3700 of 3900 MHz). Drops come
 * only from ticks that came late and vCPUs the host stalled (a stall is
 * C0 time that owes: the stall slowed the CPU already), and the debugfs
 * counter does not say whether a debt or a credit was dropped: the
 * identity is judged within what was dropped. At least half of what was
 * owed must have been spun (the exact slowdown is dvfs_slowdown_test's,
 * under -icount); a window where less was, the host having stalled the
 * vCPU for the rest, is measured again, up to five windows (an empirical
 * margin: with more vCPUs than host cores, a window can drop from a tenth
 * of a percent to half of what a slow CPU owes). A kernel that drops its
 * debt rather than spin it fails here.
 */
static int check_slowed(unsigned int mhz)
{
	double c, spun, dropped, paid, want;
	struct state s0, s1;
	int l, w;

	for (w = 1; ; w++) {
		if (read_state(test_cpu, &s0))
			return -1;
		fi_sleep_us(100000);
		if (read_state(test_cpu, &s1))
			return -1;
		for (l = 0, c = 0; l < LEVELS; l++)
			c += s1.level_us[l] - s0.level_us[l];
		spun = s1.slowed_us - s0.slowed_us;
		dropped = s1.dropped_us - s0.dropped_us;
		want = (1 - (double)mhz / plat.turbo[L1C]) * c;
		fi_info("%u MHz: spun %.1f ms (%.1f dropped, debt %+.1f) of %.1f ms in C0, want %.1f\n",
			mhz, spun / 1000, dropped / 1000, (s1.debt_us - s0.debt_us) / 1000.0,
			c / 1000, want / 1000);
		if (spun >= (want - 2000) / 2)
			break;
		if (w == 5) {
			fi_err("%u MHz: the CPU spun %.1f ms of the %.1f it owed, want at least half (%d windows in a row: the host stalled the vCPU, or the CPU does not spin)",
			       mhz, spun / 1000, want / 1000, w);
			return -1;
		}
	}
	/* What it owed: spun, still owed, and dropped, if that was debt */
	paid = spun + (s1.debt_us - s0.debt_us);
	if (paid - dropped > want + 200 + want * 0.005 ||
	    paid + dropped < want - 200 - want * 0.005) {
		fi_err("%u MHz: the CPU spun and still owes %.1f ms (%.1f dropped) of %.1f in C0, want %.1f +- 0.2 ms +- 0.5%%",
		       mhz, paid / 1000, dropped / 1000, c / 1000, want / 1000);
		return -1;
	}
	return 0;
}

/*
 * test_cpu, busy, at a request of @mhz: once a tick has seen only the new
 * frequency, freq_scale is the formula's with max_freq_ratio @ratio, within
 * 1%, in five reads 3 ms apart. Other CPUs active at times lower the turbo
 * limit, at most to the limit with all of them active.
 */
static int check_scale(unsigned int mhz, unsigned long long ratio)
{
	double want = want_scale_ref(mhz, ratio), hi = want;
	double lo = want_scale_ref(mhz < cap(nr_cpus) ? mhz : cap(nr_cpus), ratio);
	uint64_t scale;

	if (dvfs_settled_scale(test_cpu, mhz, lo, hi, 5, &scale)) {
		fi_err("(max_freq_ratio %llu)", ratio);
		return -1;
	}
	fi_info("%u MHz: freq_scale %llu (formula %.1f)\n", mhz,
		(unsigned long long)scale, want);
	return 0;
}

/*
 * A busy CPU at frequencies from the minimum to the 1-core turbo: its
 * freq_scale, computed by scale_freq_tick() from the counters, is the
 * formula's within 1%, once it has settled at the new frequency, and it
 * spins what it owes (check_slowed()). Where the request is above a turbo
 * limit, other CPUs active at times can lower the effective frequency, at
 * most to the limit with all of them active.
 */
static int test_freq_scale(void)
{
	unsigned int f[] = { plat.min, (plat.min + plat.base) / 200 * 100,
			     plat.base, plat.turbo[L4C], plat.turbo[L2C],
			     plat.turbo[L1C] };
	int ret = KSFT_PASS;
	size_t i;
	pid_t pid;

	pid = fi_spawn_spinner(test_cpu);
	if (pid < 0)
		return KSFT_FAIL;
	for (i = 0; i < ARRAY_SIZE(f); i++) {
		if (i && f[i] == f[i - 1])
			continue;
		if (check_scale(f[i], ratio_of(plat.turbo[L4C])))
			ret = KSFT_FAIL;
		/* Where no limit is below the request, it is the effective one */
		if (f[i] <= cap(nr_cpus) && check_slowed(f[i]))
			ret = KSFT_FAIL;
	}
	fi_reap(pid);
	return ret;
}

#define REF_FILE FI_DEBUGFS "/max_freq_ratio_reference"

/* The reference in force is @key, @mhz, named @source: 0, or -1 said why */
static int check_reference(const char *key, unsigned int mhz, const char *source)
{
	char buf[128];
	uint64_t ratio;

	if (fi_read_line(REF_FILE, buf, sizeof(buf)) || strcmp(buf, key)) {
		fi_err("max_freq_ratio_reference \"%s\", want %s", buf, key);
		return -1;
	}
	if (fi_read_u64(FI_DEBUGFS "/max_freq_ratio", &ratio) || ratio != ratio_of(mhz)) {
		fi_err("reference %s: max_freq_ratio %llu, want %u x 1024 / base %u = %llu", key,
		       (unsigned long long)ratio, mhz, plat.base, ratio_of(mhz));
		return -1;
	}
	if (fi_read_line(FI_DEBUGFS "/max_freq_ratio_source", buf, sizeof(buf)) ||
	    strcmp(buf, source)) {
		fi_err("reference %s: max_freq_ratio_source \"%s\", want \"%s\"", key, buf,
		       source);
		return -1;
	}
	return 0;
}

/*
 * Every reference the debug setter offers (the choices of the article: the
 * 1-core, 4-core and all-core turbo, and the base frequency): max_freq_ratio
 * is that limit over the base, and the scale of a busy CPU from the real tick
 * path follows it, clipped above it; bad writes change nothing; "boot" gives
 * the boot code's 4-core reference back.
 */
static int test_references(void)
{
	const struct {
		const char *key, *source;
		unsigned int mhz;
	} refs[] = {
		{ "1c", "1-core turbo (set through debugfs)", plat.turbo[L1C] },
		{ "all", "turbo with the most cores listed (set through debugfs)",
		  plat.turbo[LAC] },
		{ "base", "base frequency (set through debugfs)", plat.base },
		{ "4c", "4-core turbo (set through debugfs)", plat.turbo[L4C] },
		{ "boot", "4-core turbo", plat.turbo[L4C] },
	};
	const char * const bad[] = { "2c", "1C", "\n", "all all", "boot1", "4c\n\n" };
	int ret = KSFT_PASS, err;
	size_t i, j;
	pid_t pid;

	if (access(REF_FILE, F_OK)) {
		fi_info("no %s: CONFIG_X86_FREQ_SCALE_OVERRIDE=n\n", REF_FILE);
		return KSFT_SKIP;
	}
	pid = fi_spawn_spinner(test_cpu);
	if (pid < 0)
		return KSFT_FAIL;
	for (i = 0; i < ARRAY_SIZE(refs); i++) {
		unsigned int f[] = { plat.min, (plat.min + refs[i].mhz) / 200 * 100,
				     refs[i].mhz, plat.turbo[L1C] };

		err = fi_write_str(REF_FILE, refs[i].key);
		if (err) {
			fi_err("write %s to max_freq_ratio_reference: %s", refs[i].key,
			       strerror(-err));
			ret = KSFT_FAIL;
			continue;
		}
		if (check_reference(refs[i].key, refs[i].mhz, refs[i].source)) {
			ret = KSFT_FAIL;
			continue;
		}
		for (j = 0; j < ARRAY_SIZE(f); j++) {
			if (j && f[j] == f[j - 1])
				continue;
			if (check_scale(f[j], ratio_of(refs[i].mhz)))
				ret = KSFT_FAIL;
		}
		if (i)
			continue;
		/* Malformed and unknown: -EINVAL, the 1-core reference stays */
		for (j = 0; j < ARRAY_SIZE(bad); j++) {
			err = fi_write_str(REF_FILE, bad[j]);
			if (err != -EINVAL) {
				fi_err("write \"%s\" to max_freq_ratio_reference: %s, want EINVAL",
				       bad[j], err ? strerror(-err) : "accepted");
				ret = KSFT_FAIL;
			}
			if (check_reference(refs[i].key, refs[i].mhz, refs[i].source))
				ret = KSFT_FAIL;
		}
	}
	/* The boot code's reference, for what follows, whatever failed */
	fi_write_str(REF_FILE, "boot");
	fi_reap(pid);
	return ret;
}

static int level_of(int n)
{
	return n <= 1 ? L1C : n == 2 ? L2C : n <= 4 ? L4C : LAC;
}

/*
 * With k CPUs busy at the 1-core turbo request, the package never spends
 * time at a turbo level for fewer than k active CPUs, and a busy CPU's
 * APERF/MPERF over 200 ms is the mean of min(request, limit) over the
 * time at each level, within 0.1%: with all CPUs busy, exactly the limit
 * for all of them. (How long the idle CPUs count as active when they wake
 * depends on the host, which can preempt a vCPU: the test asserts the
 * limit for what was counted, not a wall-clock residency.)
 */
static int test_turbo_cap(void)
{
	int ks[] = { 1, 2, nr_cpus }, ret = KSFT_PASS, i, k, l;
	unsigned long long active = 0;
	struct state s0, s1;
	pid_t pids[64];

	for (i = 0; i < nr_cpus; i++)
		if (dvfs_set_req(cpus[i], plat.turbo[L1C]))
			return KSFT_FAIL;
	for (k = 0; k < (int)ARRAY_SIZE(ks); k++) {
		int n = ks[k], cpu = cpus[nr_cpus - 1];
		double eff, want = 0, total = 0, below = 0, dt[LEVELS];

		if (k && ks[k] == ks[k - 1])
			continue;
		/* The busy ones from the last CPU down, the sampler on CPU 0 */
		for (i = 0; i < n; i++) {
			pids[i] = fi_spawn_spinner(cpus[nr_cpus - 1 - i]);
			if (pids[i] < 0)
				ret = KSFT_FAIL;
		}
		fi_sleep_us(20000);
		if (read_key_u(EMU_DIR "/platform", "active", &active) ||
		    active < (unsigned long long)n) {
			fi_err("%d busy: the platform counts %llu active", n, active);
			ret = KSFT_FAIL;
		}
		if (read_state(cpu, &s0))
			ret = KSFT_FAIL;
		fi_sleep_us(200000);
		if (read_state(cpu, &s1))
			ret = KSFT_FAIL;
		for (i = 0; i < n; i++)
			if (pids[i] > 0)
				fi_reap(pids[i]);
		if (ret != KSFT_PASS || s1.mperf <= s0.mperf)
			return KSFT_FAIL;
		for (l = 0; l < LEVELS; l++) {
			unsigned int f = plat.turbo[l] < plat.turbo[L1C] ?
					 plat.turbo[l] : plat.turbo[L1C];

			dt[l] = s1.level_us[l] - s0.level_us[l];
			total += dt[l];
			want += dt[l] * f;
			if (l < level_of(n))
				below += dt[l];
		}
		want /= total;
		eff = (double)(s1.aperf - s0.aperf) / (s1.mperf - s0.mperf) * plat.base;
		fi_info("%d of %d CPUs busy: %.1f MHz, from the time at each level (1c %.1f 2c %.1f 4c %.1f all %.1f ms) %.1f\n",
			n, nr_cpus, eff, dt[0] / 1000, dt[1] / 1000, dt[2] / 1000,
			dt[3] / 1000, want);
		if (below) {
			fi_err("%d busy: %.1f ms at turbo levels for fewer active CPUs", n,
			       below / 1000);
			ret = KSFT_FAIL;
		}
		if (fabs(eff - want) > want * 0.001) {
			fi_err("%d busy: effective %.1f MHz, want %.1f +- 0.1%%", n, eff, want);
			ret = KSFT_FAIL;
		}
		if (n == nr_cpus && fabs(eff - cap(n)) > cap(n) * 0.001) {
			fi_err("all %d busy: effective %.1f MHz, want their limit %u", n, eff,
			       cap(n));
			ret = KSFT_FAIL;
		}
	}
	return ret;
}

/* Wait up to @ms for CPU @cpu's request to be @mhz */
static int wait_req(int cpu, unsigned int mhz, int ms, unsigned int *got)
{
	uint64_t start = fi_now_us();

	do {
		if (dvfs_get_req(cpu, got))
			return -1;
		if (*got == mhz)
			return 0;
		fi_sleep_us(2000);
	} while (fi_now_us() - start < ms * 1000ULL);
	return -1;
}

/* Governor @gov on @cpu; the request it makes within @ms must be @mhz */
static int governor_requests(int cpu, const char *gov, unsigned int mhz, int ms)
{
	unsigned int got = 0;

	if (dvfs_cpufreq_write(cpu, "scaling_governor", gov)) {
		fi_err("CPU %d: cannot select the %s governor", cpu, gov);
		return -1;
	}
	if (wait_req(cpu, mhz, ms, &got)) {
		fi_err("CPU %d under %s: request %u MHz, want %u within %d ms", cpu, gov,
		       got, mhz, ms);
		return -1;
	}
	return 0;
}

/*
 * The platform's cpufreq driver: one policy per CPU, the platform's
 * frequencies from the minimum to the 1-core turbo in 100 MHz steps, and
 * the governors' choices are the platform's requests: the userspace
 * governor's setspeed, performance (the 1-core turbo), powersave (the
 * minimum), ondemand and schedutil for a busy CPU (the 1-core turbo: its
 * util reaches 1024, and 1.25 x f_1C x util / 1024 is above f_1C from util
 * 820) and, for schedutil, the minimum once the CPU idles and its util has
 * decayed, switching from the scheduler (fast switch: no sugov:N kthread).
 * Each change is a transition in the policy's statistics.
 */
static int test_cpufreq(void)
{
	char buf[1024], want[1024], num[32];
	int ret = KSFT_PASS, i, len = 0;
	uint64_t trans0, trans1;
	unsigned int f, got;
	pid_t pid;

	for (f = plat.min; f <= plat.turbo[L1C]; f += 100)
		len += snprintf(want + len, sizeof(want) - len, "%u ", f * 1000);
	for (i = 0; i < nr_cpus; i++) {
		int cpu = cpus[i];
		unsigned long long lo = 0, hi = 0;

		snprintf(num, sizeof(num), "%d", cpu);
		if (dvfs_cpufreq_read(cpu, "affected_cpus", buf, sizeof(buf)) || strcmp(buf, num)) {
			fi_err("CPU %d: affected_cpus \"%s\", want its own policy", cpu, buf);
			ret = KSFT_FAIL;
		}
		if (dvfs_cpufreq_read(cpu, "scaling_available_frequencies", buf, sizeof(buf)) ||
		    strcmp(buf, want)) {
			fi_err("CPU %d: frequencies \"%s\", want \"%s\"", cpu, buf, want);
			ret = KSFT_FAIL;
		}
		if (!dvfs_cpufreq_read(cpu, "cpuinfo_min_freq", buf, sizeof(buf)))
			lo = strtoull(buf, NULL, 10);
		if (!dvfs_cpufreq_read(cpu, "cpuinfo_max_freq", buf, sizeof(buf)))
			hi = strtoull(buf, NULL, 10);
		if (lo != plat.min * 1000ULL || hi != plat.turbo[L1C] * 1000ULL) {
			fi_err("CPU %d: cpuinfo %llu..%llu kHz, want %u..%u", cpu, lo, hi,
			       plat.min * 1000, plat.turbo[L1C] * 1000);
			ret = KSFT_FAIL;
		}
	}
	if (ret != KSFT_PASS)
		return ret;

	snprintf(buf, sizeof(buf), CPUFREQ_DIR "/stats/total_trans", test_cpu);
	if (dvfs_set_req(test_cpu, plat.min) || fi_read_u64(buf, &trans0) ||
	    dvfs_set_req(test_cpu, plat.base) || wait_req(test_cpu, plat.base, 0, &got) ||
	    fi_read_u64(buf, &trans1)) {
		fi_err("CPU %d: setspeed %u MHz: request %u", test_cpu, plat.base, got);
		return KSFT_FAIL;
	}
	if (trans1 != trans0 + 1) {
		fi_err("CPU %d: one change of frequency, %llu transitions counted", test_cpu,
		       (unsigned long long)(trans1 - trans0));
		ret = KSFT_FAIL;
	}
	if (governor_requests(test_cpu, "performance", plat.turbo[L1C], 100) ||
	    governor_requests(test_cpu, "powersave", plat.min, 100))
		ret = KSFT_FAIL;

	pid = fi_spawn_spinner(test_cpu);
	if (pid < 0)
		return KSFT_FAIL;
	if (governor_requests(test_cpu, "ondemand", plat.turbo[L1C], 1000) ||
	    governor_requests(test_cpu, "schedutil", plat.turbo[L1C], 3000))
		ret = KSFT_FAIL;
	/* schedutil switches from the scheduler: no sugov:N kthread */
	snprintf(num, sizeof(num), "sugov:%d", test_cpu);
	if (fi_find_task(num) > 0) {
		fi_err("CPU %d under schedutil: a %s kthread, so no fast switching", test_cpu,
		       num);
		ret = KSFT_FAIL;
	}
	fi_reap(pid);
	if (wait_req(test_cpu, plat.min, 3000, &got)) {
		fi_err("CPU %d under schedutil, idle: request %u MHz, want %u within 3 s",
		       test_cpu, got, plat.min);
		ret = KSFT_FAIL;
	}
	if (fi_read_u64(buf, &trans0) || trans0 <= trans1 + 3) {
		fi_err("CPU %d: transitions %llu -> %llu over 4 governors' changes", test_cpu,
		       (unsigned long long)trans1, (unsigned long long)trans0);
		ret = KSFT_FAIL;
	}
	if (dvfs_cpufreq_write(test_cpu, "scaling_governor", "userspace"))
		ret = KSFT_FAIL;
	return ret;
}

/*
 * Malformed and out-of-range requests: -EINVAL, the request unchanged; a
 * well-formed one while the cpufreq driver owns the requests: -EBUSY.
 */
static int test_bad_requests(void)
{
	char below[16], above[16], step[16];
	const char * const bad[] = { "\n", "abc", "12abc", "-100", below, above, step,
			      "18446744073709551616" };
	unsigned int before, after;
	int ret = KSFT_PASS, err;
	char path[128];
	size_t i;

	snprintf(below, sizeof(below), "%u", plat.min - 100);
	snprintf(above, sizeof(above), "%u", plat.turbo[L1C] + 100);
	snprintf(step, sizeof(step), "%u", plat.base + 50);
	snprintf(path, sizeof(path), EMU_DIR "/cpu%d/requested_mhz", test_cpu);
	if (dvfs_set_req(test_cpu, plat.base) || dvfs_get_req(test_cpu, &before))
		return KSFT_FAIL;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err = fi_write_str(path, bad[i]);
		if (dvfs_get_req(test_cpu, &after))
			return KSFT_FAIL;
		if (err != -EINVAL || after != before) {
			fi_err("write \"%s\": %s, request %u -> %u; want EINVAL, unchanged",
			       bad[i], err ? strerror(-err) : "accepted", before, after);
			ret = KSFT_FAIL;
		}
	}
	/* Well-formed, but the cpufreq driver owns the requests */
	snprintf(step, sizeof(step), "%u", plat.min);
	err = fi_write_str(path, step);
	if (dvfs_get_req(test_cpu, &after))
		return KSFT_FAIL;
	if (err != -EBUSY || after != before) {
		fi_err("write \"%s\" under the cpufreq driver: %s, request %u -> %u; want EBUSY, unchanged",
		       step, err ? strerror(-err) : "accepted", before, after);
		ret = KSFT_FAIL;
	}
	return ret;
}

static const struct fi_test tests[] = {
	{ "platform_is_the_boot_parameters", test_platform },
	{ "cpufreq_governors_drive_the_platform", test_cpufreq },
	{ "msrs_are_the_parts", test_msrs },
	{ "counters_count_tsc_ticks_in_c0", test_counters },
	{ "freq_scale_follows_requested_frequency", test_freq_scale },
	{ "every_reference_normalises_the_scale", test_references },
	{ "turbo_limit_follows_busy_cpus", test_turbo_cap },
	{ "bad_requests_rejected_unchanged", test_bad_requests },
};

int main(void)
{
	const char *why;

	dvfs_begin();
	nr_cpus = dvfs_setup_cpus(cpus, ARRAY_SIZE(cpus), true, &why);
	if (nr_cpus < 0)
		ksft_exit_fail_msg("%s\n", why);
	if (nr_cpus < 2)
		ksft_exit_skip("needs two CPUs\n");
	test_cpu = cpus[nr_cpus - 1];
	fi_info("platform %s: %u..%u MHz, base %u, turbo %u/%u/%u/%u\n", plat.name,
		plat.min, plat.turbo[L1C], plat.base, plat.turbo[L1C], plat.turbo[L2C],
		plat.turbo[L4C], plat.turbo[LAC]);
	fi_run_tests(tests, ARRAY_SIZE(tests));
}
