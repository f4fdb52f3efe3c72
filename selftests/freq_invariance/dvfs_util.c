// SPDX-License-Identifier: GPL-2.0
/*
 * The DVFS platform as the tests see it: the architectural one (QEMU's
 * x-dvfs, or hardware), from CPUID, the MSRs, cpufreq's sysfs and
 * intel_pstate's trace event, and the part the boot names (fi_platform=).
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "dvfs_util.h"
#include "fi_util.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* The named parts' published figures, in MHz */
static const struct platform profiles[] = {
	{ "e5-2670v3", 1200, 2300, { 3100, 3100, 2800, 2600 } },
	{ "e3-1240v5", 800, 3500, { 3900, 3900, 3700, 3700 } },
};

struct platform plat;
struct dvfs_msrs dvfs_msrs;

/*
 * fi_platform=PROFILE[+turbo-off] on the kernel command line (which only
 * the tests read): the part a boot on QEMU's platform (x-dvfs) gives, by
 * a profile's name or as MIN:BASE:1C:2C:4C:ALL in MHz, in ratios, and
 * whether its firmware disabled turbo. 0 (part->named false when there is
 * none), or -1 when it is not a part.
 */
int dvfs_fi_platform(struct fi_part *part)
{
	char cmdline[4096], *p, *end;
	unsigned int mhz[6];
	size_t i;
	int n;

	memset(part, 0, sizeof(*part));
	if (fi_read_line("/proc/cmdline", cmdline, sizeof(cmdline)))
		return -1;
	p = strstr(cmdline, "fi_platform=");
	if (!p)
		return 0;
	p += strlen("fi_platform=");
	end = p + strcspn(p, " ");
	*end = 0;
	if (end - p > 10 && !strcmp(end - 10, "+turbo-off")) {
		part->turbo_off = true;
		end[-10] = 0;
	}
	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		if (!strcmp(p, profiles[i].name))
			break;
	if (i < ARRAY_SIZE(profiles)) {
		mhz[0] = profiles[i].min;
		mhz[1] = profiles[i].base;
		memcpy(mhz + 2, profiles[i].turbo, sizeof(profiles[i].turbo));
	} else if (sscanf(p, "%u:%u:%u:%u:%u:%u%n", &mhz[0], &mhz[1], &mhz[2],
			  &mhz[3], &mhz[4], &mhz[5], &n) != 6 || p[n]) {
		return -1;
	}
	for (i = 0; i < 6; i++)
		if (!mhz[i] || mhz[i] % 100)
			return -1;
	part->named = true;
	part->min = mhz[0] / 100;
	part->base = mhz[1] / 100;
	for (i = 0; i < LEVELS; i++)
		part->turbo[i] = mhz[2 + i] / 100;
	return 0;
}

/*
 * A named part other than @part (the first whose ratios differ), for a
 * control: the same readings judged against it must not fit
 */
void dvfs_other_part(const struct fi_part *part, struct fi_part *other)
{
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(profiles); i++) {
		other->named = true;
		other->turbo_off = part->turbo_off;
		other->min = profiles[i].min / 100;
		other->base = profiles[i].base / 100;
		for (j = 0; j < LEVELS; j++)
			other->turbo[j] = profiles[i].turbo[j] / 100;
		if (other->min != part->min || other->base != part->base ||
		    memcmp(other->turbo, part->turbo, sizeof(other->turbo)))
			return;
	}
}

/* Whether the kernel command line has the word @word (no "=value") */
bool dvfs_cmdline_has(const char *word)
{
	char line[4096], *tok, *save;
	FILE *f = fopen("/proc/cmdline", "r");
	bool found = false;

	if (!f)
		return false;
	if (fgets(line, sizeof(line), f))
		for (tok = strtok_r(line, " \t\n", &save); tok && !found;
		     tok = strtok_r(NULL, " \t\n", &save))
			found = !strcmp(tok, word);
	fclose(f);
	return found;
}

/*
 * MSR @msr of CPU @cpu as turbostat reads it, through a descriptor kept
 * open (fi_cached_fd()): 0, or -errno (-EIO: no such MSR)
 */
int dvfs_msr_read(int cpu, unsigned int msr, uint64_t *val)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	fd = fi_cached_fd(path, false);
	if (fd < 0)
		return fd;
	n = pread(fd, val, sizeof(*val), msr);
	return n == sizeof(*val) ? 0 : n < 0 ? -errno : -EIO;
}

/*
 * CPU @cpu's APERF, and its MPERF at the same moment. Each read is an IPI
 * of its own, and the reader or the target can be preempted between them,
 * while MPERF goes on counting: of five MPERF, APERF, MPERF reads, the one
 * whose two MPERF reads are the closest, with APERF taken at their mean.
 * The error left is half that bracket (*@bracket), which the caller bounds.
 */
