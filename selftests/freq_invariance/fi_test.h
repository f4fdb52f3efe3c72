/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tests[] table runner of the freq_invariance selftests. A header,
 * not in fi_util.c: kselftest.h keeps its counters in static variables,
 * so results must be reported from the test program's own unit.
 */
#ifndef FI_TEST_H
#define FI_TEST_H

#include "kselftest.h"
#include "fi_util.h"

struct fi_test {
	const char *name;
	int (*fn)(void);	/* KSFT_PASS, KSFT_FAIL or KSFT_SKIP */
};

static inline void fi_run_tests(const struct fi_test *tests, size_t n)
{
	size_t i;

	fi_teardown_on_signals();
	ksft_set_plan(n);
	for (i = 0; i < n; i++) {
		switch (tests[i].fn()) {
		case KSFT_PASS:
			ksft_test_result_pass("%s\n", tests[i].name);
			break;
		case KSFT_SKIP:
			ksft_test_result_skip("%s\n", tests[i].name);
			break;
		default:
			ksft_test_result_fail("%s\n", tests[i].name);
			break;
		}
	}
	ksft_finished();
}

#endif
