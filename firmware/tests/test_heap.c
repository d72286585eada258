// SPDX-License-Identifier: Apache-2.0
/* Boot-test image: asks malloc for more than the heap holds, in small steps
   and at once. Past the heap the C library must answer NULL with errno
   ENOMEM, and no block may reach into the stack: every block must lie in
   __heap_start .. __heap_end, be writable without touching a canary at the
   stack's far end (the deepest word the stack may use) or a pattern in this
   frame, and the heap must still serve requests once the blocks are freed. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEP_BYTES   1024u
#define CANARY_WORDS 4u
#define CANARY       0x5AFEC0DEu
#define FRAME_WORDS  16u

extern char __heap_start[], __heap_end[];

struct block {
    struct block *next;
};

static size_t heap_bytes(void)
{
    return (size_t)(__heap_end - __heap_start);
}

static volatile uint32_t *stack_canary(void)
{
    return (volatile uint32_t *)(void *)__heap_end;
}

static int fail(const char *what)
{
    printf("test_heap: FAIL: %s\n", what);
    return 1;
}

static int in_heap(const void *p, size_t bytes)
{
    const char *c = p;
    return c >= __heap_start && c <= __heap_end && bytes <= (size_t)(__heap_end - c);
}

/* Takes STEP_BYTES blocks until malloc says no, filling each one so a
   block over the stack would trample the canary. Returns the blocks as a
   list, or NULL with *problem set. */
static struct block *exhaust_heap(unsigned *blocks, const char **problem)
{
    struct block *list = NULL;
    unsigned limit = (unsigned)(heap_bytes() / STEP_BYTES) + 1;
    for (*blocks = 0; *blocks <= limit; ++*blocks) {
        errno = 0;
        struct block *b = malloc(STEP_BYTES);
        if (!b) {
            *problem = errno == ENOMEM ? NULL : "malloc returned NULL without errno ENOMEM";
            return list;
        }
        if (!in_heap(b, STEP_BYTES)) {
            *problem = "malloc returned a block outside the heap region";
            return list;
        }
        memset(b, 0xA5, STEP_BYTES);
        b->next = list;
        list = b;
    }
    *problem = "malloc kept succeeding past the heap size";
    return list;
}

static void free_all(struct block *list)
{
    while (list) {
        struct block *next = list->next;
        free(list);
        list = next;
    }
}

/* A single request too large for what is left must fail the same way. */
static const char *check_oversized(size_t bytes)
{
    errno = 0;
    void *p = malloc(bytes);
    if (p) {
        free(p);
        return "an oversized request succeeded";
    }
    return errno == ENOMEM ? NULL : "an oversized request failed without errno ENOMEM";
}

static int canary_intact(void)
{
    for (unsigned i = 0; i < CANARY_WORDS; i++)
        if (stack_canary()[i] != CANARY + i)
            return 0;
    return 1;
}

int main(void)
{
    volatile uint32_t frame[FRAME_WORDS];
    for (unsigned i = 0; i < FRAME_WORDS; i++)
        frame[i] = ~i;
    for (unsigned i = 0; i < CANARY_WORDS; i++)
        stack_canary()[i] = CANARY + i;
    printf("test_heap: heap 0x%08lx..0x%08lx (%lu bytes), stack above\n",
           (unsigned long)(uintptr_t)__heap_start, (unsigned long)(uintptr_t)__heap_end,
           (unsigned long)heap_bytes());

    unsigned blocks;
    const char *problem;
    struct block *list = exhaust_heap(&blocks, &problem);
    printf("test_heap: %u blocks of %u bytes before malloc failed\n", blocks, STEP_BYTES);
    if (problem)
        return fail(problem);
    if ((problem = check_oversized(STEP_BYTES)) || (problem = check_oversized(heap_bytes() + 1)) ||
        (problem = check_oversized(SIZE_MAX / 2)))
        return fail(problem);
    if (!canary_intact())
        return fail("the canary at the stack's end was overwritten");
    for (unsigned i = 0; i < FRAME_WORDS; i++)
        if (frame[i] != ~i)
            return fail("the stack frame was overwritten");

    free_all(list);
    void *again = malloc(STEP_BYTES);
    if (!again)
        return fail("the heap serves nothing after the blocks were freed");
    free(again);
    printf("test_heap: PASS: NULL and ENOMEM past the heap, stack intact\n");
    return 0;
}
