# SPDX-License-Identifier: GPL-2.0
#
# PELT frequency invariance and HWP dynamic boost, made observable and
# testable: Debian's linux-source-6.1 + patches/ -> kernel -> QEMU guest.
#
#   make run      build what is missing, boot, show what the series adds
#   make test     the build with the host checks beside it, then the
#                 kselftests in the guests of TEST_BOOTS (below)
#   make help     every target
#
# KVER=6.12 does the same on Debian's linux-source-6.12 with the port of
# the series (patches/6.12/), in build/*-6.12 (docs/bases.md).
#
# The pipeline, top to bottom: deps -> tree -> series -> config -> kernel
# and selftests -> guest, the rootfs built from the start beside them.
# Build output lives in build/ (make clean); ccache and the rootfs image
# live in CACHE, outside the clone.

# The base tree: Debian's linux-source-$(KVER). 6.1 is the default; each
# other base has its own patch set (patches/$(KVER)), tree, objects and
# results, so that both can be built and tested side by side.
KVER    ?= 6.1
KVERS   := 6.1 6.12
ifeq ($(filter $(KVER),$(KVERS)),)
$(error KVER=$(KVER): the bases are $(KVERS))
endif
ifeq ($(KVER),6.1)
SFX     :=
PATCHDIR := patches
else
SFX     := -$(KVER)
PATCHDIR := patches/$(KVER)
endif
export KVER

BUILD   := $(CURDIR)/build
KSRC    := $(BUILD)/linux$(SFX)
KOBJ    := $(BUILD)/obj-test$(SFX)
KERNEL  := $(KOBJ)/arch/x86/boot/bzImage
KOBJ_KASAN := $(BUILD)/obj-kasan$(SFX)
RESULTS := $(BUILD)/results$(SFX)
SERIES_STAMP := $(BUILD)/series$(SFX).stamp
CACHE   ?= $(HOME)/.cache/freq-invariance
GUEST_TIMEOUT ?= 900
KASAN_TIMEOUT ?= 2700
JOBS    ?= $(shell echo $$(( $$(nproc) + 1 )))

export CCACHE_DIR ?= $(CACHE)/ccache
# Paths relative to the clone, so that every clone shares the cache.
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= 1
# ccache's depend mode: on a miss, no preprocessor run of its own to hash
# the input (kbuild's -Wp,-MMD gives it the headers), which makes a cold
# build faster.
export CCACHE_DEPEND ?= 1
# The kernel's compiler: gcc through ccache, but not for the sources that
# .incbin a file, which ccache cannot key (scripts/kcc)
KCC := $(CURDIR)/scripts/kcc
export KBUILD_BUILD_TIMESTAMP ?= 2022-12-11
export KBUILD_BUILD_USER ?= freq-invariance
export KBUILD_BUILD_HOST ?= qemu

# While make test-controls has a mutant applied to a tree, this file names
# it: the kernel and QEMU are not built from a mutated tree
CONTROLS_MARK := $(BUILD)/controls.applied
MUTANT_CHECK = if [ -e $(CONTROLS_MARK) ]; then \
	echo "make: a mutant of make test-controls is applied ($$(cat $(CONTROLS_MARK))):" \
	     "git -C TREE apply -R MUTANT takes it off, then remove $(CONTROLS_MARK)" >&2; exit 1; fi

