/* SPDX-License-Identifier: Apache-2.0 */
/* The paging engine's test cases (tests.c), run by main.c. Each returns
 * only on success (a failure exits through tb_fail). */
#ifndef GMMU_TESTS_PAGING_TESTS_H
#define GMMU_TESTS_PAGING_TESTS_H

#include "tb.h"

void test_directed(struct tb *t);
void test_random(struct tb *t, unsigned streams);
void test_axi_errors(struct tb *t);
void test_malformed(struct tb *t);
void test_flush(struct tb *t);
/* Prints beats per cycle; returns false when a target is missed (and check). */
bool test_throughput(struct tb *t, unsigned kib, bool check);

#endif /* GMMU_TESTS_PAGING_TESTS_H */
