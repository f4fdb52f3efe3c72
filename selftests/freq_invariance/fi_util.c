// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the freq_invariance selftests: time, CPU pinning and
 * reading PELT signals from /proc/PID/sched (CONFIG_SCHED_DEBUG).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "fi_util.h"
#include "pelt_model.h"

uint64_t fi_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ULL + ts.tv_nsec / 1000;
}

void fi_sleep_us(uint64_t us)
{
	struct timespec ts = {
		.tv_sec = us / 1000000,
		.tv_nsec = (us % 1000000) * 1000,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Busy loop for @us of wall time. */
void fi_spin_us(uint64_t us)
{
	uint64_t end = fi_now_us() + us;

	while (fi_now_us() < end)
		; /* each call is a system call: nothing to optimise away */
}

int fi_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int fi_pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Fill @cpus with the CPUs this task may run on; return how many. */
int fi_online_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int cpu, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[n++] = cpu;
	return n;
}

/*
 * Files the tests sample are kept open: one descriptor per process and
 * path, read again with pread() from offset 0, which makes seq_file and
 * kernfs produce the text anew. Opening and closing a file for each
 * sample costs 6.1 an RCU callback per close (file_free() frees the
 * struct file with call_rcu(); 6.7 made files SLAB_TYPESAFE_BY_RCU). A
 * ramp sampling its /proc/PID/sched that way keeps RCU's grace-period
 * kthread waking on the ramp's CPU, where it preempts the task hundreds of
 * times a second and takes a few percent of its CPU: util_avg levels off
 * below 1024 and crosses its targets late. A file that cannot be read at
 * an offset (debugfs's u64 and other simple_attr files are
 * nonseekable_open()) is opened for each read, and so is one whose path
 * does not fit a slot. fi_fork()'s child starts with no files kept (it
 * closes its copies of its parent's).
 */
#define FD_CACHE	64
static struct {
	pid_t owner;		/* the process that opened it */
	int fd;			/* -1: no pread(), opened for each read */
	char path[128];
} fd_cache[FD_CACHE];
static unsigned int fd_next;

/*
 * The descriptor of @path kept open for this process, or -errno (-ESPIPE:
 * the file is opened for each read; -ENAMETOOLONG: the path does not fit).
 */
static int cached_fd(const char *path, bool reopen)
{
	pid_t me = getpid();
	int i, slot = -1, fd;

	for (i = 0; i < FD_CACHE; i++) {
		if (fd_cache[i].owner != me || strcmp(fd_cache[i].path, path))
			continue;
		if (!reopen)
			return fd_cache[i].fd < 0 ? -ESPIPE : fd_cache[i].fd;
		if (fd_cache[i].fd >= 0)
			close(fd_cache[i].fd);
		fd_cache[i].owner = 0;
		slot = i;
		break;
	}
	if (strlen(path) >= sizeof(fd_cache[0].path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (slot < 0) {
		/* A free slot, one a parent left (a copy: close it), or the next */
		for (i = 0; i < FD_CACHE && slot < 0; i++)
			if (fd_cache[i].owner != me)
				slot = i;
		if (slot < 0)
			slot = fd_next++ % FD_CACHE;
		if (fd_cache[slot].owner && fd_cache[slot].fd >= 0)
			close(fd_cache[slot].fd);
	}
	fd_cache[slot].owner = me;
	fd_cache[slot].fd = fd;
	snprintf(fd_cache[slot].path, sizeof(fd_cache[slot].path), "%s", path);
	return fd;
}

/* @path, kept open as @fd, cannot be read at an offset: open it for each read */
static void set_no_pread(int fd)
{
	int i;

	for (i = 0; i < FD_CACHE; i++) {
		if (fd_cache[i].owner == getpid() && fd_cache[i].fd == fd) {
			close(fd);
			fd_cache[i].fd = -1;
		}
	}
}

/* This process's copies of the files its parent kept: closed, forgotten */
static void forget_files(void)
{
	int i;

	for (i = 0; i < FD_CACHE; i++) {
		if (fd_cache[i].owner && fd_cache[i].fd >= 0)
			close(fd_cache[i].fd);
		fd_cache[i].owner = 0;
	}
}

/*
 * pread() all of @fd from 0 into a buffer grown as needed, until a read
 * returns nothing (seq_file returns a page's worth of whole records at a
 * time: a short read is not the end): its length, or -errno.
 */
static ssize_t read_all(int fd, char **buf, size_t *size)
{
	size_t len = 0;
	ssize_t n;

	for (;;) {
		if (len + 1 >= *size) {
			size_t want = *size ? 2 * *size : 16384;
			char *p = realloc(*buf, want);

			if (!p)
				return -ENOMEM;
			*buf = p;
			*size = want;
		}
		n = pread(fd, *buf + len, *size - len - 1, len);
		if (n < 0)
			return -errno;
		if (!n)
			break;
		len += n;
	}
	(*buf)[len] = 0;
	return len;
}

/*
 * The text of @path, read through its kept descriptor, as a stream to
 * read and fclose() (an in-memory one: fmemopen()). A read that fails
 * (the task has exited and its pid was taken again, the file was removed
 * and made again) opens the file once more. NULL with errno set, the
 * kernel's (fgets() on a stdio stream gave a read error as -EIO). For a
 * file that cannot be read at an offset, or whose path does not fit,
 * fopen().
 */
FILE *fi_fopen_read(const char *path)
{
	static char *buf;
	static size_t size;
	ssize_t len = -ENOENT;
	int tries, fd;
	FILE *f;

	for (tries = 0; tries < 2; tries++) {
		fd = cached_fd(path, tries > 0);
		if (fd == -ESPIPE || fd == -ENAMETOOLONG)
			return fopen(path, "r");
		if (fd < 0) {
			len = fd;
			break;
		}
		len = read_all(fd, &buf, &size);
		if (len == -ESPIPE) {
			set_no_pread(fd);
			return fopen(path, "r");
		}
		if (len >= 0)
			break;
	}
	if (len < 0) {
		errno = -len;
		return NULL;
	}
	f = fmemopen(NULL, len + 1, "w+");
	if (!f)
		return NULL;
	if (fwrite(buf, 1, len, f) != (size_t)len) {
		fclose(f);
		errno = EIO;
		return NULL;
	}
	rewind(f);
	return f;
}

/*
 * The same descriptor, for pread() at an offset of its own (e.g. an MSR),
 * valid until the next call here or to fi_fopen_read() (which may close
 * it to make room): use it at once.
 */
int fi_cached_fd(const char *path, bool reopen)
{
	return cached_fd(path, reopen);
}

/* The value text of a "name : value" line of /proc/PID/sched, if @line is @field's. */
static const char *sched_line_value(const char *line, const char *field)
{
	size_t len = strlen(field);

	if (strncmp(line, field, len) || (line[len] != ' ' && line[len] != ':'))
		return NULL;
	line = strchr(line + len, ':');
	return line ? line + 1 : NULL;
}

/* A "ms.nnnnnn" time of /proc/PID/sched, e.g. se.sum_exec_runtime, in ns. */
static int parse_sched_ns(const char *val, long long *ns)
{
	long long ms, frac;

	if (sscanf(val, "%lld.%6lld", &ms, &frac) != 2)
		return -EINVAL;
	*ns = ms * 1000000 + frac;
	return 0;
}

/*
 * Find the "name : value" line of /proc/PID/sched (pid 0: self) for
 * @field, e.g. "se.avg.util_avg", and copy its value text to @val.
 * Returns 0, or -errno.
 */
static int fi_sched_value(pid_t pid, const char *field, char *val, size_t size)
{
	char path[64], line[256];
	const char *v = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid ? pid : getpid());
	f = fi_fopen_read(path);
	if (!f)
		return -errno;
	while (!v && fgets(line, sizeof(line), f))
		v = sched_line_value(line, field);
	if (v)
		snprintf(val, size, "%s", v);
	fclose(f);
	return v ? 0 : -ENOENT;
}

/* A decimal integer at the start of @s (what follows it is ignored). */
static int parse_ll(const char *s, long long *val)
{
	char *end;

	errno = 0;
	*val = strtoll(s, &end, 10);
	return errno || end == s ? -EINVAL : 0;
}

/* An integer field of /proc/PID/sched. */
int fi_read_sched_field(pid_t pid, const char *field, long long *val)
{
	char buf[64];
	int ret = fi_sched_value(pid, field, buf, sizeof(buf));

	return ret ? ret : parse_ll(buf, val);
}

int fi_read_task_util_est(pid_t pid, long long *val)
{
	long long ewma, enq;
	int ret = fi_read_sched_field(pid, "se.avg.util_est", val);

	if (ret != -ENOENT)
		return ret;
	ret = fi_read_sched_field(pid, "se.avg.util_est.ewma", &ewma);
	if (!ret)
		ret = fi_read_sched_field(pid, "se.avg.util_est.enqueued", &enq);
	if (!ret)
		*val = ewma > enq ? ewma : enq;
	return ret;
}

bool fi_kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma, mi;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

/* A time field of /proc/PID/sched in ns. */
int fi_read_sched_ns(pid_t pid, const char *field, long long *ns)
{
	char buf[64];
	int ret = fi_sched_value(pid, field, buf, sizeof(buf));

	return ret ? ret : parse_sched_ns(buf, ns);
}

static int read_pelt_once(pid_t pid, struct fi_pelt *r)
{
	static const struct {
		const char *name;
		bool ns;	/* a "ms.nnnnnn" time, else an integer */
		size_t off;
	} fields[] = {
		{ "se.avg.util_avg", false, offsetof(struct fi_pelt, util) },
		{ "se.sum_exec_runtime", true, offsetof(struct fi_pelt, ran) },
		{ "se.exec_start", true, offsetof(struct fi_pelt, at) },
		{ "se.avg.last_update_time", false, offsetof(struct fi_pelt, lut) },
	};
	const int all = (1 << ARRAY_SIZE(fields)) - 1;
	char line[256], path[64];
	int i, found = 0;
	long long *val;
	const char *v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid ? pid : getpid());
	f = fi_fopen_read(path);
	if (!f)
		return -errno;
	while (found != all && fgets(line, sizeof(line), f)) {
		for (i = 0; i < ARRAY_SIZE(fields); i++) {
			v = sched_line_value(line, fields[i].name);
			if (!v)
				continue;
			val = (long long *)((char *)r + fields[i].off);
			if (!(fields[i].ns ? parse_sched_ns(v, val) : parse_ll(v, val)))
				found |= 1 << i;
			break;
		}
	}
	fclose(f);
	return found == all ? 0 : -ENOENT;
}

/*
 * se.avg.util_avg and se.sum_exec_runtime (ns) of the calling task: a
 * point of its util_avg curve against its running time. The running time
 * moves at every update_curr() (ticks, wakeups on its CPU, sleeps),
 * util_avg when an update crosses a PELT period boundary, so util_avg may
 * lag the running time by up to a period and a tick (more when a stalled
 * vCPU delays the tick). One read of the file
 * is not enough either: the kernel prints the running time well before
 * util_avg, and a tick between the two gives a newer util_avg with the
 * older time (5% of the samples of a ramp under TCG, each ahead of the
 * curve by a tick). So read until two reads in a row agree: a tick
 * during either would have made them differ, as the running time of a
 * running task moves at every tick.
 */
int fi_read_util_ran(long long *util, long long *ran_ns)
{
	struct fi_pelt r;
	int ret = fi_read_pelt(0, &r);

	if (!ret) {
		*util = r.util;
		*ran_ns = r.ran;
	}
	return ret;
}

/*
 * The same for task @pid (0: the caller), with se.exec_start (the rq's
 * clock_task at the last update_curr()) and se.avg.last_update_time (its
 * PELT clock at the last update of the task's PELT sums): see struct
 * fi_pelt.
 */
int fi_read_pelt(pid_t pid, struct fi_pelt *r)
{
	struct fi_pelt prev;
	int tries, ret;

	ret = read_pelt_once(pid, &prev);
	for (tries = 0; !ret && tries < 100; tries++) {
		ret = read_pelt_once(pid, r);
		if (!ret && !memcmp(r, &prev, sizeof(*r)))
			return 0;
		prev = *r;
	}
	return ret ? ret : -EAGAIN;
}

/*
 * 11 half-lives of PELT (32 periods of 1.048576 ms each), 369 ms: a
 * util_avg of 1024 decays to 0.5, which util_avg rounds down to 0; what
 * is left of it moves a crossing earlier by 0.05 ms at most (at scale
 * 512). A new task starts at 512 at most.
 */
#define RAMP_DECAY_US	(11 * PELT_HALFLIFE * PELT_PERIOD_US)
#define RAMP_TRIES	20

/*
 * Start a ramp of the calling task from util_avg 0 (or at most @max), and
 * return in @ran0 its running time at the wakeup, where the ramp starts,
 * and in @util0 its util_avg then. The task sleeps until what it
 * inherited has decayed (RAMP_DECAY_US), then reads its sched file
 * at once: until PELT next updates it, the file still shows
 * sum_exec_runtime as the sleep left it, and util_avg 0. If a tick came
 * first (util_avg > 0: the read would miss up to a tick of running), it
 * sleeps and tries again, unless util_avg is at most @max: then the pair
 * read, both as that tick left them, is where the ramp starts (under TCG
 * the read after a wakeup often comes a few ticks late). A read before
 * each sleep leaves the read's code translated. Reading the running time
 * before the sleep instead would count what the task ran after that read
 * and before it slept: milliseconds under TCG.
 */
int fi_ramp_start(long long max, long long *ran0, long long *util0)
{
	int tries;

	for (tries = 0; tries < RAMP_TRIES; tries++) {
		if (fi_read_util_ran(util0, ran0))
			return -1;
		fi_sleep_us(RAMP_DECAY_US);
		if (fi_read_util_ran(util0, ran0))
			return -1;
		if (*util0 <= max)
			return 0;
	}
	return -1;
}

/*
 * When a ramp sampled as (running time, util_avg) points crossed
 * @target: linearly between the last point below it (@t0, @u0) and the
 * first at or above it (@t1, @u1), a tick or so apart. Taking the first
 * point at or above would add up to a tick to every crossing.
 */
double fi_cross(double t0, double u0, double t1, double u1, double target)
{
	if (u1 <= u0 || target <= u0)
		return t1;
	return t0 + (t1 - t0) * (target - u0) / (u1 - u0);
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

/* What a ramp's child exits with, and what it means. */
enum { RAMP_OK, RAMP_PIN, RAMP_START, RAMP_READ, RAMP_FULL, RAMP_PIPE };
static const char * const ramp_why[] = {
	[RAMP_PIN]	= "the child could not pin itself to the CPU",
	[RAMP_START]	= "the child's util_avg stayed above start_max after every decay sleep",
	[RAMP_READ]	= "the child could not read /proc/self/sched",
	[RAMP_FULL]	= "more than FI_RAMP_MAX samples",
	[RAMP_PIPE]	= "the child could not write its samples",
};

/*
 * One ramp of util_avg from 0 (or at most @r->start_max) on @cpu: a child
 * pinned there starts from there (fi_ramp_start()) and spins until it has
 * run @limit_ms, sampling its own (running time since the wakeup,
 * util_avg) at each change of util_avg; the first sample is the wakeup,
 * (0, util_avg then); @r->wall_ms is the time from then to the last. The
 * child dies with the caller. Returns 0, or -1 with the reason in @why.
 */
int fi_ramp(int cpu, double limit_ms, struct fi_ramp *r, const char **why)
{
	long long u, last, ran0, ran = 0;
	int fds[2], status, code;
	uint64_t t0;
	pid_t pid;

	/*
	 * What the caller printed is read by the runner's processes, which
	 * may run on @cpu while the child sleeps there (fi_drain_output()):
	 * the decay would be slower, and the sleep longer.
	 */
	fi_drain_output();
	*why = "pipe() or fork() failed";
	if (pipe(fds))
		return -1;
	pid = fi_fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		close(fds[0]);
		if (fi_pin_self(cpu))
			_exit(RAMP_PIN);
		if (fi_ramp_start(r->start_max, &ran0, &last))
			_exit(RAMP_START);
		t0 = fi_now_us();
		r->n = 0;
		r->ran_ms[r->n] = 0;
		r->util[r->n++] = last;
		do {
			if (fi_read_util_ran(&u, &ran))
				_exit(RAMP_READ);
			if (u == last)
				continue;
			if (r->n == FI_RAMP_MAX)
				_exit(RAMP_FULL);
			r->ran_ms[r->n] = (ran - ran0) / 1e6;
			r->util[r->n++] = u;
			last = u;
		} while ((ran - ran0) / 1e6 < limit_ms);
		r->wall_ms = (fi_now_us() - t0) / 1e3;
		if (write(fds[1], &r->wall_ms, sizeof(r->wall_ms)) != sizeof(r->wall_ms) ||
		    write(fds[1], &r->n, sizeof(r->n)) != sizeof(r->n) ||
		    write(fds[1], r->ran_ms, r->n * sizeof(double)) != r->n * sizeof(double) ||
		    write(fds[1], r->util, r->n * sizeof(double)) != r->n * sizeof(double))
			_exit(RAMP_PIPE);
		_exit(RAMP_OK);
	}
	/* Only the child writes: a child that fails gives the reads an EOF */
	close(fds[1]);
	if (read_full(fds[0], &r->wall_ms, sizeof(r->wall_ms)) ||
	    read_full(fds[0], &r->n, sizeof(r->n)) || r->n < 1 || r->n > FI_RAMP_MAX ||
	    read_full(fds[0], r->ran_ms, r->n * sizeof(double)) ||
	    read_full(fds[0], r->util, r->n * sizeof(double)))
		r->n = -1;
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid) {
		*why = "waitpid() failed";
		return -1;
	}
	if (WIFSIGNALED(status)) {
		*why = "the child was killed by a signal";
		return -1;
	}
	code = WEXITSTATUS(status);
	if (code != RAMP_OK || r->n < 0) {
		*why = code > RAMP_OK && code <= RAMP_PIPE ? ramp_why[code] :
		       "the child's report was short";
		return -1;
	}
	return 0;
}