FRAGMENTS := config/base.config config/debug.config \
	     $(wildcard selftests/*/config)
# The postings (PATCHDIR/postings), each a directory with its own series
# and cover letter, applied in order.
POSTINGS  := $(addprefix $(PATCHDIR)/,$(shell sed -e 's/\#.*//' $(PATCHDIR)/postings | awk 'NF { print $$1 }'))
PATCHES   := $(PATCHDIR)/postings $(foreach p,$(POSTINGS),$(p)/series $(wildcard $(p)/[0-9]*.patch))
KMAKE      = $(MAKE) --no-print-directory -C $(KSRC) O=$(KOBJ) \
	     CC=$(KCC) -j$(JOBS)
GUEST      = qemu/run -t $(GUEST_TIMEOUT)
# Built-in KUnit suites that must report at boot (config/debug.config),
# each with its number of cases (a parameterized case's parameters each
# count), none of which may skip.
KUNIT_SUITES := intel_pstate_hwp_boost=19

# make test's boots, in order (TEST_BOOTS). Each boot B has:
#   B_WHAT    its name in make test's output
#   B_QEMU    how qemu/run boots it (ACCEL, CPU, SMP, ICOUNT)
#   B_PARAMS  the kernel parameters it adds after APPEND
#   B_CASES   each program it runs and the number of TAP results that
#             program must report there (a program without cases of its
#             own counts as one)
#   B_SKIPS   the programs that may skip there, and must (the main boot
#             and the control)
#   B_FAILS   PROGRAM=CASE=ERE: a case that must fail there, with a
#             diagnostic line matching ERE (a control boot, whose platform
#             lacks what the case asserts)
#   B_SKIP_WHY  PROGRAM=ERE: the reason a program's skip must give (no
#             spaces in ERE: . for one)
#   B_VMM     "project" for the project's QEMU (make qemu: patches/qemu),
#             whose guests must keep their TSC stable, and whose own view
#             (info dvfs) lands in the results folder; else Debian's
# Its results folder, in build/results (build/results-6.12), is test-B
# (the main boot's, test). make boots-table prints them as
# docs/platform.md's table, which a host test (tests/run) holds to this
# list.
TEST_BOOTS := main \
	      vmm-skl vmm-notrl vmm-skx vmm-icx vmm-glm vmm-turbo-off vmm-active vmm-hwp \
	      vmm-hwp-passive vmm-icount vmm-slowdown-off vmm-stock
# The plain guest: the kselftests and the KUnit suites. No DVFS there:
# hwp_boost_test needs HWP (vmm-hwp gives it), the dvfs_* tests and the
# platform's tests QEMU's DVFS platform (the other boots), and they skip,
# saying why; any other skip fails make test. Under TCG -cpu max as an
# Intel part on the project's QEMU: with another vendor and no invariant
# TSC (TCG has none) Linux takes the vCPUs' TSCs for unsynchronized and
# marks them unstable (ACCEL=kvm: the host's CPU).
main_WHAT   := main boot
main_QEMU   := $(if $(filter kvm,$(ACCEL)),,CPU=max,vendor=GenuineIntel)
main_PARAMS :=
# Each program that must skip is expected there as one case (its skip):
# one that runs instead fails the boot.
main_SKIPS  := hwp_boost_test dvfs_pelt_test dvfs_wobbly_test dvfs_turbo_ref_test \
	       dvfs_schedutil_test aperfmperf_test intel_pstate_test cpu_speed_test
main_CASES  := util_test=2 debugfs_test=9 invariance_test=6 $(addsuffix =1,$(main_SKIPS))
main_SKIP_WHY := $(foreach t,dvfs_pelt_test dvfs_wobbly_test dvfs_turbo_ref_test \
		   dvfs_schedutil_test aperfmperf_test cpu_speed_test,$(t)=no.APERF/MPERF.in.CPUID) \
		 intel_pstate_test=intel_pstate.cannot.load \
		 hwp_boost_test=intel_pstate.not.loaded
main_VMM    := project
# A platform with a steep turbo curve: two busy cores are capped at 3000
# MHz, 3/4 of the 1-core turbo (no shipped profile has the 2-core limit
# below the 1-core one).
STEEP_PLATFORM := 1200,2300,4000,3000,2800,2600
comma := ,

# QEMU's DVFS platform (patches/qemu): the parts, given by QEMU as
# hardware gives them (CPUID leaf 6, the MSRs), and the unmodified kernel
# code on them. aperfmperf_test and intel_pstate_test take their
# expectations from CPUID, the MSRs, the command line and the part the
# boot names (fi_platform=, which only the tests read). Skylake (94):
# intel_pstate drives it without HWP (passive mode), on the steep part
# (its 1-core and 2-core limits differ, unlike the named parts'); the
# other parts and turbo disabled in boots of their own. The Skylake
# boot also runs dvfs_pelt_test, the article's turbo reference experiment
# with the 4-core reference the boot code picks there
# (dvfs_turbo_ref_test, which needs exactly two CPUs), and
# dvfs_wobbly_test last: it turns invariance off until reboot (only with
# fi_wobbly_test on the command line). The Goldmont boot runs the
# experiment with the 1-core reference (no turbo above it to
# under-report: three cases). schedutil's fixed point
# (dvfs_schedutil_test) runs with f_1C / f_ref = 1.107 (Skylake-X: the
# 4-core reference), 1 (Goldmont: the 1-core one; there also its feedback
# loop with invariance) and through HWP's desired ratio (the passive HWP
# boot).
VMM_CPU := max,vendor=GenuineIntel,family=6,+aperfmperf,+ida
VMM_HWP := $(VMM_CPU),+hwp,+hwp-epp,+epb
vmm-skl_WHAT   := QEMU-platform Skylake boot
vmm-skl_QEMU   := ACCEL=tcg CPU=$(VMM_CPU),model=94,x-dvfs=$(subst $(comma),:,$(STEEP_PLATFORM)) SMP=2
vmm-skl_PARAMS := fi_platform=$(subst $(comma),:,$(STEEP_PLATFORM)) fi_wobbly_test
vmm-skl_CASES  := aperfmperf_test=5 intel_pstate_test=5 dvfs_pelt_test=4 dvfs_turbo_ref_test=4 \
		  dvfs_wobbly_test=1
vmm-skl_VMM    := project
vmm-skx_WHAT   := QEMU-platform Skylake-X boot
vmm-skx_QEMU   := ACCEL=tcg CPU=$(VMM_CPU),model=85,x-dvfs=e5-2670v3 SMP=2
vmm-skx_PARAMS := fi_platform=e5-2670v3
vmm-skx_CASES  := aperfmperf_test=5 dvfs_schedutil_test=1
vmm-skx_VMM    := project
# Ice Lake-X lists its turbo limits by groups as Skylake-X does: the boot
# code must read them so (the sched posting's first patch), the steep part
# telling the first group of 4 cores (2800 MHz) from the fourth group,
# all 8 cores (2600), which a reading by cores takes for the 4-core limit.
# The steep part with its turbo ratio limits hidden (they read 0, the
# limits still apply): the boot code refuses invariance, a state only a
# boot gives. dvfs_pelt_test checks the refusal and that util_avg then
# follows the running time unscaled; dvfs_schedutil_test schedutil's loop
# without invariance, whose runaway needs the 2-core limit below the
# highest request: HWP's highest performance is the 1-core turbo, so that
# intel_cpufreq (passive mode) can ask for it.
vmm-notrl_WHAT   := QEMU-platform boot without turbo ratios
vmm-notrl_QEMU   := ACCEL=tcg CPU=$(VMM_HWP),model=94,x-dvfs=$(subst $(comma),:,$(STEEP_PLATFORM)),x-dvfs-turbo-ratios-hidden=on SMP=2
vmm-notrl_PARAMS := fi_platform=$(subst $(comma),:,$(STEEP_PLATFORM)) intel_pstate=passive
vmm-notrl_CASES  := dvfs_pelt_test=5 dvfs_schedutil_test=1
vmm-notrl_VMM    := project
vmm-icx_WHAT   := QEMU-platform Ice Lake-X boot
vmm-icx_QEMU   := ACCEL=tcg CPU=$(VMM_CPU),model=106,x-dvfs=$(subst $(comma),:,$(STEEP_PLATFORM)) SMP=2
vmm-icx_PARAMS := fi_platform=$(subst $(comma),:,$(STEEP_PLATFORM))
vmm-icx_CASES  := aperfmperf_test=5
vmm-icx_VMM    := project
vmm-glm_WHAT   := QEMU-platform Goldmont boot
vmm-glm_QEMU   := ACCEL=tcg CPU=$(VMM_CPU),model=92,x-dvfs=$(subst $(comma),:,$(STEEP_PLATFORM)) SMP=2
vmm-glm_PARAMS := fi_platform=$(subst $(comma),:,$(STEEP_PLATFORM))
vmm-glm_CASES  := aperfmperf_test=5 dvfs_turbo_ref_test=3 dvfs_schedutil_test=2
vmm-glm_VMM    := project
vmm-turbo-off_WHAT   := QEMU-platform boot with turbo disabled
vmm-turbo-off_QEMU   := ACCEL=tcg CPU=$(VMM_CPU),model=94,x-dvfs=e5-2670v3,x-dvfs-turbo-disabled=on SMP=2
vmm-turbo-off_PARAMS := fi_platform=e5-2670v3+turbo-off
vmm-turbo-off_CASES  := aperfmperf_test=5
vmm-turbo-off_VMM    := project
# intel_pstate in its other modes: without HWP in active mode
# (intel_pstate=active), and with HWP (and EPP, EPB) in active mode, on a
# Kaby Lake (158), where intel_pstate also has energy_efficiency (a bit of
# MSR_IA32_POWER_CTL), and in passive mode (intel_cpufreq writing the
# request for schedutil).
vmm-active_WHAT   := QEMU-platform boot, intel_pstate active without HWP
vmm-active_QEMU   := ACCEL=tcg CPU=$(VMM_CPU),model=94,x-dvfs=e3-1240v5 SMP=2
vmm-active_PARAMS := fi_platform=e3-1240v5 intel_pstate=active
vmm-active_CASES  := intel_pstate_test=5
vmm-active_VMM    := project
vmm-hwp_WHAT   := QEMU-platform boot with HWP
vmm-hwp_QEMU   := ACCEL=tcg CPU=$(VMM_HWP),model=158,x-dvfs=e5-2670v3 SMP=2
vmm-hwp_PARAMS := fi_platform=e5-2670v3
vmm-hwp_CASES  := intel_pstate_test=5 hwp_boost_test=7
vmm-hwp_VMM    := project
vmm-hwp-passive_WHAT   := QEMU-platform boot with HWP in passive mode
vmm-hwp-passive_QEMU   := ACCEL=tcg CPU=$(VMM_HWP),model=94,x-dvfs=$(subst $(comma),:,$(STEEP_PLATFORM)) SMP=2
vmm-hwp-passive_PARAMS := fi_platform=$(subst $(comma),:,$(STEEP_PLATFORM)) intel_pstate=passive
vmm-hwp-passive_CASES  := intel_pstate_test=5 dvfs_schedutil_test=1
vmm-hwp-passive_VMM    := project
# The platform's slowdown under -icount, exact: one vCPU (QEMU 7.2's
# round robin starves a second one under icount), fi_icount telling
# cpu_speed_test so (its bar 0.5%).
vmm-icount_WHAT   := QEMU-platform icount boot
vmm-icount_QEMU   := ACCEL=tcg ICOUNT=shift=0,sleep=off CPU=$(VMM_CPU),model=94,x-dvfs=e5-2670v3 SMP=1
vmm-icount_PARAMS := fi_platform=e5-2670v3 fi_icount
vmm-icount_CASES  := cpu_speed_test=2
vmm-icount_VMM    := project
# The control: that boot with the slowdown off (x-dvfs-slowdown=off), where
# the work must not take f_1C / f as long.
vmm-slowdown-off_WHAT   := QEMU-platform control without the slowdown
vmm-slowdown-off_QEMU   := ACCEL=tcg ICOUNT=shift=0,sleep=off CPU=$(VMM_CPU),model=94,x-dvfs=e5-2670v3,x-dvfs-slowdown=off SMP=1
vmm-slowdown-off_PARAMS := fi_platform=e5-2670v3 fi_icount
vmm-slowdown-off_CASES  := cpu_speed_test=2
vmm-slowdown-off_FAILS  := cpu_speed_test=fixed_work_takes_f1c_over_f=ratio.predicts,.want.1 \
			   cpu_speed_test=timer_wakeups_are_not_held=the.CPU.did.not.slow.down
vmm-slowdown-off_VMM    := project
# Not in make test: cpu_speed_test under multi-threaded TCG, where the
# slowdown is paced on the host's clock (make test-dvfs
# DVFS_BOOTS=vmm-mttcg-speed): its runs at one frequency vary by up to
# 1.8x on a 2-CPU host, so it is a measurement, not a test there.
vmm-mttcg-speed_WHAT   := QEMU-platform slowdown under multi-threaded TCG
vmm-mttcg-speed_QEMU   := ACCEL=tcg CPU=$(VMM_CPU),model=94,x-dvfs=$(subst $(comma),:,$(STEEP_PLATFORM)) SMP=2
vmm-mttcg-speed_PARAMS := fi_platform=$(subst $(comma),:,$(STEEP_PLATFORM))
vmm-mttcg-speed_CASES  := cpu_speed_test=2
vmm-mttcg-speed_VMM    := project
# The control: the Skylake boot on Debian's QEMU, whose CPUID has neither
# APERF/MPERF nor HWP: aperfmperf_test and intel_pstate_test must skip,
# saying so, and nothing else.
vmm-stock_WHAT   := QEMU-platform control on Debian's QEMU
vmm-stock_QEMU   := ACCEL=tcg CPU=max,vendor=GenuineIntel,family=6,model=94 SMP=2
vmm-stock_PARAMS := fi_platform=e5-2670v3
vmm-stock_CASES  := aperfmperf_test=1 intel_pstate_test=1 cpu_speed_test=1
vmm-stock_SKIPS  := aperfmperf_test intel_pstate_test cpu_speed_test
vmm-stock_SKIP_WHY := aperfmperf_test=no.APERF/MPERF.in.CPUID \
		      intel_pstate_test=neither.HWP.with.EPP.nor.APERF/MPERF.in.CPUID \
		      cpu_speed_test=no.APERF/MPERF.in.CPUID

DVFS_BOOTS := $(filter-out main,$(TEST_BOOTS))
boot-dir = $(if $(filter main,$(1)),test,test-$(1))
# $(call boot-env,B): the environment qemu/run boots B with, the user's
# APPEND first, then the boot's own parameters
boot-env = $($(1)_QEMU)$(if $(filter project,$($(1)_VMM)), QEMU="$$(cat $(BUILD)/qemu.path)" TSC_STABLE=1$(if $(findstring x-dvfs,$($(1)_QEMU)), QEMU_INFO=dvfs)) APPEND="$(strip $(APPEND) $($(1)_PARAMS))"
boot-progs = $(foreach c,$($(1)_CASES),$(firstword $(subst =, ,$(c))))
boot-args = $(addprefix --expect-cases ,$($(1)_CASES)) \
	    $(addprefix --expect-skip ,$($(1)_SKIPS)) \
	    $(addprefix --expect-skip-why ,$($(1)_SKIP_WHY)) \
	    $(addprefix --expect-fail ,$($(1)_FAILS))

# make run's second boot (qemu/show-dvfs): QEMU's platform, the steep
# part as a Skylake (vmm-skl's, without its wobbly test); its third, the
# same part with its turbo ratios hidden (vmm-notrl: not invariant,
# qemu/show-dvfs sugov)
RUN_DVFS_BOOT := $(vmm-skl_QEMU) QEMU="$$(cat $(BUILD)/qemu.path)" TSC_STABLE=1 QEMU_INFO=dvfs \
		 APPEND="$(strip $(APPEND) fi_platform=$(subst $(comma),:,$(STEEP_PLATFORM)))"
RUN_NOTRL_BOOT := $(call boot-env,vmm-notrl)
# make run's fourth boot (qemu/show-hwp): QEMU's platform with HWP,
# intel_pstate in active mode, hwp_dynamic_boost off and on
RUN_HWP_BOOT := $(call boot-env,vmm-hwp)
# make run's fifth boot (qemu/show-vmm): QEMU's platform with HWP, then QEMU's
# own view of it (info dvfs, written once the guest powers off)
RUN_VMM_BOOT := $(call boot-env,vmm-hwp)
# Builds the rootfs image and prints its path (tests/run replaces it).
ROOTFS_BUILD ?= rootfs/build

.PHONY: all help deps tree series config kernel kernel-kasan selftests rootfs \
	test-kasan \
	qemu check-host test test-steps test-controls test-dvfs test-dvfs-steps test-kasan-steps boots-table docs run shell bench experiment export-patches check-prefixes \
	clean

# $(call build-all,BESIDE,THEN): the kernel, the rootfs and the selftests.
# The kernel's path (tree, series, config, kernel) uses one CPU until the
# config is made: the rootfs (debootstrap waits on the network and the
# disk) starts at once beside it, the selftests and BESIDE (shell
# commands, started in the background; make test's sets $$host) once the
# config is made, beside the kernel's build. Their output after the
# kernel's, the selftests' then the rootfs's; then THEN, with the status
# so far in $$rc.
define build-all
	@mkdir -p $(BUILD); \
	$(MAKE) --no-print-directory rootfs > $(BUILD)/rootfs.log 2>&1 & rootfs=$$!; \
	rc=0; host=; $(MAKE) --no-print-directory config || rc=$$?; \
	if [ $$rc -ne 0 ]; then \
		echo "make: the series or the config failed (above); waiting for the rootfs" >&2; \
	else \
		$(MAKE) --no-print-directory selftests > $(BUILD)/selftests.log 2>&1 & st=$$!; \
		$(1) \
		$(MAKE) --no-print-directory kernel || rc=$$?; \
		wait $$st || rc=1; cat $(BUILD)/selftests.log; \
	fi; \
	wait $$rootfs || rc=1; cat $(BUILD)/rootfs.log; \
	$(2)
endef

all: deps
	$(call build-all,,exit $$rc)

help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)