#define AM_TRIES	5
int dvfs_read_am(int cpu, uint64_t *a, uint64_t *m, uint64_t *bracket)
{
	uint64_t m0, m1, aa;
	int i;

	*bracket = UINT64_MAX;
	for (i = 0; i < AM_TRIES; i++) {
		if (dvfs_msr_read(cpu, MSR_IA32_MPERF, &m0) ||
		    dvfs_msr_read(cpu, MSR_IA32_APERF, &aa) ||
		    dvfs_msr_read(cpu, MSR_IA32_MPERF, &m1))
			return -1;
		if (m1 - m0 < *bracket) {
			*bracket = m1 - m0;
			*a = aa;
			*m = m0 + (m1 - m0) / 2;
		}
	}
	return 0;
}

/*
 * Family 6 Xeons whose MSR_TURBO_RATIO_LIMIT lists the limits of groups of
 * cores, each group's size in MSR_TURBO_RATIO_LIMIT1 (the SDM's
 * MSR_TURBO_RATIO_LIMIT_CORES; turbostat reads them so): Skylake-X, Ice
 * Lake-X and -D, Sapphire Rapids-X, Emerald Rapids-X, Granite Rapids-X and
 * -D, Sierra Forest, Clearwater Forest
 */
bool dvfs_trl_xeon_groups(unsigned int model)
{
	switch (model) {
	case 85: case 106: case 108: case 143: case 207: case 173: case 174:
	case 175: case 221:
		return true;
	}
	return false;
}

/*
 * ... and all family 6 models with that layout (turbostat's): those Xeons
 * and the Atoms Goldmont, Goldmont-D, Tremont-D and Grand Ridge
 */
bool dvfs_trl_groups(unsigned int model)
{
	switch (model) {
	case 92: case 95: case 134: case 182:
		return true;
	}
	return dvfs_trl_xeon_groups(model);
}

/*
 * The turbo limit with @n cores active, decoded from MSR_TURBO_RATIO_LIMIT
 * (@trl) and, in the group layout, ..._LIMIT1 (@trl1), as the SDM lays
 * them out; 0 where they have none.
 */
unsigned int dvfs_trl_limit(unsigned int model, uint64_t trl, uint64_t trl1, unsigned int n)
{
	unsigned int i;

	if (!n)
		return 0;
	if (!dvfs_trl_groups(model))
		return (trl >> (8 * (n > 8 ? 7 : n - 1))) & 0xff;
	for (i = 0; i < 8; i++)
		if (((trl1 >> (8 * i)) & 0xff) >= n)
			return (trl >> (8 * i)) & 0xff;
	return 0;
}

/* CPU @cpu's MSRs that decide the reference: 0, or -errno */
int dvfs_read_msrs(int cpu, struct dvfs_msrs *m)
{
	char vendor[13];
	unsigned int family;
	int err;

	if (dvfs_cpuid_ident(vendor, &family, &m->model))
		return -ENODEV;
	m->trl1 = 0;
	err = dvfs_msr_read(cpu, MSR_PLATFORM_INFO, &m->plat_info);
	err = err ? err : dvfs_msr_read(cpu, MSR_TURBO_RATIO_LIMIT, &m->trl);
	err = err ? err : dvfs_msr_read(cpu, MSR_IA32_MISC_ENABLE, &m->misc_enable);
	if (!err && dvfs_trl_groups(m->model))
		err = dvfs_msr_read(cpu, MSR_TURBO_RATIO_LIMIT1, &m->trl1);
	return err;
}

/* The 4-core limit read by cores (byte 3), the 1-core one where it is 0 */
unsigned int dvfs_by_cores_reference(const struct dvfs_msrs *m)
{
	unsigned int ref = (m->trl >> 24) & 0xff;

	return ref ? ref : m->trl & 0xff;
}

/*
 * The turbo ratio the boot code must take as the reference, as its design
 * says: the limit with 4 cores active (on the Xeons' group layout, the
 * first group of 4 cores or more), the first group's on the Atoms that
 * list them by groups; where the group layout has no such group, the MSR
 * read by cores, as the boot code falls back to; 0 where it has none
 */
unsigned int dvfs_turbo_reference(const struct dvfs_msrs *m)
{
	unsigned int ref = 0;

	if (dvfs_trl_xeon_groups(m->model))
		ref = dvfs_trl_limit(m->model, m->trl, m->trl1, 4);
	else if (dvfs_trl_groups(m->model))
		ref = dvfs_trl_limit(m->model, m->trl, m->trl1, 1);
	return ref ? ref : dvfs_by_cores_reference(m);
}

/*
 * The max_freq_ratio the boot code must set: the reference over the base
 * x 1024 (rounded down, as the kernel divides), 1024 with turbo disabled
 * (IA32_MISC_ENABLE bit 38), 0 where base or reference reads 0 and it
 * must refuse invariance
 */
unsigned int dvfs_max_freq_ratio(const struct dvfs_msrs *m)
{
	unsigned int base = (m->plat_info >> 8) & 0xff, ref = dvfs_turbo_reference(m);

	if (!base || !ref)
		return 0;
	if (m->misc_enable & MISC_ENABLE_TURBO_DISABLE)
		return 1024;
	return ref * 1024 / base;
}

