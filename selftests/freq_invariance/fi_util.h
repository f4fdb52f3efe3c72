/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FI_UTIL_H
#define FI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Report a failed check with file:line and what was expected. */
#define fi_err(fmt, ...) \
	fi_info("%s:%d: " fmt "\n", __FILE__, __LINE__, ##__VA_ARGS__)
/* A diagnostic line of the TAP output (kselftest.h's "# " prefix). */
#define fi_info(fmt, ...) \
	printf("# " fmt, ##__VA_ARGS__)

uint64_t fi_now_us(void);
void fi_sleep_us(uint64_t us);
void fi_spin_us(uint64_t us);

/* qsort()'s comparison of doubles, ascending */
int fi_cmp_double(const void *a, const void *b);
int fi_pin_self(int cpu);
int fi_online_cpus(int *cpus, int max);

int fi_read_sched_field(pid_t pid, const char *field, long long *val);
/*
 * The util_est a task adds to its runqueue's while enqueued: max(ewma,
 * enqueued) up to 6.7, the one value se.avg.util_est since 6.8
 */
int fi_read_task_util_est(pid_t pid, long long *val);
/* Whether the running kernel is @major.@minor or later (uname's release) */
bool fi_kernel_at_least(int major, int minor);
int fi_read_sched_ns(pid_t pid, const char *field, long long *ns);
int fi_read_util_ran(long long *util, long long *ran_ns);

/*
 * A task's PELT state as /proc/PID/sched shows it (times in ns). While
 * the task is on its CPU, at and ran advance together, so that between
 * two reads the growth of at less that of ran is the time it spent off
 * it; lut advances at each update of the PELT sums (ticks, enqueue,
 * dequeue, put_prev, pick), not at an update_curr() alone (e.g. a wakeup
 * on the CPU), so at scale 1024 ran - (at - lut) is, up to a constant and
 * within 1024 ns, the running time the sums have seen.
 */
struct fi_pelt {
	long long util;		/* se.avg.util_avg */
	long long ran;		/* se.sum_exec_runtime */
	long long at;		/* se.exec_start */
	long long lut;		/* se.avg.last_update_time */
};

int fi_read_pelt(pid_t pid, struct fi_pelt *r);
int fi_ramp_start(long long max, long long *ran0, long long *util0);
double fi_cross(double t0, double u0, double t1, double u1, double target);

#define FI_RAMP_MAX	4096
struct fi_ramp {
	long long start_max;		/* in: the highest util_avg to start from */
	int n;				/* samples */
	double wall_ms;			/* the time from the first to the last */
	double ran_ms[FI_RAMP_MAX];	/* running time since the wakeup */
	double util[FI_RAMP_MAX];	/* util_avg then */
};

int fi_ramp(int cpu, double limit_ms, struct fi_ramp *r, const char **why);
double fi_ramp_cross(const struct fi_ramp *r, double target);
bool fi_have_sched_debug(void);

int fi_read_u64(const char *path, uint64_t *val);
int fi_read_line(const char *path, char *buf, size_t size);
FILE *fi_fopen_read(const char *path);
int fi_cached_fd(const char *path, bool reopen);
int fi_write_str(const char *path, const char *val);

#define FI_DEBUGFS	"/sys/kernel/debug/sched/freq_invariance"

int fi_read_clocks(int cpu, unsigned long long *cpu_scale,
		   unsigned long long *task, long long *lag);
int fi_read_lag(int cpu, long long *lag);
int fi_override(int cpu, unsigned int scale);
pid_t fi_spawn_periodic(int cpu, double period_us, void (*work)(unsigned long),
			unsigned long n, double busy_us);
pid_t fi_spawn_duty(int cpu, double period_us, double busy_us);

struct fi_duty {
	double util;		/* mean util_avg of the task, sampled every ms */
	double ran_us;		/* what it really ran per period */
	long long max_lag_ns;	/* largest clock_task - clock_pelt seen */
	uint64_t lost_ns;	/* growth of lost_idle_time */
};

int fi_measure_duty(int cpu, double period_us, double busy_us, double settle_us,
		    double measure_us, struct fi_duty *d);

struct fi_saturation {
	long long util;		/* the spinner's util_avg before it stopped */
	long long ran_ns;	/* its running time */
	long long wall_ns;	/* from its fork to the word to stop */
	uint64_t lost_ns;	/* the growth of its CPU's lost_idle_time */
	uint64_t rq_util;	/* its CPU's cfs util_avg before the stop */
};

/*
 * The rq's cfs util_avg below which the kernel cannot count its CPU
 * saturated by its bar for losing idle time, update_idle_rq_clock_pelt():
 * util_sum (cfs + rt + dl) >= (LOAD_AVG_MAX - 1024) * 1024 - LOAD_AVG_MAX
 * = 47791490, where util_avg = util_sum / (LOAD_AVG_MAX - 1024 +
 * period_contrib), period_contrib 0..1023: from 1001 up util_avg may be
 * over the bar (from 1023 up it is, whatever period_contrib).
 */
#define FI_RQ_SATURABLE_UTIL	1001

int fi_saturate(int cpu, double run_us, struct fi_saturation *r);
void fi_drain_output(void);

pid_t fi_fork(void);
void fi_teardown_on_signals(void);
pid_t fi_spawn_spinner(int cpu);
pid_t fi_find_child(const char *comm, pid_t ppid);
char fi_task_state(pid_t pid);
void fi_reap(pid_t pid);

#endif