## KVER=6.12       with any target: the same on linux-source-6.12 and
##                 patches/6.12/, in build/*-6.12 (default KVER=6.1)
## deps            install the Debian packages the harness needs (apt)
deps:
	@scripts/deps

## tree            unpack linux-source-6.1 into build/linux (branch base;
##                 KVER=6.12: linux-source-6.12 into build/linux-6.12)
tree: deps
	@scripts/tree unpack $(KSRC)

$(KSRC)/.git:
	@$(MAKE) --no-print-directory tree

## series          apply the postings (patches/postings; KVER=6.12:
##                 patches/6.12/postings) to build/linux, git am
series: $(SERIES_STAMP)

$(SERIES_STAMP): $(PATCHES) | $(KSRC)/.git
	@scripts/tree apply $(KSRC) $(POSTINGS)
	@touch $@

## config          merge config/*.config and selftests/*/config, verified
config: $(KOBJ)/.config

$(KOBJ)/.config: $(FRAGMENTS) $(SERIES_STAMP) scripts/kconfig
	@scripts/kconfig $(KSRC) $(KOBJ) $(FRAGMENTS)

## kernel          build the test kernel (debug config, ccache)
kernel: deps $(KOBJ)/.config
	@$(MUTANT_CHECK)
	@mkdir -p $(CCACHE_DIR) && ccache -z >/dev/null
	@echo "kernel: building $(KERNEL)"
	@$(KMAKE) -s bzImage
	@scripts/check-bzimage $(KOBJ)
	@ccache --print-stats | awk '/^(direct|preprocessed)_cache_hit\t/ { h += $$2 } \
		/^cache_miss\t/ { m = $$2 } END { print "kernel: ccache hits " h ", misses " m }'