/* CPUID.06H's EAX and ECX: the CPU's own answer, not the kernel's flags */
void dvfs_cpuid6(unsigned int *eax, unsigned int *ecx)
{
	unsigned int ebx, edx;

	if (!__get_cpuid(6, eax, &ebx, ecx, &edx))
		*eax = *ecx = 0;
}

/*
 * The CPU's vendor string (13 bytes with its NUL), family and model, as
 * CPUID leaves 0 and 1 give them (the extended fields folded in): 0, or
 * -1 without CPUID.
 */
int dvfs_cpuid_ident(char *vendor, unsigned int *family, unsigned int *model)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return -1;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return -1;
	*family = (a >> 8) & 0xf;
	*model = (a >> 4) & 0xf;
	if (*family == 6 || *family == 0xf)
		*model |= ((a >> 16) & 0xf) << 4;
	if (*family == 0xf)
		*family += (a >> 20) & 0xff;
	return 0;
}

/*
 * Why a platform test cannot run here: NULL on an Intel CPU whose CPUID
 * has APERF/MPERF (its model in *@model), else the reason to skip
 */
const char *dvfs_intel_aperfmperf(unsigned int *model)
{
	static char why[64];
	unsigned int eax, ecx, family;
	char vendor[13] = "";

	if (dvfs_cpuid_ident(vendor, &family, model) || strcmp(vendor, "GenuineIntel")) {
		snprintf(why, sizeof(why), "not an Intel CPU (CPUID vendor \"%s\")", vendor);
		return why;
	}
	dvfs_cpuid6(&eax, &ecx);
	if (!(ecx & CPUID6_ECX_APERFMPERF))
		return "no APERF/MPERF in CPUID: no platform with frequencies (a VM without one)";
	return NULL;
}

/* CPU @cpu's cpufreq file @name: read into @buf, or written with @val */
int dvfs_cpufreq_read(int cpu, const char *name, char *buf, size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), CPUFREQ_DIR "/%s", cpu, name);
	return fi_read_line(path, buf, size);
}

int dvfs_cpufreq_write(int cpu, const char *name, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), CPUFREQ_DIR "/%s", cpu, name);
	return fi_write_str(path, val);
}

/* @khz into @cpu's cpufreq file @name, saying so when it cannot */
int dvfs_cpufreq_write_khz(int cpu, const char *name, unsigned int khz)
{
	char v[32];

	snprintf(v, sizeof(v), "%u", khz);
	if (dvfs_cpufreq_write(cpu, name, v)) {
		fi_err("CPU %d: cannot write %u to %s", cpu, khz, name);
		return -1;
	}
	return 0;
}

/*
 * Request @mhz for @cpu as a user would: the userspace governor's
 * scaling_setspeed (dvfs_take_cpus() puts the CPUs under it).
 */
int dvfs_set_req(int cpu, unsigned int mhz)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u", mhz * 1000);
	return dvfs_cpufreq_write(cpu, "scaling_setspeed", buf);
}

/*
 * A spinner on @cpu at SCHED_IDLE: it keeps the CPU in C0, so active for
 * the turbo limits, and gives way at once to anything else there (a
 * test's sampler). Its pid, or -1.
 */
pid_t dvfs_spawn_idle_spinner(int cpu)
{
	struct sched_param sp = { 0 };
	pid_t pid = fi_spawn_spinner(cpu);

	if (pid > 0 && sched_setscheduler(pid, SCHED_IDLE, &sp)) {
		fi_reap(pid);
		return -1;
	}
	return pid;
}

/* The request @cpu holds under the userspace governor: scaling_setspeed */
static int dvfs_get_req(int cpu, unsigned int *mhz)
{
	char path[128];
	uint64_t v;

	snprintf(path, sizeof(path), CPUFREQ_DIR "/scaling_setspeed", cpu);
	if (fi_read_u64(path, &v))
		return -1;
	*mhz = v / 1000;
	return 0;
}

static int taken[64], nr_taken;
static unsigned int saved_req[64];
static char saved_gov[64][32];

static void dvfs_give_back(void)
{
	int i;

	for (i = 0; i < nr_taken; i++) {
		if (saved_req[i])
			dvfs_set_req(taken[i], saved_req[i]);
		if (saved_gov[i][0])
			dvfs_cpufreq_write(taken[i], "scaling_governor", saved_gov[i]);
	}
}

/*
 * The @n CPUs in @cpus under the userspace governor (of any cpufreq
 * driver), their governors and requests restored at exit: NULL, or what
 * is wrong.
 */
