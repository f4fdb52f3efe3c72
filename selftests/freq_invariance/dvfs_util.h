/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DVFS platform as the tests see it: the architectural one
 * (APERF/MPERF: QEMU's x-dvfs, or hardware), from CPUID, the MSRs,
 * cpufreq's sysfs and intel_pstate's trace event.
 */
#ifndef DVFS_UTIL_H
#define DVFS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CPUFREQ_DIR	"/sys/devices/system/cpu/cpu%d/cpufreq"

enum { L1C, L2C, L4C, LAC, LEVELS };

#define MSR_IA32_MPERF		0xe7
#define MSR_IA32_APERF		0xe8
#define MSR_PLATFORM_INFO	0xce
#define MSR_IA32_PERF_STATUS	0x198
#define MSR_IA32_PERF_CTL	0x199
#define MSR_IA32_MISC_ENABLE	0x1a0
#define MISC_ENABLE_TURBO_DISABLE	0x4000000000ULL	/* bit 38 */
#define MSR_TURBO_RATIO_LIMIT	0x1ad
#define MSR_TURBO_RATIO_LIMIT1	0x1ae
#define MSR_IA32_PM_ENABLE	0x770
#define MSR_IA32_HWP_CAPABILITIES	0x771
#define MSR_IA32_HWP_REQUEST	0x774
/* CPUID.06H: EAX bits 1 (turbo), 7 (HWP), 10 (HWP's EPP); ECX bit 0 */
#define CPUID6_EAX_IDA		0x2
#define CPUID6_EAX_HWP		0x80
#define CPUID6_EAX_HWP_EPP	0x400
#define CPUID6_ECX_APERFMPERF	0x1

struct platform {
	const char *name;
	unsigned int min, base, turbo[LEVELS];	/* MHz */
};

extern struct platform plat;

/* The MSRs that decide the turbo reference, as CPU 0 reads them */
struct dvfs_msrs {
	unsigned int model;
	uint64_t plat_info, trl, trl1, misc_enable;
};

/* The platform's MSRs (dvfs_begin(), dvfs_arch_platform()) */
extern struct dvfs_msrs dvfs_msrs;

/* The part fi_platform= names (QEMU's platform), in ratios */
struct fi_part {
	bool named, turbo_off;
	unsigned int min, base, turbo[LEVELS];
};

int dvfs_fi_platform(struct fi_part *part);
void dvfs_other_part(const struct fi_part *part, struct fi_part *other);

bool dvfs_cmdline_has(const char *word);
void dvfs_begin(void);
const char *dvfs_arch_platform(void);
int dvfs_turbo_from_part(void);
int dvfs_setup_cpus(int *cpus, int max, bool pin, const char **why);
int dvfs_cpufreq_read(int cpu, const char *name, char *buf, size_t size);
int dvfs_cpufreq_write(int cpu, const char *name, const char *val);
int dvfs_cpufreq_write_khz(int cpu, const char *name, unsigned int khz);
int dvfs_set_req(int cpu, unsigned int mhz);
pid_t dvfs_spawn_idle_spinner(int cpu);
int dvfs_msr_read(int cpu, unsigned int msr, uint64_t *val);

/* This CPU's TSC */
static inline uint64_t dvfs_tsc(void)
{
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

int dvfs_read_am(int cpu, uint64_t *a, uint64_t *m, uint64_t *bracket);
void dvfs_cpuid6(unsigned int *eax, unsigned int *ecx);
int dvfs_cpuid_ident(char *vendor, unsigned int *family, unsigned int *model);
const char *dvfs_intel_aperfmperf(unsigned int *model);
bool dvfs_trl_xeon_groups(unsigned int model);
bool dvfs_trl_groups(unsigned int model);
unsigned int dvfs_trl_limit(unsigned int model, uint64_t trl, uint64_t trl1, unsigned int n);
int dvfs_read_msrs(int cpu, struct dvfs_msrs *m);
unsigned int dvfs_by_cores_reference(const struct dvfs_msrs *m);
unsigned int dvfs_turbo_reference(const struct dvfs_msrs *m);
unsigned int dvfs_max_freq_ratio(const struct dvfs_msrs *m);
/* The most reads dvfs_settled_scale() takes the median of */
#define DVFS_SCALE_READS	15
/* The reads off the bar it allows: two host stalls in the reads' time */
#define DVFS_SCALE_OFF		2
int dvfs_settled_scale(int cpu, unsigned int mhz, double lo, double hi, int reads,
		       uint64_t *scale);
void dvfs_work(unsigned long n);
unsigned long dvfs_calibrate(int cpu, int home, double us);
pid_t dvfs_start_periodic(int cpu, unsigned int period_us, unsigned long n,
			  unsigned int busy_us);
pid_t dvfs_start_fixed_work(const int *cpus, int n, int cpu, unsigned int period_us,
			    double busy_us, unsigned long *iters);

#define DVFS_SAMPLES	512	/* dvfs_observe()'s reads of util_avg, at most */

struct dvfs_seen {
	double util;		/* mean util_avg */
	double ran_us;		/* running time per period */
	double scale;		/* mean freq_scale of the CPU */
	double duty;		/* running time over the window's */
	double window_us;	/* the window */
	long long sleeps;	/* its voluntary switches in the window */
	double t0_us;		/* the window's start (mono) */
	double at_us[DVFS_SAMPLES];	/* when util_avg was read (mono) */
	int n_at;		/* those times, all of the window's reads */
};

int dvfs_observe(int cpu, pid_t tid, unsigned int period_us, double settle_us,
		 double window_us, double sample_us, struct dvfs_seen *seen);

/* A request intel_cpufreq made: when (mono, us), to what, from what (MHz) */
struct dvfs_req {
	double us;
	unsigned int mhz, from;
	/* APERF and MPERF counted since the CPU's previous traced sample */
	uint64_t aperf, mperf;
};

int dvfs_trace_start(void);
int dvfs_trace_start_event(const char *event);
void dvfs_trace_stop(void);
int dvfs_trace_clear(int cpu);
int dvfs_trace_times(int cpu, const char *name, double *us, int max);
int dvfs_trace_requests(int cpu, struct dvfs_req *ev, int max);
int dvfs_trace_runs(int cpu, pid_t tid, double start_us, double end_us,
		    double *on, double *off, bool *resumed, int max);
unsigned int dvfs_msr_request(int cpu, bool hwp);
bool dvfs_hwp_enabled(int cpu);
#endif
