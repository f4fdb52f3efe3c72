// SPDX-License-Identifier: GPL-2.0
/*
 * intel_pstate's HWP dynamic boost, where it runs: active mode with HWP.
 *
 *   - hwp_dynamic_boost (sysfs) rejects malformed input, value unchanged;
 *   - with the knob on, I/O waits on a pinned CPU move its boost counters
 *     in /sys/kernel/debug/intel_pstate/hwp_boost;
 *   - with the knob off, the same I/O leaves them where they were, and
 *     the CPU is not boosted (boost_min 0).
 *
 * The knob is restored on exit. Anywhere else (no
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

#define PSTATE		"/sys/devices/system/cpu/intel_pstate"
#define KNOB		PSTATE "/hwp_dynamic_boost"
#define CPUFREQ		"/sys/devices/system/cpu/cpu%d/cpufreq"
#define DEBUGFS		"/sys/kernel/debug/intel_pstate"
#define TABLE		DEBUGFS "/hwp_boost"
#define IO_FILE_SIZE	(16 << 20)
#define IO_BLOCK	4096
#define IO_RUN_US	2000000

struct boost_row {
	uint64_t boost_min, up[3], down, last;
};

static int test_cpu;
static char io_dir[256] = "/var/tmp";
static char io_path[300];
static char knob_orig[16];

static uint64_t ups(const struct boost_row *r)
{
	return r->up[0] + r->up[1] + r->up[2];
}

/* The row of @cpu in the hwp_boost table. */
static int read_row(int cpu, struct boost_row *r)
{
	char line[256];
	FILE *f = fopen(TABLE, "r");
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

/* Run the I/O for IO_RUN_US and return the row before and after. */
static int run_io(struct boost_row *before, struct boost_row *after)
{
	pid_t pid;
	int status;

	if (read_row(test_cpu, before)) {
		fi_err("no row for CPU %d in %s", test_cpu, TABLE);
		return -1;
	}
	pid = spawn_io(test_cpu);
	if (pid < 0)
		return -1;
	fi_sleep_us(IO_RUN_US);
	if (waitpid(pid, &status, WNOHANG) == pid) {
		fi_err("the I/O worker on CPU %d stopped (exit %d)", test_cpu,
		       WEXITSTATUS(status));
		return -1;
	}
	fi_reap(pid);
	/*
	 * A boost is dropped at the CPU's first update without I/O wait
	 * after the hold time (1 s at most): wait that long, then make the
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

static int test_boost_still_when_off(void)
{
	struct boost_row a, b;

	if (fi_write_str(KNOB, "0") || run_io(&a, &b))
		return KSFT_FAIL;
	if (ups(&b) != ups(&a) || b.down != a.down || b.boost_min) {
		fi_err("hwp_dynamic_boost=0: the counters of CPU %d moved", test_cpu);
		return KSFT_FAIL;
	}
	return KSFT_PASS;
}

static void restore(void)
{
	if (knob_orig[0])
		fi_write_str(KNOB, knob_orig);
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
	{ "boost_counters_move_with_knob_on", test_boost_moves_when_on },
	{ "boost_counters_still_with_knob_off", test_boost_still_when_off },
};

int main(void)
{
	const char *why, *dir = getenv("HWP_BOOST_DIR");
	int cpus[64], n;

	ksft_print_header();

	n = fi_online_cpus(cpus, ARRAY_SIZE(cpus));
	test_cpu = n > 1 ? cpus[n - 1] : 0;
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
	fi_info("CPU %d, hwp_dynamic_boost was %s, I/O in %s\n",
		test_cpu, knob_orig, io_dir);

	fi_run_tests(tests, ARRAY_SIZE(tests));
	return 0;
}