static const char *dvfs_take_cpus(const int *cpus, int n)
{
	static char why[160];
	int i;

	if (n > (int)ARRAY_SIZE(taken))
		n = ARRAY_SIZE(taken);
	for (i = 0; i < n; i++) {
		char drv[32];

		if (dvfs_cpufreq_read(cpus[i], "scaling_driver", drv, sizeof(drv))) {
			snprintf(why, sizeof(why), "CPU %d: no cpufreq driver", cpus[i]);
			return why;
		}
		taken[i] = cpus[i];
		if (dvfs_cpufreq_read(cpus[i], "scaling_governor", saved_gov[i],
				      sizeof(saved_gov[i]))) {
			snprintf(why, sizeof(why), "cannot read CPU %d's governor", cpus[i]);
			return why;
		}
	}
	nr_taken = n;
	atexit(dvfs_give_back);
	for (i = 0; i < n; i++) {
		if (dvfs_cpufreq_write(cpus[i], "scaling_governor", "userspace")) {
			snprintf(why, sizeof(why),
				 "CPU %d: cannot select the userspace governor (CONFIG_CPU_FREQ_GOV_USERSPACE=n?)",
				 cpus[i]);
			return why;
		}
		if (dvfs_get_req(cpus[i], &saved_req[i])) {
			snprintf(why, sizeof(why),
				 "cannot read CPU %d's request (scaling_setspeed)", cpus[i]);
			return why;
		}
	}
	return NULL;
}

/*
 * The online CPUs into @cpus (at most @max), this process pinned to the
 * first with @pin (the test's CPU is the last), and all of them taken
 * (dvfs_take_cpus()): their number, or -1 with the reason in @why.
 */