/* When the ramp crossed @target (fi_cross()), or -1 if it did not. */
double fi_ramp_cross(const struct fi_ramp *r, double target)
{
	int j;

	for (j = 1; j < r->n && r->util[j] < target; j++)
		;
	if (j >= r->n)
		return -1;
	return fi_cross(r->ran_ms[j - 1], r->util[j - 1], r->ran_ms[j], r->util[j], target);
}

bool fi_have_sched_debug(void)
{
	long long v;

	return fi_read_sched_field(0, "se.avg.util_avg", &v) == 0;
}

/* The first line of @f (closed), without its newline: 0 or -errno */
static int first_line(FILE *f, char *buf, size_t size)
{
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, size, f))
		ret = ferror(f) ? -EIO : -ENODATA;
	else
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
	return ret;
}

/* Read the first line of @path, without its newline. Returns 0 or -errno. */
int fi_read_line(const char *path, char *buf, size_t size)
{
	return first_line(fi_fopen_read(path), buf, size);
}

/* Read one unsigned number from @path. -EINVAL if it holds anything else. */
int fi_read_u64(const char *path, uint64_t *val)
{
	char buf[64], *end;
	int ret;

	ret = fi_read_line(path, buf, sizeof(buf));
	if (ret)
		return ret;
	errno = 0;
	*val = strtoull(buf, &end, 10);
	if (errno || end == buf || *end || buf[0] == '-')
		return -EINVAL;
	return 0;
}