## selftests       build the kselftests in build/linux's tools/testing/selftests
##                 (the guest only runs them)
selftests: $(SERIES_STAMP)
	@scripts/selftests-patch check $(KSRC) $(PATCHDIR)/sched
	@$(MAKE) --no-print-directory -C selftests all

## qemu            build the project's QEMU: Debian's source of the installed
##                 qemu-system-x86 with patches/qemu (cached in CACHE)
qemu: deps
	@$(MUTANT_CHECK)
	@mkdir -p $(BUILD)
	@scripts/qemu-build $(BUILD) $(CACHE) patches/qemu > $(BUILD)/qemu.path.new && \
		mv $(BUILD)/qemu.path.new $(BUILD)/qemu.path

## rootfs          debootstrap the guest's Debian image (cached in CACHE)
rootfs: deps
	@mkdir -p $(BUILD)
	@$(ROOTFS_BUILD) $(CACHE) > $(BUILD)/rootfs.path

## check-host      host-side checks: each posting applies to base alone and is
##                 checkpatch clean, the kselftests patch is selftests/, harness tests
check-host: $(KSRC)/.git
	@scripts/check-series $(KSRC) $(POSTINGS)
	@scripts/selftests-patch check $(KSRC) $(PATCHDIR)/sched
	@tests/run

