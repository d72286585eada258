// SPDX-License-Identifier: Apache-2.0
/* HAL for the GPU MMU SoC (simulation and boards alike). */
#include "hal.h"

#include <stdio.h>

#define MCAUSE_INTERRUPT        0x80000000u
#define MCAUSE_MACHINE_TIMER    7u
#define MCAUSE_MACHINE_EXTERNAL 11u
#define MSTATUS_MIE             (1u << 3)
#define MIE_MTIE                (1u << 7)
#define MIE_MEIE                (1u << 11)
/* VexRiscv's external-interrupt mask and pending CSRs (ExternalInterruptArrayPlugin). */
#define CSR_EXT_IRQ_MASK        0xBC0
#define CSR_EXT_IRQ_PENDING     0xFC0

#define CSR_SET(csr, v) __asm__ volatile("csrs " #csr ", %0" ::"r"(v))
#define STR_(x)         #x
#define STR(x)          STR_(x)

#define IRQ_LINES 32u

static struct {
    hal_irq_handler handler;
    void *ctx;
} irq_table[IRQ_LINES];

void hal_console_putc(char c)
{
    hal_write32(GMMU_CONSOLE_BASE + GMMU_CONSOLE_TX, (uint8_t)c);
}

uint64_t hal_cycles(void)
{
    uint32_t hi, lo;
    do {
        hi = hal_read32(GMMU_TIMER_BASE + GMMU_TIMER_CYCLE_HI);
        lo = hal_read32(GMMU_TIMER_BASE + GMMU_TIMER_CYCLE_LO);
    } while (hi != hal_read32(GMMU_TIMER_BASE + GMMU_TIMER_CYCLE_HI));
    return ((uint64_t)hi << 32) | lo;
}

uint32_t hal_boot_arg(void)
{
    return hal_read32(GMMU_SYSCTL_BASE + GMMU_SYSCTL_BOOT_ARG);
}

uint64_t hal_ddr_size(void)
{
    return (uint64_t)hal_read32(GMMU_SYSCTL_BASE + GMMU_SYSCTL_DDR_SIZE_MB) << 20;
}

_Noreturn void hal_exit(uint32_t code)
{
    fflush(stdout);
    hal_write32(GMMU_SYSCTL_BASE + GMMU_SYSCTL_EXIT, code);
    for (;;) {
        /* On a board EXIT does nothing: park here with interrupts off. */
        __asm__ volatile("csrc mstatus, %0" ::"r"(MSTATUS_MIE));
        __asm__ volatile("wfi");
    }
}

void hal_irq_attach(unsigned line, hal_irq_handler handler, void *ctx)
{
    if (line >= IRQ_LINES)
        return;
    irq_table[line].handler = handler;
    irq_table[line].ctx = ctx;
    uint32_t mask = 1u << line;
    __asm__ volatile("csrs " STR(CSR_EXT_IRQ_MASK) ", %0" ::"r"(mask));
    CSR_SET(mie, MIE_MEIE);
}

void hal_irq_mask(unsigned line)
{
    if (line < IRQ_LINES)
        __asm__ volatile("csrc " STR(CSR_EXT_IRQ_MASK) ", %0" ::"r"(1u << line));
}

void hal_irq_unmask(unsigned line)
{
    if (line < IRQ_LINES)
        __asm__ volatile("csrs " STR(CSR_EXT_IRQ_MASK) ", %0" ::"r"(1u << line));
}

void hal_irq_enable_global(void)
{
    CSR_SET(mstatus, MSTATUS_MIE);
}

/* In .text.hot with the service loop that calls it on every idle turn: a
   line of its own elsewhere could share an index of the 4 KiB
   direct-mapped instruction cache with the command path and evict it
   before every command (it once sat on cmd_ping's line: +25 cycles per
   PING). */
__attribute__((section(".text.hot"))) void hal_wait_for_interrupt(void)
{
    __asm__ volatile("wfi");
}

