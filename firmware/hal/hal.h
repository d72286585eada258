// SPDX-License-Identifier: Apache-2.0
/*
 * Hardware abstraction layer: the only code that touches SoC registers.
 * Portable modules in firmware/lib never include this; they are handed what
 * they need (memory windows, callbacks) so they also build on the host.
 */
#ifndef GMMU_HAL_H
#define GMMU_HAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gmmu/soc.h>

static inline uint32_t hal_read32(uintptr_t addr)
{
    return *(volatile uint32_t *)addr;
}

static inline void hal_write32(uintptr_t addr, uint32_t value)
{
    *(volatile uint32_t *)addr = value;
}

/* Console */
void hal_console_putc(char c);

/* Timer */
uint64_t hal_cycles(void);

/* Low 32 bits of the cycle counter: one bus read, for short intervals. */
static inline uint32_t hal_cycles32(void)
{
    return hal_read32(GMMU_TIMER_BASE + GMMU_TIMER_CYCLE_LO);
}

/* Platform */
uint32_t hal_boot_arg(void);
uint64_t hal_ddr_size(void);
_Noreturn void hal_exit(uint32_t code);

/* DDR: CPU pointers to a DDR offset through either alias. */
static inline volatile void *hal_ddr_uncached(uint64_t offset)
{
    return (volatile void *)(uintptr_t)(GMMU_DDR_BASE + (uint32_t)offset);
}

static inline const volatile void *hal_ddr_cached(uint64_t offset)
{
    return (const volatile void *)(uintptr_t)(GMMU_DDR_CACHED_BASE + (uint32_t)offset);
}

/* Drop every line of the CPU data cache, so cached-alias reads see what the
   hardware or the uncached alias wrote. */
static inline void hal_dcache_invalidate(void)
{
    /* VexRiscv's data-cache flush instruction (a custom MISC-MEM encoding);
       the assembler has no mnemonic for it. */
    __asm__ volatile(".word 0x0000500F" ::: "memory");
}

/* Interrupts */
typedef void (*hal_irq_handler)(void *ctx);
void hal_irq_attach(unsigned line, hal_irq_handler handler, void *ctx);
void hal_irq_enable_global(void);
/* A level line whose source only the main loop can clear (a FIFO to drain)
   is masked by its handler and unmasked once the loop has drained it. */
void hal_irq_mask(unsigned line);
void hal_irq_unmask(unsigned line);
void hal_wait_for_interrupt(void);
/* Runs handler from the machine-timer interrupt every period cycles from
   now on (the timer's compare re-armed each time; late ticks catch up). */
void hal_timer_every(uint32_t period, hal_irq_handler handler, void *ctx);

/* Called from trap_entry. Interrupts are dispatched; exceptions are fatal. */
void hal_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval);

#endif /* GMMU_HAL_H */