# $(call guest-test,KERNEL,RESULTS,TIMEOUT,NAME,WHY): the kselftests and
# the KUnit suites in the main boot's guest booted with KERNEL, judged;
# fails naming NAME, and records why in WHY (qemu/verdict).
define guest-test
	@mkdir -p $(dir $(2)); rc=0; $(call boot-env,main) qemu/run -t $(3) -o $(2) $(1) "$$(cat $(BUILD)/rootfs.path)" \
		-- make -C selftests run_tests 2> $(2).err || rc=$$?; \
	mv -f $(2).err $(2)/guest.err 2>/dev/null || true; cat $(2)/guest.err >&2 2>/dev/null; \
	qemu/tap-summary $(call boot-args,main) $(2)/output.log \
		> $(2)/summary 2> $(2)/summary.err || rc=1; \
	cat $(2)/summary.err >&2; cat $(2)/summary; \
	qemu/kunit-summary $(KSRC) $(2)/console.log $(KUNIT_SUITES) \
		> $(2)/kunit.log 2> $(2)/kunit.err || rc=1; \
	cat $(2)/kunit.log; cat $(2)/kunit.err >&2; \
	grep -a '^kunit: ' $(2)/kunit.log >> $(2)/summary || true; \
	if [ $$rc -ne 0 ]; then \
		echo "$(4): FAIL (guest results: $(2))" >&2; \
		qemu/verdict why $(5) "the $(main_WHAT)" $(2); \
	fi; \
	exit $$rc