static struct {
    hal_irq_handler handler;
    void *ctx;
    uint32_t period;
    uint64_t next;
} timer;

/* CMP_HI to all ones first, so no half-written compare lies in the past. */
static void timer_arm(void)
{
    hal_write32(GMMU_TIMER_BASE + GMMU_TIMER_CMP_HI, 0xFFFFFFFFu);
    hal_write32(GMMU_TIMER_BASE + GMMU_TIMER_CMP_LO, (uint32_t)timer.next);
    hal_write32(GMMU_TIMER_BASE + GMMU_TIMER_CMP_HI, (uint32_t)(timer.next >> 32));
}

void hal_timer_every(uint32_t period, hal_irq_handler handler, void *ctx)
{
    timer.handler = handler;
    timer.ctx = ctx;
    timer.period = period;
    timer.next = hal_cycles() + period;
    timer_arm();
    CSR_SET(mie, MIE_MTIE);
}

static void dispatch_external(void)
{
    uint32_t pending;
    __asm__ volatile("csrr %0, " STR(CSR_EXT_IRQ_PENDING) : "=r"(pending));
    while (pending) {
        unsigned line = (unsigned)__builtin_ctz(pending);
        pending &= pending - 1;
        if (irq_table[line].handler)
            irq_table[line].handler(irq_table[line].ctx);
    }
}

static const char *exception_name(uint32_t cause)
{
    static const char *const names[] = {
        "instruction misaligned",
        "instruction access fault",
        "illegal instruction",
        "breakpoint",
        "load misaligned",
        "load access fault",
        "store misaligned",
        "store access fault",
        "ecall from U",
        "ecall from S",
        "reserved",
        "ecall from M",
    };
    return cause < sizeof(names) / sizeof(names[0]) ? names[cause] : "unknown";
}

/* A bus error means a firmware bug or broken hardware; the access itself
   completed with all ones, so stop before that value does damage. */
static void on_bus_error(void *ctx)
{
    (void)ctx;
    uint32_t status = hal_read32(GMMU_SYSCTL_BASE + GMMU_SYSCTL_BUSERR_STATUS);
    uint32_t addr = hal_read32(GMMU_SYSCTL_BASE + GMMU_SYSCTL_BUSERR_ADDR);
    printf("\nBUS ERROR: %s at 0x%08lx\n",
           (status & GMMU_SYSCTL_BUSERR_STATUS_WRITE) ? "write" : "read", (unsigned long)addr);
    hal_exit(GMMU_EXIT_BUS_ERROR);
}

/* Runs from the C library's init array, before main, in every image. */
__attribute__((constructor)) static void hal_init(void)
{
    hal_irq_attach(GMMU_IRQ_BUS_ERROR, on_bus_error, NULL);
    hal_irq_enable_global();
}

void hal_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
    if (mcause & MCAUSE_INTERRUPT) {
        uint32_t cause = mcause & ~MCAUSE_INTERRUPT;
        if (cause == MCAUSE_MACHINE_EXTERNAL) {
            dispatch_external();
            return;
        }
        if (cause == MCAUSE_MACHINE_TIMER) {
            if (!timer.handler) {
                hal_write32(GMMU_TIMER_BASE + GMMU_TIMER_CMP_HI, 0xFFFFFFFFu);
                return;
            }
            timer.next += timer.period;
            timer_arm();
            timer.handler(timer.ctx);
            return;
        }
    }
    /* An exception in firmware is a bug: report it and stop, never hang. */
    printf("\nTRAP: mcause=0x%08lx (%s) mepc=0x%08lx mtval=0x%08lx\n", (unsigned long)mcause,
           (mcause & MCAUSE_INTERRUPT) ? "unexpected interrupt" : exception_name(mcause),
           (unsigned long)mepc, (unsigned long)mtval);
    hal_exit(GMMU_EXIT_TRAP_BASE + (mcause & ~MCAUSE_INTERRUPT));
}