int dvfs_setup_cpus(int *cpus, int max, bool pin, const char **why)
{
	static char msg[64];
	int n = fi_online_cpus(cpus, max);

	if (n < 1) {
		*why = "no online CPU";
		return -1;
	}
	if (pin && fi_pin_self(cpus[0])) {
		snprintf(msg, sizeof(msg), "cannot pin to CPU %d: %s", cpus[0], strerror(errno));
		*why = msg;
		return -1;
	}
	*why = dvfs_take_cpus(cpus, n);
	return *why ? -1 : n;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * CPU @cpu, kept busy, asked for @mhz: once a tick has seen only the new
 * frequency (two reads of freq_scale 3 ms apart alike), the median of
 * @reads reads 3 ms apart (at most DVFS_SCALE_READS) is within 1% of
 * @lo..@hi, and at most DVFS_SCALE_OFF of them are not. Not each read:
 * one tick's scale is the ratio of two counter deltas read one after the
 * other, and where the host deschedules the vCPU between the two reads,
 * the platform's counters (in host time) give that tick's MPERF delta the
 * stall and the next tick's APERF delta too: an error of the stall over
 * the tick, of opposite signs on two ticks, of which reads spaced by
 * three ticks see one. A kernel wrong at every other tick has about half
 * its reads off, and fails. 0, with the median in *@scale; or -1, said
 * why.
 */
int dvfs_settled_scale(int cpu, unsigned int mhz, double lo, double hi, int reads,
		       uint64_t *scale)
{
	uint64_t prev, got[DVFS_SCALE_READS];
	char path[128];
	int s, off = 0;

	if (reads < 1 || reads > DVFS_SCALE_READS) {
		fi_err("%d reads of freq_scale: want 1..%d", reads, DVFS_SCALE_READS);
		return -1;
	}
	snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/freq_scale", cpu);
	if (dvfs_set_req(cpu, mhz)) {
		fi_err("cannot request %u MHz on CPU %d", mhz, cpu);
		return -1;
	}
	for (s = 0, *scale = 0; s < 100; s++) {
		prev = *scale;
		fi_sleep_us(3000);
		if (fi_read_u64(path, scale))
			break;
		if (s && *scale == prev)
			break;
	}
	for (s = 0; s < reads; s++) {
		fi_sleep_us(3000);
		if (fi_read_u64(path, &got[s]))
			return -1;
		off += got[s] < lo * 0.99 || got[s] > hi * 1.01;
	}
	qsort(got, reads, sizeof(got[0]), cmp_u64);
	*scale = got[reads / 2];
	if (*scale < lo * 0.99 || *scale > hi * 1.01 || off > DVFS_SCALE_OFF) {
		fi_err("CPU %d busy at %u MHz: freq_scale %llu (median of %d, %llu..%llu, %d off), want %.1f..%.1f +-1%%, at most %d off",
		       cpu, mhz, (unsigned long long)*scale, reads, (unsigned long long)got[0],
		       (unsigned long long)got[reads - 1], off, lo, hi, DVFS_SCALE_OFF);
		return -1;
	}
	if (off)
		fi_info("CPU %d busy at %u MHz: %d of %d reads of freq_scale off by over 1%% (%llu..%llu), the median %llu\n",
			cpu, mhz, off, reads, (unsigned long long)got[0],
			(unsigned long long)got[reads - 1], (unsigned long long)*scale);
	return 0;
}

/*
 * @n iterations of a counted loop: integer work only, whose time is
 * f_max / f times longer at f (the platform slows every instruction alike;
 * rt-app's ldexp() loop would do too, but is too slow under -icount).
 */
void dvfs_work(unsigned long n)
{
	unsigned long i;
	int j;

	for (i = 0; i < n; )
		/* Counted one by one: the compiler may not fold the loop */
		for (j = 0; j < 16; j++)
			asm volatile("inc %0" : "+r" (i));
}

/*
 * Iterations of dvfs_work() that take @us on @cpu now: the median of five
 * timed runs of about that; this process is on @home again after. 0 on
 * error.
 */
unsigned long dvfs_calibrate(int cpu, int home, double us)
{
	unsigned long n = 10000;
	uint64_t t0, dt = 0, runs[5];
	int i;

	if (fi_pin_self(cpu))
		return 0;
	for (i = 0; i < 20; i++) {
		t0 = fi_now_us();
		dvfs_work(n);
		dt = fi_now_us() - t0;
		if (dt >= us / 4)
			break;
		n *= 4;
	}
	n = n * us / (dt ? dt : 1);
	for (i = 0; i < 5; i++) {
		t0 = fi_now_us();
		dvfs_work(n);
		runs[i] = fi_now_us() - t0;
	}
	qsort(runs, 5, sizeof(runs[0]), cmp_u64);
	if (fi_pin_self(home) || !runs[2])
		return 0;
	return n * us / runs[2];
}

/*
 * A child on @cpu busy at the start of every @period_us (absolute: a late
 * period is followed at once by the next): for @n iterations of
 * dvfs_work(), or, with @n 0, for @busy_us by the clock, which does less
 * work when the CPU is slower. Its pid, or -1.
 */
pid_t dvfs_start_periodic(int cpu, unsigned int period_us, unsigned long n,
			  unsigned int busy_us)
{
	return fi_spawn_periodic(cpu, period_us, n ? dvfs_work : NULL, n, busy_us);
}

/* @pid's running time per @period_us over 20 periods, after 5 */
static int dvfs_ran_per_period(pid_t pid, unsigned int period_us, double *ran_us)
{
	long long ran0, ran1;
	uint64_t t0;

	fi_sleep_us(5 * period_us);
	t0 = fi_now_us();
	if (fi_read_sched_ns(pid, "se.sum_exec_runtime", &ran0))
		return -1;
	fi_sleep_us(20 * period_us);
	if (fi_read_sched_ns(pid, "se.sum_exec_runtime", &ran1))
		return -1;
	*ran_us = (ran1 - ran0) / 1000.0 / (fi_now_us() - t0) * period_us;
	return *ran_us > 0 ? 0 : -1;
}

/*
 * A child on @cpu that does, at the start of every @period_us, the work
 * that takes @busy_us there at the 1-core turbo as a periodic task: every
 * CPU in @cpus (@n, the first this process's home) is asked for the
 * 1-core turbo, the work is timed (dvfs_calibrate()), then corrected by
 * what the periodic task was seen to run (it wakes from idle every
 * period, and under TCG that takes up to about twice the calibrated
 * time).
 * Its pid, or -1; *@iters: its work, in dvfs_work() iterations.
 */
pid_t dvfs_start_fixed_work(const int *cpus, int n, int cpu, unsigned int period_us,
			    double busy_us, unsigned long *iters)
{
	double ran;
	pid_t pid;
	int i;

	for (i = 0; i < n; i++)
		if (dvfs_set_req(cpus[i], plat.turbo[L1C]))
			return -1;
	*iters = dvfs_calibrate(cpu, cpus[0], busy_us);
	pid = *iters ? dvfs_start_periodic(cpu, period_us, *iters, 0) : -1;
	if (pid < 0 || dvfs_ran_per_period(pid, period_us, &ran)) {
		fi_reap(pid);
		return -1;
	}
	fi_reap(pid);
	*iters = *iters * busy_us / ran;
	return dvfs_start_periodic(cpu, period_us, *iters, 0);
}

/*
 * Task @tid, periodic with @period_us on @cpu, sampled from this CPU every
 * @sample_us for @window_us after @settle_us: the mean of its util_avg,
 * its running time per period, and the mean freq_scale of @cpu (read at
 * every eighth sample: it changes at ticks). 0, or -1.
 */
int dvfs_observe(int cpu, pid_t tid, unsigned int period_us, double settle_us,
		 double window_us, double sample_us, struct dvfs_seen *seen)
{
	long long ran0, ran1, sw0, sw1, u;
	uint64_t t0, t1, fs;
	double sum = 0, fsum = 0;
	char path[128];
	long n = 0;

	snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/freq_scale", cpu);
	fi_sleep_us(settle_us);
	t0 = fi_now_us();
	if (fi_read_sched_ns(tid, "se.sum_exec_runtime", &ran0) ||
	    fi_read_sched_field(tid, "nr_voluntary_switches", &sw0))
		return -1;
	seen->t0_us = t0;
	seen->n_at = 0;
	while (fi_now_us() < t0 + window_us) {
		double before = fi_now_us();

		if (seen->n_at == DVFS_SAMPLES) {
			fi_err("more than %d reads of util_avg in %.0f us", DVFS_SAMPLES,
			       window_us);
			return -1;
		}
		if (fi_read_sched_field(tid, "se.avg.util_avg", &u))
			return -1;
		seen->at_us[seen->n_at++] = (before + fi_now_us()) / 2;
		if (!(n % 8)) {
			if (fi_read_u64(path, &fs))
				return -1;
			fsum += fs;
		}
		sum += u;
		n++;
		fi_sleep_us(sample_us);
	}
	if (fi_read_sched_ns(tid, "se.sum_exec_runtime", &ran1) ||
	    fi_read_sched_field(tid, "nr_voluntary_switches", &sw1))
		return -1;
	t1 = fi_now_us();
	seen->window_us = t1 - t0;
	seen->sleeps = sw1 - sw0;
	seen->duty = (ran1 - ran0) / 1000.0 / (t1 - t0);
	seen->util = sum / n;
	seen->scale = fsum / ((n + 7) / 8);
	seen->ran_us = (ran1 - ran0) / 1000.0 / (t1 - t0) * period_us;
	return 0;
}

/*
 * The platform as CPU 0's MSRs give it (dvfs_msrs), in plat: MHz as
 * ratios x 100 (the bus clock of every part with these MSRs); a turbo
 * limit the MSRs do not give, or turbo disabled, is the base
 */
static void dvfs_platform_from_msrs(void)
{
	const struct dvfs_msrs *m = &dvfs_msrs;
	static const unsigned int cores[LEVELS] = { 1, 2, 4, 8 };
	bool off = m->misc_enable & MISC_ENABLE_TURBO_DISABLE;
	int i;

	plat.name = "the MSRs";
	plat.min = ((m->plat_info >> 40) & 0xff) * 100;
	plat.base = ((m->plat_info >> 8) & 0xff) * 100;
	for (i = 0; i < LEVELS; i++) {
		plat.turbo[i] = dvfs_trl_limit(m->model, m->trl, m->trl1, cores[i]) * 100;
		if (off || plat.turbo[i] < plat.base)
			plat.turbo[i] = plat.base;
	}
}

/*
 * A dvfs_* test's start: the TAP header, then the architectural platform:
 * an Intel CPU whose CPUID has APERF/MPERF, its part read from the MSRs
 * (dvfs_msrs, plat), as on QEMU's platform (x-dvfs) or hardware. Skips,
 * saying why, where there is none; fails where its MSRs make no part.
 */
void dvfs_begin(void)
{
	const char *why;
	unsigned int model;

	ksft_print_header();
	why = dvfs_intel_aperfmperf(&model);
	if (why)
		ksft_exit_skip("%s\n", why);
	why = dvfs_arch_platform();
	if (why)
		ksft_exit_fail_msg("%s\n", why);
}

/*
 * The architectural platform without a test's start (dvfs_begin()): an
 * Intel CPU whose CPUID has APERF/MPERF, its part from CPU 0's MSRs into
 * dvfs_msrs and plat. NULL, or why not.
 */
const char *dvfs_arch_platform(void)
{
	static char why[96];
	unsigned int model;
	const char *no = dvfs_intel_aperfmperf(&model);

	if (no)
		return no;
	if (dvfs_read_msrs(0, &dvfs_msrs))
		return "cannot read the MSRs through /dev/cpu/0/msr (CONFIG_X86_MSR, root)";
	dvfs_platform_from_msrs();
	if (!plat.min || !plat.base) {
		snprintf(why, sizeof(why), "MSR_PLATFORM_INFO 0x%llx: no base or minimum ratio",
			 (unsigned long long)dvfs_msrs.plat_info);
		return why;
	}
	return NULL;
}

/*
 * Where the MSRs hide the turbo ratios (plat's limits all the base), the
 * limits of the part the boot names (fi_platform=), its base and minimum
 * checked against the MSRs': 1 when taken, 0 when not needed or no part
 * is named, -1 when they disagree.
 */
int dvfs_turbo_from_part(void)
{
	struct fi_part part;
	int i;

	if (plat.turbo[L1C] != plat.base || dvfs_fi_platform(&part) || !part.named)
		return 0;
	if (part.base * 100 != plat.base || part.min * 100 != plat.min)
		return -1;
	for (i = 0; i < LEVELS; i++)
		plat.turbo[i] = part.turbo[i] * 100;
	return 1;
}

/* intel_pstate's requests, from its power:pstate_sample trace event */
#define TRACEFS		"/sys/kernel/tracing"
#define TRACEFS_DEBUGFS	"/sys/kernel/debug/tracing"
/* The event dvfs_trace_start_event() enabled, for dvfs_trace_stop() */
static char trace_event[128];

static const char *tracefs;

/* tracefs's @name set to @val: 0, or -1 said why */
static int trace_write(const char *name, const char *val)
{
	char path[160];
	int err;

	snprintf(path, sizeof(path), "%s/%s", tracefs, name);
	err = fi_write_str(path, val);
	if (err)
		fi_err("cannot write \"%s\" to %s: %s", val, path, strerror(-err));
	return err ? -1 : 0;
}

/* What tracing was before dvfs_trace_start(), for dvfs_trace_stop() */
static char saved_clock[32], saved_on[8], saved_event[8];

/* tracefs's @name into @buf: 0, or -1 said why */
static int trace_read(const char *name, char *buf, size_t size)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", tracefs, name);
	if (!fi_read_line(path, buf, size))
		return 0;
	fi_err("cannot read %s", path);
	return -1;
}

