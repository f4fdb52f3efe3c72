# SPDX-License-Identifier: GPL-2.0
#
# PELT frequency invariance and HWP dynamic boost, made observable and
# testable: Debian's linux-source-6.1 + patches/ -> kernel -> QEMU guest.
#
#   make run      build what is missing, boot, show what the series adds
#   make test     the build with the host checks beside it, then the
#                 kselftests in ten guests
#   make help     every target
#
# KVER=6.12 does the same on Debian's linux-source-6.12 with the port of
# the series (patches/6.12/), in build/*-6.12 (README "Two bases").
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
# the input (kbuild's -Wp,-MMD gives it the headers): the cold build of
# the 6.1 test kernel took 4 min 47 s with it, alone on the 2 cores (not
# measured alone without it: 6 min 41 s beside the host checks and
# debootstrap, 6 min 50 s with ccache disabled).
export CCACHE_DEPEND ?= 1
export KBUILD_BUILD_TIMESTAMP ?= 2022-12-11
export KBUILD_BUILD_USER ?= freq-invariance
export KBUILD_BUILD_HOST ?= qemu

FRAGMENTS := config/base.config config/debug.config \
	     $(wildcard selftests/*/config)
# The postings (PATCHDIR/postings), each a directory with its own series
# and cover letter, applied in order.
POSTINGS  := $(addprefix $(PATCHDIR)/,$(shell sed -e 's/\#.*//' $(PATCHDIR)/postings | awk 'NF { print $$1 }'))
PATCHES   := $(PATCHDIR)/postings $(foreach p,$(POSTINGS),$(p)/series $(wildcard $(p)/[0-9]*.patch))
KMAKE      = $(MAKE) --no-print-directory -C $(KSRC) O=$(KOBJ) \
	     CC="ccache gcc" -j$(JOBS)
GUEST      = qemu/run -t $(GUEST_TIMEOUT)
# Built-in KUnit suites that must report at boot (config/debug.config).
KUNIT_SUITES := intel_pstate_hwp_boost x86_dvfs_emu
# The only kselftests that may skip in make test's main guest:
# hwp_boost_test needs Intel HWP, which QEMU never has: the emulated
# platform's HWP gives it (HWP_BOOT); the dvfs_*
# tests need the emulated DVFS platform, which has boots of its own
# (DVFS_BOOT, NOTRL_BOOT, SKX_BOOT, GLM_BOOT, E3_BOOT, TURBO_OFF_BOOT,
# HWP_BOOT, HWP_PASSIVE_BOOT, SLOWDOWN_BOOT) where nothing may skip. Any other
# skip fails make test.
EXPECTED_SKIPS := hwp_boost_test dvfs_test dvfs_boot_test dvfs_pelt_test \
		  dvfs_slowdown_test dvfs_wobbly_test dvfs_turbo_ref_test \
		  dvfs_schedutil_test
# The emulated DVFS platform's boot (CONFIG_X86_DVFS_EMULATION): an Intel
# family 6 CPU (a Kaby Lake: intel_pstate leaves it alone without HWP),
# four CPUs so that the turbo limits of 1, 2 and 4 active cores are seen,
# and the part the article measured. Only its own tests run there.
# TCG even under ACCEL=kvm (the host's CPU is not such a part); the
# user's APPEND first, then the platform.
# dvfs_pelt_test compares util_avg with the PELT model of what the task
# was seen to run. Last, as it turns invariance off until reboot, the
# "went wobbly" disable (dvfs_wobbly_test runs only with fi_wobbly_test on
# the command line).
DVFS_BOOT  := ACCEL=tcg CPU=max,vendor=GenuineIntel,family=6,model=158 SMP=4 \
	      APPEND="$(strip $(APPEND) dvfs_emu=e5-2670v3 fi_wobbly_test)"
DVFS_TESTS := dvfs_boot_test dvfs_test dvfs_pelt_test dvfs_wobbly_test
# A platform with a steep turbo curve: two busy cores are capped at 3000
# MHz, 3/4 of the 1-core turbo (no shipped profile has the 2-core limit
# below the 1-core one).
STEEP_PLATFORM := 1200,2300,4000,3000,2800,2600
# That platform with MSR_TURBO_RATIO_LIMIT reading 0: the boot code
# refuses invariance, a state only a boot gives. dvfs_pelt_test checks the
# refusal and that util_avg then follows the running time unscaled;
# dvfs_schedutil_test schedutil's loop without invariance, whose
# runaway needs a 2-core turbo limit below the top of the table.
NOTRL_BOOT  := ACCEL=tcg CPU=max,vendor=GenuineIntel,family=6,model=158 SMP=2 \
	       APPEND="$(strip $(APPEND) dvfs_emu=$(STEEP_PLATFORM) dvfs_emu_no_turbo_ratios)"
NOTRL_TESTS := dvfs_pelt_test dvfs_schedutil_test
# The turbo reference the boot code picks depends on the part and on the
# firmware's turbo setting: a boot for each (dvfs_boot_test). Skylake-X
# and Goldmont list their turbo limits by groups of cores; without HWP
# intel_pstate drives them, so it is disabled for the platform's driver.
# The article's turbo reference experiment (dvfs_turbo_ref_test, which
# needs exactly two CPUs) runs in the Skylake-X boot, in the Goldmont
# boot, whose boot code takes the 1-core turbo as the reference (Lelli's
# case), on the steep platform, and in the Xeon E3 boot (below): on each
# shipped profile and the steep one. schedutil's request
# (dvfs_schedutil_test) runs in both: with f_1C / f_ref = 1.107 (4-core
# reference) and 1 (1-core); its feedback loop runs without invariance,
# in the boot without turbo ratios.
SKX_BOOT  := ACCEL=tcg CPU=max,vendor=GenuineIntel,family=6,model=85 SMP=2 \
	     APPEND="$(strip $(APPEND) dvfs_emu=e5-2670v3 intel_pstate=disable)"
GLM_BOOT  := ACCEL=tcg CPU=max,vendor=GenuineIntel,family=6,model=92 SMP=2 \
	     APPEND="$(strip $(APPEND) dvfs_emu=$(STEEP_PLATFORM) intel_pstate=disable)"
TURBO_OFF_BOOT := ACCEL=tcg CPU=max,vendor=GenuineIntel,family=6,model=158 SMP=2 \
		  APPEND="$(strip $(APPEND) dvfs_emu=e5-2670v3 dvfs_emu_turbo_disabled)"
BOOT_REF_TESTS := dvfs_boot_test
REF_TESTS := $(BOOT_REF_TESTS) dvfs_turbo_ref_test dvfs_schedutil_test
# The experiment on the other shipped profile, e3-1240v5 (its 1-core and
# 2-core turbo equal, 200 MHz above the all-core limit), on a Kaby Lake,
# whose boot code reads the same layout as that Skylake's.
E3_BOOT  := ACCEL=tcg CPU=max,vendor=GenuineIntel,family=6,model=158 SMP=2 \
	    APPEND="$(strip $(APPEND) dvfs_emu=e3-1240v5)"
E3_TESTS := $(BOOT_REF_TESTS) dvfs_turbo_ref_test
# The platform with HWP (dvfs_emu_hwp): intel_pstate loads in active mode
# with HWP (its HWP support matches any family 6 part) and the platform's
# own cpufreq driver does not register, so that hwp_boost_test runs, on
# the emulated request, instead of skipping.
HWP_BOOT  := ACCEL=tcg CPU=max,vendor=GenuineIntel,family=6,model=158 SMP=2 \
	     APPEND="$(strip $(APPEND) dvfs_emu=e5-2670v3 dvfs_emu_hwp)"
HWP_TESTS := hwp_boost_test
# The same in passive mode (intel_cpufreq, schedutil through adjust_perf
# to HWP's desired ratio): schedutil's fixed point as with the platform's
# own driver (dvfs_schedutil_test).
HWP_PASSIVE_BOOT := ACCEL=tcg CPU=max,vendor=GenuineIntel,family=6,model=158 SMP=2 \
		    APPEND="$(strip $(APPEND) dvfs_emu=e5-2670v3 dvfs_emu_hwp intel_pstate=passive)"
HWP_PASSIVE_TESTS := dvfs_schedutil_test
# make run's second boot (qemu/show-dvfs), and its third, the same
# platform without the turbo ratios (not invariant: qemu/show-dvfs sugov)
RUN_DVFS_BOOT := ACCEL=tcg CPU=max,vendor=GenuineIntel,family=6,model=158 SMP=2 \
		 APPEND="$(strip $(APPEND) dvfs_emu=e5-2670v3)"
RUN_NOTRL_BOOT := ACCEL=tcg CPU=max,vendor=GenuineIntel,family=6,model=158 SMP=2 \
		  APPEND="$(strip $(APPEND) dvfs_emu=e5-2670v3 dvfs_emu_no_turbo_ratios)"
# make run's fourth boot (qemu/show-hwp): the platform with HWP, intel_pstate
# in active mode, hwp_dynamic_boost off and on
RUN_HWP_BOOT := ACCEL=tcg CPU=max,vendor=GenuineIntel,family=6,model=158 SMP=2 \
		APPEND="$(strip $(APPEND) dvfs_emu=e5-2670v3 dvfs_emu_hwp)"
# The CPUs' slowdown, timed on the wall clock: that needs a vCPU whose
# speed is steady, which multi-threaded TCG's is not (it follows the
# host's load). Under -icount the guest's clock counts instructions
# (one vCPU: a second does not come up under icount).
SLOWDOWN_BOOT  := ACCEL=tcg ICOUNT=shift=0,sleep=off SMP=1 \
		  CPU=max,vendor=GenuineIntel,family=6,model=158 \
		  APPEND="$(strip $(APPEND) dvfs_emu=e5-2670v3)"
SLOWDOWN_TESTS := dvfs_slowdown_test
# Builds the rootfs image and prints its path (tests/run replaces it).
ROOTFS_BUILD ?= rootfs/build

.PHONY: all help deps tree series config kernel kernel-kasan selftests rootfs \
	test-kasan \
	check-host test test-dvfs run shell bench experiment export-patches check-prefixes \
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
	@mkdir -p $(CCACHE_DIR) && ccache -z >/dev/null
	@echo "kernel: building $(KERNEL)"
	@$(KMAKE) -s bzImage
	@ccache --print-stats | awk '/^(direct|preprocessed)_cache_hit\t/ { h += $$2 } \
		/^cache_miss\t/ { m = $$2 } END { print "kernel: ccache hits " h ", misses " m }'

## selftests       build the kselftests in build/linux's tools/testing/selftests
##                 (the guest only runs them)
selftests: $(SERIES_STAMP)
	@scripts/selftests-patch check $(KSRC) $(PATCHDIR)/sched
	@$(MAKE) --no-print-directory -C selftests all

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

# $(call guest-test,KERNEL,RESULTS,TIMEOUT,NAME): the kselftests and the
# KUnit suites in a guest booted with KERNEL, judged; fails naming NAME.
define guest-test
	@rc=0; qemu/run -t $(3) -o $(2) $(1) "$$(cat $(BUILD)/rootfs.path)" \
		-- make -C selftests run_tests || rc=$$?; \
	qemu/tap-summary $(addprefix --expect-skip ,$(EXPECTED_SKIPS)) \
		$(2)/output.log || rc=1; \
	qemu/kunit-summary $(KSRC) $(2)/console.log $(KUNIT_SUITES) || rc=1; \
	[ $$rc -eq 0 ] || echo "$(4): FAIL (guest results: $(2))" >&2; \
	exit $$rc
endef

# $(call dvfs-test,KERNEL,RESULTS,TIMEOUT,NAME,BOOT,TESTS,WHAT): TESTS in
# the boot BOOT (WHAT names it), judged with no skip allowed; fails naming
# NAME.
define dvfs-test
	@echo "$(4): the $(7) ($(5))"; \
	rc=0; $(5) qemu/run -t $(3) -o $(2) $(1) "$$(cat $(BUILD)/rootfs.path)" \
		-- qemu/run-selftests $(6) || rc=$$?; \
	qemu/tap-summary $(2)/output.log || rc=1; \
	if [ $$rc -ne 0 ]; then \
		grep -a 'dvfs_emu: ' $(2)/console.log | grep -v 'pass:' | sed 's/^/  /' >&2; \
		echo "$(4) ($(7)): FAIL (guest results: $(2))" >&2; \
	fi; \
	exit $$rc
endef

# $(call dvfs-boots,NAME): every emulated-DVFS boot of make test, in turn
define dvfs-boots
	$(call dvfs-test,$(KERNEL),$(RESULTS)/test-dvfs,$(GUEST_TIMEOUT),$(1),$(DVFS_BOOT),$(DVFS_TESTS),emulated-DVFS boot)
	$(call dvfs-test,$(KERNEL),$(RESULTS)/test-notrl,$(GUEST_TIMEOUT),$(1),$(NOTRL_BOOT),$(NOTRL_TESTS),emulated-DVFS boot without turbo ratios)
	$(call dvfs-test,$(KERNEL),$(RESULTS)/test-skx,$(GUEST_TIMEOUT),$(1),$(SKX_BOOT),$(REF_TESTS),emulated-DVFS Skylake-X boot)
	$(call dvfs-test,$(KERNEL),$(RESULTS)/test-glm,$(GUEST_TIMEOUT),$(1),$(GLM_BOOT),$(REF_TESTS),emulated-DVFS Goldmont boot)
	$(call dvfs-test,$(KERNEL),$(RESULTS)/test-e3,$(GUEST_TIMEOUT),$(1),$(E3_BOOT),$(E3_TESTS),emulated-DVFS Xeon E3 boot)
	$(call dvfs-test,$(KERNEL),$(RESULTS)/test-turbo-off,$(GUEST_TIMEOUT),$(1),$(TURBO_OFF_BOOT),$(BOOT_REF_TESTS),emulated-DVFS boot with turbo disabled)
	$(call dvfs-test,$(KERNEL),$(RESULTS)/test-hwp,$(GUEST_TIMEOUT),$(1),$(HWP_BOOT),$(HWP_TESTS),emulated-DVFS boot with HWP)
	$(call dvfs-test,$(KERNEL),$(RESULTS)/test-hwp-passive,$(GUEST_TIMEOUT),$(1),$(HWP_PASSIVE_BOOT),$(HWP_PASSIVE_TESTS),emulated-DVFS boot with HWP in passive mode)
	$(call dvfs-test,$(KERNEL),$(RESULTS)/test-slowdown,$(GUEST_TIMEOUT),$(1),$(SLOWDOWN_BOOT),$(SLOWDOWN_TESTS),emulated-DVFS icount boot)
endef

## test            the build with check-host beside it, then the kselftests and
##                 KUnit suites in the guest,
##                 then the emulated-DVFS tests in boots of their own (4 CPUs;
##                 2 without turbo ratios; 2 for each part, profile and turbo setting;
##                 2 with HWP under intel_pstate, active, and passive; one
##                 under -icount for the slowdown)
# check-host beside the build (once the config is made: its tests read
# the tree's Kconfig), its output after the build's; a failure shows when
# it happens, and fails make test once the build is done.
test: deps
	$(call build-all,{ $(MAKE) --no-print-directory check-host > $(BUILD)/check-host.log 2>&1 || \
		  { cat $(BUILD)/check-host.log; echo "make test: check-host FAILED (above); the build goes on" >&2; exit 1; }; } & \
		host=$$!;,\
	if [ -n "$$host" ]; then \
		if wait $$host; then cat $(BUILD)/check-host.log; else rc=1; fi; \
	fi; \
	[ $$rc -eq 0 ] || echo "make test: FAIL before the guests (check-host or the build)" >&2; \
	exit $$rc)
	$(call guest-test,$(KERNEL),$(RESULTS)/test,$(GUEST_TIMEOUT),make test)
	$(call dvfs-boots,make test)

## test-dvfs       only the emulated-DVFS boots of make test, for working on
##                 the platform (no check-host, no first boot)
test-dvfs: deps all
	$(call dvfs-boots,make test-dvfs)

## kernel-kasan    build the test kernel with KASAN (build/obj-kasan)
kernel-kasan: deps $(KOBJ_KASAN)/.config
	@mkdir -p $(CCACHE_DIR)
	@echo "kernel-kasan: building $(KOBJ_KASAN)/arch/x86/boot/bzImage"
	@$(MAKE) --no-print-directory -C $(KSRC) O=$(KOBJ_KASAN) CC="ccache gcc" \
		-j$(JOBS) -s bzImage

$(KOBJ_KASAN)/.config: $(FRAGMENTS) config/kasan.config $(SERIES_STAMP) scripts/kconfig
	@scripts/kconfig $(KSRC) $(KOBJ_KASAN) $(FRAGMENTS) config/kasan.config

## test-kasan      make test's guest run on the KASAN kernel (slow: its own
##                 build, a guest several times slower; not part of make test)
# no5lvl: with 5-level paging, KASAN's shadow bounds depend on the LA57
# feature bit, which identify_cpu() clears for a moment at boot; an
# interrupt there gets a false "wild-memory-access" report (base kernel,
# see README "KASAN"). QEMU's -cpu max has LA57.
test-kasan: export override APPEND += no5lvl
test-kasan: deps check-host kernel-kasan selftests rootfs
	$(call guest-test,$(KOBJ_KASAN)/arch/x86/boot/bzImage,$(RESULTS)/test-kasan,$(KASAN_TIMEOUT),make test-kasan)
	$(call dvfs-test,$(KOBJ_KASAN)/arch/x86/boot/bzImage,$(RESULTS)/test-kasan-dvfs,$(KASAN_TIMEOUT),make test-kasan,$(DVFS_BOOT),$(DVFS_TESTS),emulated-DVFS boot)

## run             boot the guest and show what the series adds; then boot
##                 the emulated DVFS platform (2 CPUs) and show it at work,
##                 and schedutil's loop there with invariance and without;
##                 last, the platform with HWP: hwp_dynamic_boost at work
run: deps all
	@$(GUEST) -o $(RESULTS)/run $(KERNEL) "$$(cat $(BUILD)/rootfs.path)" -- qemu/show
	@echo; echo "make run: the emulated DVFS platform ($(RUN_DVFS_BOOT))"
	@$(RUN_DVFS_BOOT) $(GUEST) -o $(RESULTS)/run-dvfs $(KERNEL) \
		"$$(cat $(BUILD)/rootfs.path)" -- qemu/show-dvfs
	@echo; echo "make run: the same platform without turbo ratios ($(RUN_NOTRL_BOOT))"
	@$(RUN_NOTRL_BOOT) $(GUEST) -o $(RESULTS)/run-notrl $(KERNEL) \
		"$$(cat $(BUILD)/rootfs.path)" -- qemu/show-dvfs sugov
	@echo; scripts/sugov-report $(RESULTS)/run-dvfs/sugov.log \
		$(RESULTS)/run-notrl/sugov.log $(RESULTS)/run-sugov
	@echo; echo "make run: the platform with HWP, under intel_pstate ($(RUN_HWP_BOOT))"
	@$(RUN_HWP_BOOT) $(GUEST) -o $(RESULTS)/run-hwp $(KERNEL) \
		"$$(cat $(BUILD)/rootfs.path)" -- qemu/show-hwp

## shell           an interactive guest (exit the shell to power off)
shell: deps all
	@qemu/run -i -o $(RESULTS)/shell $(KERNEL) "$$(cat $(BUILD)/rootfs.path)"

## bench           base vs patched non-debug kernels: scheduler cost, PELT ramps
##                 (slow, not part of make test; report in build/results/bench)
bench: deps series selftests rootfs
	@JOBS=$(JOBS) scripts/bench $(KSRC) "$$(cat $(BUILD)/rootfs.path)" $(RESULTS)/bench

## experiment      the article's experiment (slow, not part of make test):
##                 schedutil on the emulated DVFS platform with the 1-core,
##                 4-core and all-core turbo references and without
##                 invariance, a periodic mix and a build at 1 and 2 busy
##                 CPUs (report in build/results/experiment)
experiment: deps all
	@scripts/experiment $(KERNEL) "$$(cat $(BUILD)/rootfs.path)" $(RESULTS)/experiment

## check-prefixes  build every prefix of the series (slow: not in make test);
##                 FROM=k starts at the k-th
check-prefixes: deps series $(KOBJ)/.config
	@FROM=$(FROM) scripts/check-prefixes $(KSRC) $(KOBJ) -- CC="ccache gcc" -j$(JOBS) -s bzImage

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