endef

# $(call dvfs-test,KERNEL,RESULTS,TIMEOUT,NAME,B,WHY): the programs of
# boot B, judged with B's expected cases and no skip allowed; fails
# naming NAME, and records why in WHY. In a boot with B_FAILS the guest
# command's failing exit (status 1 from the guest, qemu/run reporting
# nothing of its own) is left to tap-summary, which knows which case must
# fail, and why.
define dvfs-test
	@echo "$(4): the $($(5)_WHAT) ($(call boot-env,$(5)))"; \
	mkdir -p $(dir $(2)); rc=0; $(call boot-env,$(5)) qemu/run -t $(3) -o $(2) $(1) "$$(cat $(BUILD)/rootfs.path)" \
		-- qemu/run-selftests $(call boot-progs,$(5)) 2> $(2).err || rc=$$?; \
	$(if $($(5)_FAILS),if [ $$rc -eq 1 ] && ! grep -q '^qemu/run: FAIL' $(2).err && \
		grep -aqE 'FI_EXIT_STATUS=1([^0-9]|$$)' $(2)/status; then rc=0; fi;) \
	mv -f $(2).err $(2)/guest.err 2>/dev/null || true; cat $(2)/guest.err >&2 2>/dev/null; \
	qemu/tap-summary $(call boot-args,$(5)) $(2)/output.log \
		> $(2)/summary 2> $(2)/summary.err || rc=1; \
	$(if $(filter project,$($(5)_VMM)),n=$$(grep -c '^cpu [0-9]*: ' $(2)/info-dvfs.txt 2>/dev/null); \
	[ "$$n" = $(patsubst SMP=%,%,$(filter SMP=%,$($(5)_QEMU))) ] || { rc=1; \
		echo "tap-summary: failed: the host's view (info dvfs) shows $${n:-no} vCPUs$(comma) the boot has $(patsubst SMP=%,%,$(filter SMP=%,$($(5)_QEMU)))" >> $(2)/summary.err; };) \
	cat $(2)/summary.err >&2; cat $(2)/summary; \
	if [ $$rc -ne 0 ]; then \
		echo "$(4) ($($(5)_WHAT)): FAIL (guest results: $(2))" >&2; \
		qemu/verdict why $(6) "the $($(5)_WHAT)" $(2); \
	fi; \
	exit $$rc
endef

define newline


endef

# $(call dvfs-boots,NAME,WHY): every DVFS boot of make test, in turn
dvfs-boots = $(foreach b,$(DVFS_BOOTS),$(call dvfs-test,$(KERNEL),$(RESULTS)/$(call boot-dir,$(b)),$(GUEST_TIMEOUT),$(1),$(b),$(2))$(newline))

# The reason make test (make test-dvfs) failed, for its verdict line.
TEST_WHY := $(RESULTS)/make-test.why

## test            the build with check-host beside it, then the kselftests and
##                 KUnit suites in the guest, then the DVFS tests in
##                 boots of their own (docs/platform.md); ends with one line,
##                 "make test: PASS (...)" or "make test: FAIL: <why>"
test: deps
	@rm -f $(TEST_WHY); rc=0; \
	$(MAKE) --no-print-directory test-steps || rc=$$?; \
	qemu/verdict end "make test" $$rc $(TEST_WHY) \
		$(foreach b,$(TEST_BOOTS),$(RESULTS)/$(call boot-dir,$(b)))

# check-host beside the build (once the config is made: its tests read
# the tree's Kconfig), its output after the build's; a failure shows when
# it happens, and fails make test once the build is done.
test-steps:
	$(call build-all,{ $(MAKE) --no-print-directory check-host > $(BUILD)/check-host.log 2>&1 || \
		  { cat $(BUILD)/check-host.log; echo "make test: check-host FAILED (above); the build goes on" >&2; exit 1; }; } & \
		host=$$!; \
		$(MAKE) --no-print-directory qemu > $(BUILD)/qemu.log 2>&1 & vmm=$$!;,\
	if [ -n "$$host" ] && ! wait $$vmm; then \
		cat $(BUILD)/qemu.log; rc=1; \
		[ -s $(TEST_WHY) ] || { printf 'the project'"'"'s QEMU: '; \
			grep -a -m1 'qemu-build: ' $(BUILD)/qemu.log || echo failed; } > $(TEST_WHY); \
	elif [ -n "$$host" ]; then cat $(BUILD)/qemu.log; fi; \
	if [ -n "$$host" ]; then \
		if wait $$host; then cat $(BUILD)/check-host.log; else \
			rc=1; [ -s $(TEST_WHY) ] || { printf 'check-host: '; \
				grep -a -m1 '^not ok' $(BUILD)/check-host.log || \
				grep -a -m1 'FAIL' $(BUILD)/check-host.log || echo failed; \
			} > $(TEST_WHY); \
		fi; \
	fi; \
	[ $$rc -eq 0 ] || { echo "make test: FAIL before the guests (check-host or the build)" >&2; \
		qemu/verdict why $(TEST_WHY) "the build (series, config, kernel, selftests or rootfs)"; }; \
	exit $$rc)
	$(call guest-test,$(KERNEL),$(RESULTS)/$(call boot-dir,main),$(GUEST_TIMEOUT),make test,$(TEST_WHY))
	$(call dvfs-boots,make test,$(TEST_WHY))