/*
 * The trace event @event ("system/name") traced on the mono clock, what
 * was set before kept for dvfs_trace_stop(), which the caller registers
 * with atexit() first: 0, or -1 said why
 */
int dvfs_trace_start_event(const char *event)
{
	char clocks[256], *sel, *end;

	tracefs = !access(TRACEFS "/trace", F_OK) ? TRACEFS :
		  !access(TRACEFS_DEBUGFS "/trace", F_OK) ? TRACEFS_DEBUGFS : NULL;
	if (!tracefs) {
		fi_err("no tracefs at %s or %s (CONFIG_FTRACE=n?)", TRACEFS, TRACEFS_DEBUGFS);
		return -1;
	}
	snprintf(trace_event, sizeof(trace_event), "events/%s/enable", event);
	/* trace_clock lists the clocks, the one in force in brackets */
	if (trace_read("trace_clock", clocks, sizeof(clocks)) ||
	    trace_read("tracing_on", saved_on, sizeof(saved_on)) ||
	    trace_read(trace_event, saved_event, sizeof(saved_event)))
		return -1;
	sel = strchr(clocks, '[');
	end = sel ? strchr(sel, ']') : NULL;
	if (!end || end - sel - 1 >= (long)sizeof(saved_clock)) {
		fi_err("trace_clock \"%s\": no clock in force", clocks);
		return -1;
	}
	*end = 0;
	snprintf(saved_clock, sizeof(saved_clock), "%s", sel + 1);
	return trace_write("tracing_on", "0") || trace_write("trace_clock", "mono") ||
	       trace_write(trace_event, "1") || trace_write("tracing_on", "1") ? -1 : 0;
}

