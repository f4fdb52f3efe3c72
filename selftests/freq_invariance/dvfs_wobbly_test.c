// SPDX-License-Identifier: GPL-2.0
/*
 * The "went wobbly" disable of x86 frequency invariance, on a platform
 * with APERF/MPERF (QEMU's x-dvfs, or hardware): when a tick finds an
 * APERF delta too large to scale (scale_freq_tick(): "APERF delta
 * overflow"), the unmodified code turns invariance off for good. A write
 * to APERF (through /dev/cpu/N/msr, as on hardware: the counters are
 * writable) makes the next tick's delta 2^62; then status says why
 * invariance is off, every CPU's freq_scale is 1024 even while busy below
 * the base, and the debug knob refuses (a new freq_scale_override:
 * -EBUSY). The same busy CPU's freq_scale before the write must be below
 * 1024 (the inline control: else 1024 after it tells nothing).
 *
 * Invariance stays off until the next boot: the test runs only in a boot
 * with fi_wobbly_test on the kernel command line (the last test of make
 * test's QEMU-platform Skylake boot), and skips elsewhere, as expected.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"
#include "dvfs_util.h"

#define MSR_IA32_APERF	0xe8
#define WOBBLY		"off: disabled at run time (APERF delta overflow)"

static int cpus[64], nr_cpus, test_cpu;

static int msr_access(int cpu, uint64_t *val, bool write)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	fd = open(path, write ? O_WRONLY : O_RDONLY);
	if (fd < 0)
		return -errno;
	n = write ? pwrite(fd, val, sizeof(*val), MSR_IA32_APERF) :
		    pread(fd, val, sizeof(*val), MSR_IA32_APERF);
	close(fd);
	return n == sizeof(*val) ? 0 : -EIO;
}

static int test_wobbly(void)
{
	char buf[128], path[128];
	int ret = KSFT_PASS, i, err;
	uint64_t aperf, scale;
	pid_t pid;

	if (fi_read_line(FI_DEBUGFS "/status", buf, sizeof(buf)) || strcmp(buf, "on")) {
		fi_err("status \"%s\" before: want on", buf);
		return KSFT_FAIL;
	}
	pid = fi_spawn_spinner(test_cpu);
	if (pid < 0 || dvfs_set_req(test_cpu, plat.min))
		goto fail;
	fi_sleep_us(20000);
	snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/freq_scale", test_cpu);
	if (fi_read_u64(path, &scale) || scale >= 1024) {
		fi_err("CPU %d busy at %u MHz before the write: freq_scale %llu, want below 1024",
		       test_cpu, plat.min, (unsigned long long)scale);
		goto fail;
	}
	fi_info("CPU %d busy at %u MHz before the write: freq_scale %llu\n", test_cpu, plat.min,
		(unsigned long long)scale);
	/* The next tick's APERF delta: 2^62, which scale_freq_tick() cannot shift */
	if (msr_access(test_cpu, &aperf, false))
		goto fail;
	aperf += 1ULL << 62;
	err = msr_access(test_cpu, &aperf, true);
	if (err) {
		fi_err("write APERF of CPU %d: %s", test_cpu, strerror(-err));
		goto fail;
	}
	/* The disable runs from a work item: give it up to a second */
	for (i = 0; i < 100; i++) {
		fi_sleep_us(10000);
		if (!fi_read_line(FI_DEBUGFS "/status", buf, sizeof(buf)) && !strcmp(buf, WOBBLY))
			break;
	}
	fi_info("status after the write: \"%s\"\n", buf);
	if (strcmp(buf, WOBBLY)) {
		fi_err("status \"%s\", want \"%s\"", buf, WOBBLY);
		ret = KSFT_FAIL;
	}
	if (fi_read_u64(FI_DEBUGFS "/invariant", &scale) || scale) {
		fi_err("invariant reads %llu, want 0", (unsigned long long)scale);
		ret = KSFT_FAIL;
	}
	fi_sleep_us(20000);
	for (i = 0; i < nr_cpus; i++) {
		snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/freq_scale", cpus[i]);
		if (fi_read_u64(path, &scale) || scale != 1024) {
			fi_err("CPU %d%s: freq_scale %llu, want 1024", cpus[i],
			       cpus[i] == test_cpu ? " (busy at the minimum)" : "",
			       (unsigned long long)scale);
			ret = KSFT_FAIL;
		}
	}
	/* The debug knob, where CONFIG_X86_FREQ_SCALE_OVERRIDE gives it */
	snprintf(path, sizeof(path), FI_DEBUGFS "/cpu%d/freq_scale_override", test_cpu);
	err = access(path, F_OK) ? -EBUSY : fi_write_str(path, "512");
	if (err != -EBUSY) {
		fi_err("an override after the disable: %s, want EBUSY",
		       err ? strerror(-err) : "accepted");
		fi_write_str(path, "0");
		ret = KSFT_FAIL;
	}
	fi_reap(pid);
	return ret;
fail:
	fi_reap(pid);
	return KSFT_FAIL;
}

static const struct fi_test tests[] = {
	{ "aperf_overflow_disables_invariance", test_wobbly },
};

int main(void)
{
	const char *why;

	dvfs_begin();
	if (!dvfs_cmdline_has("fi_wobbly_test"))
		ksft_exit_skip("%s\n",
			       "turns invariance off until reboot: only in a boot with fi_wobbly_test on the command line");
	nr_cpus = dvfs_setup_cpus(cpus, ARRAY_SIZE(cpus), false, &why);
	if (nr_cpus < 0)
		ksft_exit_fail_msg("%s\n", why);
	test_cpu = cpus[nr_cpus - 1];
	fi_run_tests(tests, ARRAY_SIZE(tests));
}
