// SPDX-License-Identifier: GPL-2.0
/*
 * The turbo reference the unmodified x86 boot code picks on the emulated
 * DVFS platform (dvfs_emu=), by the part QEMU presents and the firmware's
 * turbo setting, as aperfmperf.c's intel_set_max_freq_ratio() reads them:
 *
 *   Kaby Lake (model 158, 142)   limits by cores          the 4-core limit
 *   Skylake-X (85)               limits by groups         the first group of
 *                                (MSR_TURBO_RATIO_LIMIT1)  >= 4 cores: 4-core
 *   Goldmont (92)                the same groups          the first: 1-core
 *   turbo disabled (MSR_IA32_MISC_ENABLE bit 38)          the base frequency
 *
 * max_freq_ratio is the reference over the base, x 1024 (1024 with turbo
 * disabled); every reference the debug setter offers is computed from the
 * same MSRs on each layout; a busy CPU's freq_scale from the real tick path
 * follows the reference in force; and with turbo disabled no CPU can ask
 * for, or run at, more than the base. Each boot of make test's emulated
 * platform runs it, each model and the turbo setting in boots of their own.
 * Skips, as expected, in a boot without dvfs_emu=.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "fi_test.h"
#include "fi_util.h"
#include "dvfs_util.h"

#define MSR_TURBO_RATIO_LIMIT		0x1ad
#define MSR_TURBO_RATIO_LIMIT1		0x1ae
#define MSR_IA32_MISC_ENABLE		0x1a0
#define MISC_ENABLE_TURBO_DISABLE	0x4000000000ULL	/* bit 38 */
#define REF_FILE			FI_DEBUGFS "/max_freq_ratio_reference"

static int cpus[64], nr_cpus, test_cpu;
static bool by_groups, turbo_off;
static const char *part, *boot_source;
static unsigned int boot_mhz;		/* the boot code's reference, turbo on */

static int level_of(int n)
{
	return n <= 1 ? L1C : n == 2 ? L2C : n <= 4 ? L4C : LAC;
}

/* The frequency limit with @n CPUs active: the base with turbo disabled */
static unsigned int limit(int n)
{
	return turbo_off ? plat.base : plat.turbo[level_of(n)];
}

static unsigned long long ratio_of(unsigned int mhz)
{
	return turbo_off ? 1024 : mhz * 1024ULL / plat.base;
}

/* The part QEMU presents, and what the boot code makes of it: 0, or -1 */
static int expect(void)
{
	char line[256];
	unsigned int model = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "model : %u", &model) == 1)
			break;
	if (f)
		fclose(f);
	switch (model) {
	case 158:
	case 142:
		part = "Kaby Lake";
		boot_source = "4-core turbo";
		boot_mhz = plat.turbo[L4C];
		break;
	case 85:
		part = "Skylake-X";
		by_groups = true;
		boot_source = "turbo of the first group of >= 4 cores (Xeon Scalable)";
		boot_mhz = plat.turbo[L4C];
		break;
	case 92:
		part = "Goldmont";
		by_groups = true;
		boot_source = "turbo of the first group (Atom)";
		boot_mhz = plat.turbo[L1C];
		break;
	default:
		fi_err("CPU model %u: not one the platform emulates", model);
		return -1;
	}
	turbo_off = dvfs_cmdline_has("dvfs_emu_turbo_disabled");
	return 0;
}

/* The key @key of the platform file, into @val */
static int platform_key(const char *key, char *val, size_t size)
{
	char line[256];
	size_t n = strlen(key);
	FILE *f = fopen(EMU_DIR "/platform", "r");
	int ret = -1;

	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, n) && line[n] == ' ') {
			snprintf(val, size, "%s", line + n + 1);
			val[strcspn(val, "\n")] = 0;
			ret = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	return ret;
}

/*
 * The MSRs as the part lists them: by cores, byte n - 1 the limit with n
 * cores active and no MSR_TURBO_RATIO_LIMIT1; by groups, bytes 0-3 the
 * limits for up to 1, 2, 4 and 8 cores, their sizes in
 * MSR_TURBO_RATIO_LIMIT1. The turbo disable bit is set only when asked.
 */