/* intel_pstate's requests (power:pstate_sample), as dvfs_trace_start_event() */
int dvfs_trace_start(void)
{
	return dvfs_trace_start_event("power/pstate_sample");
}

/* Tracing as it was before dvfs_trace_start() */
void dvfs_trace_stop(void)
{
	if (!tracefs || !*saved_clock)
		return;
	trace_write("tracing_on", "0");
	trace_write(trace_event, saved_event);
	trace_write("trace_clock", saved_clock);
	trace_write("tracing_on", saved_on);
	tracefs = NULL;
}

/* @cpu's trace buffer emptied: 0, or -1 said why */
int dvfs_trace_clear(int cpu)
{
	char name[64];

	snprintf(name, sizeof(name), "per_cpu/cpu%d/trace", cpu);
	return trace_write(name, "");
}

/*
 * @cpu's trace since its buffer was emptied, open for reading, the path in
 * @path; NULL, said why, also when the buffer lost events
 */
static FILE *trace_open(int cpu, char *path, size_t size)
{
	unsigned long long overrun = ~0ULL;
	char line[512];
	FILE *f;

	snprintf(path, size, "%s/per_cpu/cpu%d/stats", tracefs, cpu);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f) &&
	       sscanf(line, "overrun: %llu", &overrun) != 1)
		;
	if (f)
		fclose(f);
	if (overrun) {
		fi_err("%s: %s", path, overrun == ~0ULL ? "no overrun count" : "events lost");
		return NULL;
	}
	snprintf(path, size, "%s/per_cpu/cpu%d/trace", tracefs, cpu);
	f = fopen(path, "r");
	if (!f)
		fi_err("cannot read %s", path);
	return f;
}

/*
 * The times (mono, us) of the events named @name traced on @cpu since its
 * buffer was emptied, in order, into @us (at most @max): their number, or
 * -1 said why, also when the buffer lost events
 */
int dvfs_trace_times(int cpu, const char *name, double *us, int max)
{
	char path[160], line[512], tag[64], *ts;
	int n = 0;
	FILE *f;

	f = trace_open(cpu, path, sizeof(path));
	if (!f)
		return -1;
	snprintf(tag, sizeof(tag), ": %s:", name);
	while (fgets(line, sizeof(line), f)) {
		char *at = strstr(line, tag);

		if (!at)
			continue;
		*at = 0;
		ts = strrchr(line, ' ');
		if (!ts || n == max) {
			fi_err("%s: %s", path,
			       n == max ? "too many events" : "an event without its time");
			fclose(f);
			return -1;
		}
		us[n++] = strtod(ts + 1, NULL) * 1e6;
	}
	fclose(f);
	return n;
}