int fi_write_str(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -errno;
	if (fputs(val, f) < 0)
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

/* CPUs (below 64) whose override this program set and did not clear. */
static uint64_t overridden;

static void clear_overrides(void)
{
	int cpu;

	for (cpu = 0; cpu < 64; cpu++)
		if (overridden & (1ULL << cpu))
			fi_override(cpu, 0);
}

/*
 * Set @cpu's freq_scale_override (CONFIG_X86_FREQ_SCALE_OVERRIDE); 0 clears
 * it. What is left set is cleared at exit, also on SIGTERM or SIGINT
 * (fi_teardown_on_signals()).
 */
int fi_override(int cpu, unsigned int scale)
{
	static bool registered;
	char path[128], val[16];

	if (!registered) {
		atexit(clear_overrides);
		registered = true;
	}
	if (cpu >= 0 && cpu < 64) {
		if (scale)
			overridden |= 1ULL << cpu;
		else
			overridden &= ~(1ULL << cpu);
	}

	snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/freq_scale_override", cpu);
	snprintf(val, sizeof(val), "%u", scale);
	return fi_write_str(path, val);
}

/*
 * A child pinned to @cpu, busy at the start of every @period_us of wall
 * time (absolute: a late period is followed at once by the next): with
 * @work, calling it with @n; else spinning @busy_us by the clock. Its pid,
 * or -1.
 */
pid_t fi_spawn_periodic(int cpu, double period_us, void (*work)(unsigned long),
			unsigned long n, double busy_us)
{
	struct timespec next;
	pid_t pid = fi_fork();

	if (pid)
		return pid;
	if (fi_pin_self(cpu))
		_exit(1);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		if (work)
			work(n);
		else
			fi_spin_us(busy_us);
		next.tv_nsec += period_us * 1000;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
}

/* A child pinned to @cpu, busy @busy_us of every @period_us of wall time. */
pid_t fi_spawn_duty(int cpu, double period_us, double busy_us)
{
	return fi_spawn_periodic(cpu, period_us, NULL, 0, busy_us);
}

/*
 * Run a duty cycle on @cpu, let it settle for @settle_us, then sample the
 * task's util_avg every millisecond for @measure_us. Also report the time
 * it really ran per period (se.sum_exec_runtime: wakeups and timers add
 * to @busy_us), the largest clock_task - clock_pelt seen in the "cpus"
 * table and how much lost_idle_time grew. Returns 0 or -1.
 */
int fi_measure_duty(int cpu, double period_us, double busy_us, double settle_us,
		    double measure_us, struct fi_duty *d)
{
	char path[128];
	long long ran0, ran1, u, lag;
	uint64_t t0, t1, lost0 = 0, lost1 = 0;
	double sum = 0;
	long n = 0;
	pid_t pid;

	memset(d, 0, sizeof(*d));
	snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/lost_idle_time", cpu);
	pid = fi_spawn_duty(cpu, period_us, busy_us);
	if (pid < 0)
		return -1;
	fi_sleep_us(settle_us);
	fi_read_u64(path, &lost0);
	t0 = fi_now_us();
	if (fi_read_sched_ns(pid, "se.sum_exec_runtime", &ran0))
		goto fail;
	while (fi_now_us() < t0 + measure_us) {
		if (fi_read_sched_field(pid, "se.avg.util_avg", &u))
			goto fail;
		sum += u;
		if (!(n++ % 16) && !fi_read_lag(cpu, &lag) && lag > d->max_lag_ns)
			d->max_lag_ns = lag;
		fi_sleep_us(1000);
	}
	if (fi_read_sched_ns(pid, "se.sum_exec_runtime", &ran1))
		goto fail;
	t1 = fi_now_us();
	fi_reap(pid);
	fi_read_u64(path, &lost1);
	d->util = sum / n;
	d->ran_us = (ran1 - ran0) / 1000.0 / (t1 - t0) * period_us;
	d->lost_ns = lost1 - lost0;
	return 0;
fail:
	fi_reap(pid);
	return -1;
}

/*
 * One snapshot of @cpu from the "cpus" table: its cpu_scale, clock_task,
 * and clock_task - clock_pelt (all from the same clock update). Nothing
 * is written unless @cpu's line is found.
 */
int fi_read_clocks(int cpu, unsigned long long *cpu_scale,
		   unsigned long long *task, long long *lag)
{
	char line[512];
	int ret = -ENOENT;
	FILE *f;

	f = fi_fopen_read(FI_DEBUGFS "/cpus");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long fs, cs, co, c, t, pelt;
		long long l;
		int n;

		if (sscanf(line, "%d %llu %llu %llu %llu %llu %llu %lld",
			   &n, &fs, &cs, &co, &c, &t, &pelt, &l) == 8 && n == cpu) {
			*cpu_scale = cs;
			*task = t;
			*lag = l;
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* One snapshot of @cpu from the "cpus" table: clock_task - clock_pelt. */
int fi_read_lag(int cpu, long long *lag)
{
	unsigned long long cs, task;

	return fi_read_clocks(cpu, &cs, &task, lag);
}

/* fork(), the child killed with its parent (the runner's timeout kills it). */
pid_t fi_fork(void)
{
	pid_t parent = getpid(), pid = fork();

	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)	/* died before prctl() */
			_exit(1);
		forget_files();
	}
	return pid;
}

static void on_signal(int sig)
{
	/* exit() runs the atexit() teardown: CPUs back online, overrides cleared */
	exit(128 + sig);
}

/* SIGTERM (the runner's timeout), SIGINT, SIGHUP: tear down, then exit. */
void fi_teardown_on_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/*
 * A child spinning on @cpu, returned once it runs there: it is forked on
 * the caller's CPU, and its se.exec_start is 0 from fork until it first
 * runs there, then that CPU's clock_task, then 0 again from the enqueue
 * that migrates it until it runs on @cpu: a sample would take either for
 * @cpu's clock_task.
 */
pid_t fi_spawn_spinner(int cpu)
{
	int fd[2];
	char c = 0;
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fi_fork();
	if (!pid) {
		close(fd[0]);
		/* Back from sched_setaffinity(), it runs on @cpu. */
		if (fi_pin_self(cpu) || write(fd[1], &c, 1) != 1)
			_exit(1);
		close(fd[1]);
		for (;;)
			fi_spin_us(1000000);
	}
	close(fd[1]);
	if (pid > 0 && read(fd[0], &c, 1) != 1) {
		fi_reap(pid);
		errno = ECHILD;
		pid = -1;
	}
	close(fd[0]);
	return pid;
}

void fi_reap(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * Task @pid's state letter in /proc/PID/stat (R, S, D, ...), read through
 * its kept descriptor; 0 if it cannot be read
 */
char fi_task_state(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fi_fopen_read(path);
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;	/* comm may hold anything */
	return p && p[1] == ' ' ? p[2] : 0;
}

/*
 * The PID of a task whose comm is @comm and, unless @ppid is 0, whose
 * parent is @ppid; 0 if none
 */
pid_t fi_find_child(const char *comm, pid_t ppid)
{
	char path[64], buf[512], *p;
	struct dirent *d;
	pid_t pid = 0;
	int parent;
	DIR *dir;

	dir = opendir("/proc");
	if (!dir)
		return -errno;
	while (!pid && (d = readdir(dir))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		/* Once each, not sampled: not worth a kept descriptor */
		snprintf(path, sizeof(path), "/proc/%d/stat", atoi(d->d_name));
		if (first_line(fopen(path, "r"), buf, sizeof(buf)))
			continue;
		/* "PID (COMM) STATE PPID ...": COMM may hold spaces and ")" */
		p = strrchr(buf, ')');
		if (!p || p - buf < 2 || sscanf(p + 1, " %*c %d", &parent) != 1)
			continue;
		*p = 0;
		p = strchr(buf, '(');
		if (p && !strcmp(p + 1, comm) && (!ppid || parent == ppid))
			pid = atoi(d->d_name);
	}
	closedir(dir);
	return pid;
}

/*
 * Wait until what this process wrote to stdout has been read, where
 * stdout is a pipe: the kselftest runner's prefix.pl reads it one byte
 * per read() and writes each byte on to tee, which writes it to the
 * results file and the console. Under TCG the lines a test prints just
 * before a measurement keep perl (and tee) busy for tenths of a second,
 * on the CPU being measured when the test's own CPU is busy, and take
 * that time from the measurement. Then 20 ms more for the last bytes to
 * pass tee (about 70 us a byte for perl under TCG: tee is at most a few
 * hundred bytes behind); about 2 s at most.
 */
void fi_drain_output(void)
{
	uint64_t end = fi_now_us() + 2000000;
	struct stat st;
	int n;

	fflush(stdout);
	fflush(stderr);
	if (fstat(STDOUT_FILENO, &st) || !S_ISFIFO(st.st_mode))
		return;
	while (!ioctl(STDOUT_FILENO, FIONREAD, &n) && n > 0 && fi_now_us() < end)
		fi_sleep_us(5000);
	fi_sleep_us(20000);
}

/*
 * A spinner on @cpu from util_avg 0 (a new task) until its util_avg is 95%
 * of 1024 or 2 s have passed, and on until @run_us in all; then it blocks
 * and the CPU idles. Idle time is only lost once the rq's util_sum
 * reaches (LOAD_AVG_MAX - 1024) * 1024 - LOAD_AVG_MAX, 97.8% of its
 * bound: 177 PELT periods from 0, 363 ms at scale 512. Reports its last
 * util_avg, its running time, @cpu's rq util_avg just before the word to
 * stop (FI_RQ_SATURABLE_UTIL) and the growth of @cpu's lost_idle_time
 * 100 ms after. 0, or -1.
 */
int fi_saturate(int cpu, double run_us, struct fi_saturation *r)
{
	long long ran_ns = 0;
	uint64_t lost0, lost1 = 0, t0;
	struct pollfd pfd;
	char path[128], c = 0;
	int fds[2], err;
	pid_t pid;

	snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/lost_idle_time", cpu);
	r->util = 0;
	r->rq_util = 0;
	fi_drain_output();
	if (fi_read_u64(path, &lost0) || pipe(fds))
		return -1;
	/*
	 * The spinner stops by blocking, not by dying: a dead task's util is
	 * removed from the rq, maybe (newidle balance) before the rq idles,
	 * and the rq would then not count as always running.
	 */
	t0 = fi_now_us();
	pid = fi_fork();
	if (!pid) {
		pfd.fd = fds[0];
		pfd.events = POLLIN;
		if (fi_pin_self(cpu))
			_exit(1);
		while (!poll(&pfd, 1, 0))
			fi_spin_us(1000);
		/* told to stop: block on the empty pipe until killed */
		if (read(fds[0], &c, 1) == 1)
			while (read(fds[0], &c, 1) >= 0)
				;
		_exit(0);
	}
	while (pid > 0 && fi_now_us() < t0 + 2000000 && r->util < 0.95 * 1024) {
		fi_sleep_us(10000);
		fi_read_sched_field(pid, "se.avg.util_avg", &r->util);
	}
	if (fi_now_us() < t0 + run_us)
		fi_sleep_us(t0 + run_us - fi_now_us());
	r->wall_ns = (fi_now_us() - t0) * 1000;
	snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/util_avg", cpu);
	err = fi_read_u64(path, &r->rq_util);
	if (pid > 0 && write(fds[1], &c, 1) != 1)
		fi_err("cannot tell the spinner to stop: %m");
	fi_sleep_us(100000);
	fi_read_sched_ns(pid, "se.sum_exec_runtime", &ran_ns);
	snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/lost_idle_time", cpu);
	err = fi_read_u64(path, &lost1) || err;
	fi_reap(pid);
	close(fds[0]);
	close(fds[1]);
	r->ran_ns = ran_ns;
	r->lost_ns = lost1 - lost0;
	return pid > 0 && ran_ns > 0 && !err ? 0 : -1;
}