static int test_msrs(void)
{
	unsigned long long want, want1 = 0x08040201;
	const char *layout = by_groups ?
		"lists the limits by groups of 1/2/4/8 cores (MSR_TURBO_RATIO_LIMIT1)" :
		"lists the limits by cores";
	const char *turbo = turbo_off ? "disabled (MSR_IA32_MISC_ENABLE)" : "enabled";
	int ret = KSFT_PASS, err, i;
	char val[128];
	uint64_t v;

	for (i = 0, want = 0; i < 8; i++) {
		unsigned int mhz = by_groups ? (i < LEVELS ? plat.turbo[i] : 0) :
					       plat.turbo[level_of(i + 1)];

		want |= (unsigned long long)(mhz / 100) << (8 * i);
	}
	if (dvfs_msr_read(test_cpu, MSR_TURBO_RATIO_LIMIT, &v) || v != want) {
		fi_err("%s: MSR_TURBO_RATIO_LIMIT 0x%llx, want 0x%llx", part,
		       (unsigned long long)v, want);
		ret = KSFT_FAIL;
	}
	err = dvfs_msr_read(test_cpu, MSR_TURBO_RATIO_LIMIT1, &v);
	if (by_groups && (err || v != want1)) {
		fi_err("%s: MSR_TURBO_RATIO_LIMIT1 %s 0x%llx, want 0x%llx", part,
		       err ? strerror(-err) : "", (unsigned long long)v, want1);
		ret = KSFT_FAIL;
	} else if (!by_groups && err != -EIO) {
		fi_err("%s: MSR_TURBO_RATIO_LIMIT1 %s, want EIO (no such MSR)", part,
		       err ? strerror(-err) : "read");
		ret = KSFT_FAIL;
	}
	if (dvfs_msr_read(test_cpu, MSR_IA32_MISC_ENABLE, &v) ||
	    !!(v & MISC_ENABLE_TURBO_DISABLE) != turbo_off) {
		fi_err("MSR_IA32_MISC_ENABLE 0x%llx: turbo disable bit %d, want %d",
		       (unsigned long long)v, !!(v & MISC_ENABLE_TURBO_DISABLE), turbo_off);
		ret = KSFT_FAIL;
	}
	if (platform_key("turbo_ratio_limit_msr", val, sizeof(val)) || strcmp(val, layout)) {
		fi_err("platform: turbo_ratio_limit_msr \"%s\", want \"%s\"", val, layout);
		ret = KSFT_FAIL;
	}
	if (platform_key("turbo", val, sizeof(val)) || strcmp(val, turbo)) {
		fi_err("platform: turbo \"%s\", want \"%s\"", val, turbo);
		ret = KSFT_FAIL;
	}
	return ret;
}

/* The source max_freq_ratio_source shows for reference @src */
static const char *source(const char *src)
{
	static char buf[192];

	if (!turbo_off)
		return src;
	snprintf(buf, sizeof(buf), "base frequency (turbo disabled; turbo reference: %s)",
		 src);
	return buf;
}

/* The reference in force is @src at @mhz: 0, or -1 said why */
static int check_reference(const char *src, unsigned int mhz)
{
	char buf[192];
	uint64_t ratio;
	int ret = 0;

	if (fi_read_line(FI_DEBUGFS "/max_freq_ratio_source", buf, sizeof(buf)) ||
	    strcmp(buf, source(src))) {
		fi_err("max_freq_ratio_source \"%s\", want \"%s\"", buf, source(src));
		ret = -1;
	}
	if (fi_read_u64(FI_DEBUGFS "/max_freq_ratio", &ratio) || ratio != ratio_of(mhz)) {
		fi_err("max_freq_ratio %llu, want %llu (%u MHz over base %u%s)",
		       (unsigned long long)ratio, ratio_of(mhz), mhz, plat.base,
		       turbo_off ? ", turbo disabled: the base" : "");
		ret = -1;
	}
	return ret;
}

static int test_boot_reference(void)
{
	uint64_t ratio = 0;
	char buf[128];
	int ret = KSFT_PASS;

	if (fi_read_line(FI_DEBUGFS "/status", buf, sizeof(buf)) || strcmp(buf, "on")) {
		fi_err("freq_invariance/status \"%s\", want on", buf);
		ret = KSFT_FAIL;
	}
	if (check_reference(boot_source, boot_mhz))
		ret = KSFT_FAIL;
	fi_read_u64(FI_DEBUGFS "/max_freq_ratio", &ratio);
	fi_info("%s%s: max_freq_ratio %llu (want %llu), %s\n", part,
		turbo_off ? ", turbo disabled" : "", (unsigned long long)ratio,
		ratio_of(boot_mhz), source(boot_source));
	return ret;
}

/*
 * test_cpu busy at a request of @mhz with max_freq_ratio @ratio: freq_scale
 * = min(f_eff / base x 1024 x 1024 / ratio, 1024) within 1%, once two reads
 * 3 ms apart agree, in three reads; f_eff is the request capped by the
 * limit for 1 to all CPUs active (the other CPUs wake at times).
 */
static int check_scale(unsigned int mhz, unsigned long long ratio)
{
	unsigned int hi_mhz = mhz < limit(1) ? mhz : limit(1);
	unsigned int lo_mhz = mhz < limit(nr_cpus) ? mhz : limit(nr_cpus);
	double hi = hi_mhz * 1024.0 / plat.base * 1024 / ratio;
	double lo = lo_mhz * 1024.0 / plat.base * 1024 / ratio;
	uint64_t scale;

	hi = hi > 1024 ? 1024 : hi;
	lo = lo > 1024 ? 1024 : lo;
	if (dvfs_settled_scale(test_cpu, mhz, lo, hi, 3, &scale)) {
		fi_err("(max_freq_ratio %llu)", ratio);
		return -1;
	}
	return 0;
}