/*
 * The requests traced on @cpu since its buffer was emptied, in order, into
 * @ev (at most @max), each with the APERF and MPERF counts intel_pstate
 * sampled since its previous traced sample: their number, or -1 said why,
 * also when the buffer lost events
 */
int dvfs_trace_requests(int cpu, struct dvfs_req *ev, int max)
{
	char path[160], line[512];
	int nr_ev = 0;
	FILE *f;

	f = trace_open(cpu, path, sizeof(path));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *tag = strstr(line, ": pstate_sample:"), *ts, *from, *to, *mperf, *aperf;

		if (!tag)
			continue;
		*tag = 0;
		ts = strrchr(line, ' ');
		from = strstr(tag + 1, " from=");
		to = strstr(tag + 1, " to=");
		mperf = strstr(tag + 1, " mperf=");
		aperf = strstr(tag + 1, " aperf=");
		if (!ts || !from || !to || !mperf || !aperf || nr_ev == max) {
			fi_err("%s: %s", path, nr_ev == max ? "too many events" :
			       "a pstate_sample line without its time, from=, to=, mperf= or aperf=");
			fclose(f);
			return -1;
		}
		ev[nr_ev].us = strtod(ts + 1, NULL) * 1e6;
		ev[nr_ev].from = strtoul(from + 6, NULL, 10) * 100;
		ev[nr_ev].mperf = strtoull(mperf + 7, NULL, 10);
		ev[nr_ev].aperf = strtoull(aperf + 7, NULL, 10);
		ev[nr_ev++].mhz = strtoul(to + 4, NULL, 10) * 100;
	}
	fclose(f);
	return nr_ev;
}

/*
 * The times task @tid ran on @cpu, from the sched_switch events traced
 * there since the buffer was emptied at @start_us (sched:sched_switch, as
 * dvfs_trace_start_event()), into [@on[i], @off[i]) (mono, us), at most
 * @max, @resumed[i] set where the run follows a preemption rather than a
 * sleep: running when the trace starts, from @start_us; still running at
 * its end, until @end_us; none from after @end_us. Their number, or -1
 * said why, also when the buffer lost events or the task switched out
 * twice or in twice in a row.
 */
int dvfs_trace_runs(int cpu, pid_t tid, double start_us, double end_us,
		    double *on, double *off, bool *resumed, int max)
{
	bool seen = false, running = false, preempted = false;
	char path[160], line[512];
	int n = 0;
	FILE *f;

	f = trace_open(cpu, path, sizeof(path));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *tag = strstr(line, ": sched_switch:"), *ts, *prev, *next, *state;
		double us;

		if (!tag)
			continue;
		*tag = 0;
		ts = strrchr(line, ' ');
		prev = strstr(tag + 1, " prev_pid=");
		state = strstr(tag + 1, " prev_state=");
		next = strstr(tag + 1, " next_pid=");
		if (!ts || !prev || !state || !next) {
			fi_err("%s: a sched_switch line without its time, prev_pid=, prev_state= or next_pid=",
			       path);
			goto fail;
		}
		us = strtod(ts + 1, NULL) * 1e6;
		if (us > end_us)
			break;
		if (strtol(prev + 10, NULL, 10) == tid) {
			if (seen && !running) {
				fi_err("%s: task %d switched out at %.0f us, not running", path,
				       tid, us);
				goto fail;
			}
			if (!seen) {
				if (n == max)
					goto full;
				resumed[n] = false;
				on[n++] = start_us;
			}
			off[n - 1] = us;
			/* R, or R+ where the kernel marks a preemption */
			preempted = state[12] == 'R';
			running = false;
			seen = true;
		}
		if (strtol(next + 10, NULL, 10) == tid) {
			if (running) {
				fi_err("%s: task %d switched in at %.0f us, running", path, tid,
				       us);
				goto fail;
			}
			if (n == max)
				goto full;
			resumed[n] = preempted;
			on[n] = us;
			off[n++] = end_us;
			running = true;
			seen = true;
		}
	}
	fclose(f);
	return n;
full:
	fi_err("%s: more than %d runs of task %d", path, max, tid);
fail:
	fclose(f);
	return -1;
}

/* Whether @cpu's HWP is enabled (IA32_PM_ENABLE bit 0; false if unread) */
bool dvfs_hwp_enabled(int cpu)
{
	uint64_t v;

	return !dvfs_msr_read(cpu, MSR_IA32_PM_ENABLE, &v) && (v & 1);
}

/*
 * The request @cpu holds, by its MSR (with @hwp, IA32_HWP_REQUEST's
 * desired ratio; else IA32_PERF_CTL's), in MHz: 0 if it cannot be read
 */
unsigned int dvfs_msr_request(int cpu, bool hwp)
{
	uint64_t v;

	if (dvfs_msr_read(cpu, hwp ? MSR_IA32_HWP_REQUEST : MSR_IA32_PERF_CTL, &v))
		return 0;
	return (hwp ? (v >> 16) & 0xff : (v >> 8) & 0xff) * 100;
}