## test-dvfs       only the DVFS boots of make test, for working on
##                 the platform (no check-host, no first boot)
test-dvfs: deps all qemu
	@rm -f $(TEST_WHY); rc=0; \
	$(MAKE) --no-print-directory test-dvfs-steps || rc=$$?; \
	qemu/verdict end "make test-dvfs" $$rc $(TEST_WHY) \
		$(foreach b,$(DVFS_BOOTS),$(RESULTS)/$(call boot-dir,$(b)))

test-dvfs-steps:
	$(call dvfs-boots,make test-dvfs,$(TEST_WHY))

## test-controls   make test's controls (tests/controls): each mutant (a fix of
##                 the postings reverted, the override broken, a behaviour of
##                 QEMU's platform broken) built, and each test's setting
##                 that expects the wrong thing, run in the boot and program
##                 that must catch it; fails unless every one is caught
##                 (slow: not in make test; docs/testing.md). The mutants
##                 are written against the default base. CONTROLS=FILES
##                 runs only those.
CONTROLS ?= $(sort $(wildcard tests/controls/*.patch tests/controls/*.control))
ifneq ($(KVER),6.1)
test-controls:
	@echo "make test-controls: the controls are written for the default base, 6.1 (KVER=$(KVER))" >&2; exit 1
else
test-controls: deps all qemu
	@QEMU_TREE=1 scripts/qemu-build $(BUILD) $(CACHE) patches/qemu > /dev/null
	@{ $(foreach b,$(TEST_BOOTS),printf '%s %s\n' '$(b)' '$(call boot-env,$(b))';) } \
		> $(BUILD)/controls.boots
	@MARK=$(CONTROLS_MARK) KSRC=$(KSRC) KOBJ=$(KOBJ) KCC=$(KCC) JOBS=$(JOBS) KERNEL=$(KERNEL) \
		ROOTFS="$$(cat $(BUILD)/rootfs.path)" QEMU="$$(cat $(BUILD)/qemu.path)" \
		QEMU_SRC=$(BUILD)/qemu QEMU_OBJ=$(BUILD)/qemu-obj TIMEOUT=$(GUEST_TIMEOUT) \
		scripts/test-controls $(BUILD)/controls.boots $(RESULTS)/controls $(CONTROLS)
endif

## boots-table     print make test's boots as a table (docs/platform.md's)
boots-table:
	@{ $(foreach b,$(TEST_BOOTS),printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$($(b)_WHAT)" \
		"$(call boot-dir,$(b))" "$(or $($(b)_QEMU),-)" "$(or $($(b)_PARAMS),-)" \
		"$($(b)_CASES)" "$(or $($(b)_SKIPS),-)" "$(or $($(b)_VMM),debian)" \
		"$(or $($(b)_FAILS),-)";) } | scripts/boots-table

## kernel-kasan    build the test kernel with KASAN (build/obj-kasan)
kernel-kasan: deps $(KOBJ_KASAN)/.config
	@mkdir -p $(CCACHE_DIR)
	@echo "kernel-kasan: building $(KOBJ_KASAN)/arch/x86/boot/bzImage"
	@$(MAKE) --no-print-directory -C $(KSRC) O=$(KOBJ_KASAN) CC=$(KCC) \
		-j$(JOBS) -s bzImage
	@scripts/check-bzimage $(KOBJ_KASAN)

$(KOBJ_KASAN)/.config: $(FRAGMENTS) config/kasan.config $(SERIES_STAMP) scripts/kconfig
	@scripts/kconfig $(KSRC) $(KOBJ_KASAN) $(FRAGMENTS) config/kasan.config

## test-kasan      make test's main boot and its HWP boot (vmm-hwp: the
##                 series' intel_pstate code) on the KASAN kernel (slow: its
##                 own build, guests several times slower; not part of make
##                 test)
# no5lvl: with 5-level paging, KASAN's shadow bounds depend on the LA57
# feature bit, which identify_cpu() clears for a moment at boot; an
# interrupt there gets a false "wild-memory-access" report (the base
# kernel's: docs/testing.md, KASAN). QEMU's -cpu max has LA57.
test-kasan: export override APPEND += no5lvl
test-kasan: deps check-host kernel-kasan selftests rootfs qemu
	@rm -f $(RESULTS)/make-test-kasan.why; rc=0; \
	$(MAKE) --no-print-directory test-kasan-steps APPEND="$(APPEND)" || rc=$$?; \
	qemu/verdict end "make test-kasan" $$rc $(RESULTS)/make-test-kasan.why \
		$(RESULTS)/test-kasan $(RESULTS)/test-kasan-vmm-hwp

test-kasan-steps:
	$(call guest-test,$(KOBJ_KASAN)/arch/x86/boot/bzImage,$(RESULTS)/test-kasan,$(KASAN_TIMEOUT),make test-kasan,$(RESULTS)/make-test-kasan.why)
	$(call dvfs-test,$(KOBJ_KASAN)/arch/x86/boot/bzImage,$(RESULTS)/test-kasan-vmm-hwp,$(KASAN_TIMEOUT),make test-kasan,vmm-hwp,$(RESULTS)/make-test-kasan.why)

## docs            the kernel documentation the postings change (sched-debug.rst,
##                 sched-capacity.rst, intel_pstate.rst), from the patched
##                 tree into build/docs (HTML with docutils)
docs: $(SERIES_STAMP)
	@scripts/docs $(KSRC) $(BUILD)/docs$(SFX) $(POSTINGS)

## run             boot the guest and show what the series adds; then boot
##                 QEMU's DVFS platform (2 CPUs) and show it at work, and
##                 schedutil's loop there with invariance and without;
##                 then QEMU's DVFS platform with HWP (make qemu):
##                 hwp_dynamic_boost at work; last, the same platform: the
##                 part as CPUID and the MSRs give it, and QEMU's own view of it
run: deps all qemu
	@$(GUEST) -o $(RESULTS)/run $(KERNEL) "$$(cat $(BUILD)/rootfs.path)" -- qemu/show
	@echo; echo "make run: QEMU's DVFS platform, the steep part as a Skylake ($(RUN_DVFS_BOOT))"
	@$(RUN_DVFS_BOOT) $(GUEST) -o $(RESULTS)/run-dvfs $(KERNEL) \
		"$$(cat $(BUILD)/rootfs.path)" -- qemu/show-dvfs
	@echo; echo "make run: the same part with its turbo ratios hidden, not invariant ($(RUN_NOTRL_BOOT))"
	@$(RUN_NOTRL_BOOT) $(GUEST) -o $(RESULTS)/run-notrl $(KERNEL) \
		"$$(cat $(BUILD)/rootfs.path)" -- qemu/show-dvfs sugov
	@echo; scripts/sugov-report $(RESULTS)/run-dvfs/sugov.log \
		$(RESULTS)/run-notrl/sugov.log $(RESULTS)/run-sugov
	@echo; echo "make run: QEMU's DVFS platform with HWP, under intel_pstate: hwp_dynamic_boost ($(RUN_HWP_BOOT))"
	@$(RUN_HWP_BOOT) $(GUEST) -o $(RESULTS)/run-hwp $(KERNEL) \
		"$$(cat $(BUILD)/rootfs.path)" -- qemu/show-hwp
	@echo; echo "make run: QEMU's DVFS platform with HWP, and QEMU's own view of it ($(RUN_VMM_BOOT))"
	@$(RUN_VMM_BOOT) $(GUEST) -o $(RESULTS)/run-vmm $(KERNEL) \
		"$$(cat $(BUILD)/rootfs.path)" -- qemu/show-vmm
	@printf '\n== %s\n' "the host's view once the guest powered off: QEMU's info dvfs ($(RESULTS)/run-vmm/info-dvfs.txt)"
	@cat $(RESULTS)/run-vmm/info-dvfs.txt

## shell           an interactive guest (exit the shell to power off)
shell: deps all
	@qemu/run -i -o $(RESULTS)/shell $(KERNEL) "$$(cat $(BUILD)/rootfs.path)"

## bench           base vs patched non-debug kernels: scheduler cost, PELT ramps
##                 (slow, not part of make test; report in build/results/bench)
bench: deps series selftests rootfs
	@JOBS=$(JOBS) scripts/bench $(KSRC) "$$(cat $(BUILD)/rootfs.path)" $(RESULTS)/bench

## experiment      the article's experiment (slow, not part of make test):
##                 schedutil on QEMU's DVFS platform with the 1-core and
##                 4-core turbo references (the parts whose boot code
##                 picks them) and without invariance, a periodic mix and
##                 a build at 1 and 2 busy CPUs (report in
##                 build/results/experiment)
experiment: deps all qemu
	@QEMU="$$(cat $(BUILD)/qemu.path)" VMM_CPU="$(VMM_CPU)" VMM_HWP="$(VMM_HWP)" \
		scripts/experiment $(KERNEL) "$$(cat $(BUILD)/rootfs.path)" $(RESULTS)/experiment

## check-prefixes  build every prefix of the series (slow: not in make test);
##                 FROM=k starts at the k-th
check-prefixes: deps series $(KOBJ)/.config
	@FROM=$(FROM) scripts/check-prefixes $(KSRC) $(KOBJ) -- CC=$(KCC) -j$(JOBS) -s bzImage

## export-patches  write build/linux's commits on top of base to the postings
export-patches: $(KSRC)/.git
	@scripts/tree export $(KSRC) $(PATCHDIR)

## selftests-patch  regenerate the sched posting's kselftests patch from
##                 selftests/freq_invariance/ (after editing a test), re-apply
##                 the series and re-export it (the cover letter's stat)
selftests-patch: $(KSRC)/.git
	@scripts/selftests-patch write $(KSRC) $(PATCHDIR)/sched
	@$(MAKE) --no-print-directory series
	@scripts/tree export $(KSRC) $(PATCHDIR)

## clean           remove build/, both bases' (CACHE, with ccache and the rootfs,
##                 stays)
clean:
	rm -rf $(BUILD)