/*
 * Every reference the setter offers, computed from this layout's MSRs:
 * the limit with 1 or 4 cores active (by groups: the first group of at
 * least 1 or 4 cores), the limit with the most cores listed, the base; a
 * busy CPU at the base frequency then has freq_scale 1024 x 1024 / ratio.
 * "boot" gives the boot code's back. With turbo disabled max_freq_ratio
 * stays 1024 whatever the turbo reference.
 */
static int test_references(void)
{
	const struct {
		const char *key, *src;
		unsigned int mhz;
	} refs[] = {
		{ "1c", "1-core turbo (set through debugfs)", plat.turbo[L1C] },
		{ "4c", "4-core turbo (set through debugfs)", plat.turbo[L4C] },
		{ "all", "turbo with the most cores listed (set through debugfs)",
		  plat.turbo[LAC] },
		{ "base", "base frequency (set through debugfs)", plat.base },
		{ "boot", boot_source, boot_mhz },
	};
	int ret = KSFT_PASS, err;
	size_t i;
	pid_t pid;

	if (access(REF_FILE, F_OK)) {
		fi_info("no %s: CONFIG_X86_FREQ_SCALE_OVERRIDE=n\n", REF_FILE);
		return KSFT_SKIP;
	}
	pid = fi_spawn_spinner(test_cpu);
	if (pid < 0)
		return KSFT_FAIL;
	for (i = 0; i < ARRAY_SIZE(refs); i++) {
		err = fi_write_str(REF_FILE, refs[i].key);
		if (err) {
			fi_err("%s: write %s to max_freq_ratio_reference: %s", part,
			       refs[i].key, strerror(-err));
			ret = KSFT_FAIL;
			continue;
		}
		if (check_reference(refs[i].src, refs[i].mhz) ||
		    check_scale(plat.base, ratio_of(refs[i].mhz)))
			ret = KSFT_FAIL;
	}
	fi_write_str(REF_FILE, "boot");
	fi_reap(pid);
	return ret;
}

/*
 * The highest frequency the cpufreq driver offers is the 1-core turbo, or
 * the base with turbo disabled; a busy CPU asking for it runs at most
 * there: its effective frequency (debugfs state) is the limit for 1 to
 * all CPUs active, and its freq_scale follows.
 */
static int test_highest_request(void)
{
	unsigned int max = limit(1), eff = 0;
	char buf[512], path[128], *last;
	FILE *f;
	int ret = KSFT_PASS;
	pid_t pid;

	if (dvfs_cpufreq_read(test_cpu, "cpuinfo_max_freq", buf, sizeof(buf)) ||
	    strtoul(buf, NULL, 10) != max * 1000) {
		fi_err("cpuinfo_max_freq %s kHz, want %u%s", buf, max * 1000,
		       turbo_off ? " (turbo disabled: the base)" : " (the 1-core turbo)");
		ret = KSFT_FAIL;
	}
	if (dvfs_cpufreq_read(test_cpu, "scaling_available_frequencies", buf, sizeof(buf)))
		return KSFT_FAIL;
	buf[strcspn(buf, "\n")] = 0;
	while (strlen(buf) && buf[strlen(buf) - 1] == ' ')
		buf[strlen(buf) - 1] = 0;
	last = strrchr(buf, ' ');
	if (strtoul(last ? last + 1 : buf, NULL, 10) != max * 1000) {
		fi_err("scaling_available_frequencies \"%s\": want up to %u", buf, max * 1000);
		ret = KSFT_FAIL;
	}
	pid = fi_spawn_spinner(test_cpu);
	if (pid < 0)
		return KSFT_FAIL;
	if (check_scale(max, ratio_of(boot_mhz)))
		ret = KSFT_FAIL;
	snprintf(path, sizeof(path), EMU_DIR "/cpu%d/state", test_cpu);
	f = fopen(path, "r");
	while (f && fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "effective_mhz %u", &eff) == 1)
			break;
	if (f)
		fclose(f);
	if (eff < limit(nr_cpus) || eff > limit(1)) {
		fi_err("CPU %d busy at a request of %u MHz: effective %u MHz, want %u..%u",
		       test_cpu, max, eff, limit(nr_cpus), limit(1));
		ret = KSFT_FAIL;
	}
	fi_reap(pid);
	return ret;
}

static const struct fi_test tests[] = {
	{ "msrs_list_limits_as_the_model", test_msrs },
	{ "boot_code_picks_the_models_reference", test_boot_reference },
	{ "references_computed_on_this_layout", test_references },
	{ "highest_request_is_the_turbo_setting", test_highest_request },
};

int main(void)
{
	const char *why;

	dvfs_begin();
	if (expect())
		ksft_exit_fail_msg("not a part the platform emulates\n");
	nr_cpus = dvfs_setup_cpus(cpus, ARRAY_SIZE(cpus), true, &why);
	if (nr_cpus < 0)
		ksft_exit_fail_msg("%s\n", why);
	if (nr_cpus < 2)
		ksft_exit_skip("needs two CPUs\n");
	test_cpu = cpus[nr_cpus - 1];
	fi_info("%s, platform %s, turbo %s\n", part, plat.name,
		turbo_off ? "disabled" : "enabled");
	fi_run_tests(tests, ARRAY_SIZE(tests));
}
