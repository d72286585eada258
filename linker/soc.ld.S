/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Firmware linker script for the GPU MMU SoC. Run through the C
 * preprocessor so the memory map comes from include/gmmu/soc.h, the one
 * definition the RTL and docs also follow.
 *
 * Everything (code, data, heap, stack) lives in on-chip RAM, which the
 * simulator or the bitstream preloads with the whole image, so load and run
 * addresses are equal and start-up copies nothing. The symbols below serve
 * both C libraries: picolibc's crt0 (__data_*, __bss_*, __tls_base,
 * __stack), the firmware's newlib crt0 (firmware/sys/crt0_newlib.S:
 * __global_pointer$, __bss_start, __bss_end) and newlib's conventional _end.
 * Both libraries' sbrk serve malloc from __heap_start..__heap_end, which
 * stops STACK_BYTES short of the top of RAM, so the heap never reaches the
 * stack.
 */
#include <gmmu/soc.h>

OUTPUT_ARCH(riscv)
ENTRY(_reset)

MEMORY
{
    ram (rwx) : ORIGIN = GMMU_RAM_BASE, LENGTH = GMMU_RAM_SIZE
}

STACK_BYTES = 0x2000;

SECTIONS
{
    .text : {
        KEEP(*(.text.reset))            /* the reset vector is RAM_BASE */
        KEEP(*(.text.init.enter))
        KEEP(*(SORT_BY_NAME(.init) SORT_BY_NAME(.init.*)))
        /* The command service path, contiguous so it never evicts itself
           from the 4 KiB direct-mapped instruction cache. */
        *(.text.hot .text.hot.*)
        *(.text.unlikely .text.unlikely.*)
        *(.text.startup .text.startup.*)
        *(.text .text.*)
        KEEP(*(.fini .fini.*))
    } >ram

    .rodata : {
        *(.rodata .rodata.* .srodata .srodata.*)
        . = ALIGN(8);
        PROVIDE_HIDDEN(__preinit_array_start = .);
        KEEP(*(.preinit_array))
        PROVIDE_HIDDEN(__preinit_array_end = .);
        PROVIDE_HIDDEN(__init_array_start = .);
        KEEP(*(SORT_BY_INIT_PRIORITY(.init_array.*) SORT_BY_INIT_PRIORITY(.ctors.*)))
        KEEP(*(.init_array .ctors))
        PROVIDE_HIDDEN(__init_array_end = .);
        PROVIDE_HIDDEN(__fini_array_start = .);
        KEEP(*(SORT_BY_INIT_PRIORITY(.fini_array.*) SORT_BY_INIT_PRIORITY(.dtors.*)))
        KEEP(*(.fini_array .dtors))
        PROVIDE_HIDDEN(__fini_array_end = .);
    } >ram

    /* Aligned on the section, not inside it, so __data_start is the section
       start and crt0's copy from LOADADDR(.data) is an identity copy. */
    .data : ALIGN(8) {
        __data_start = .;
        *(.data .data.*)
        . = ALIGN(8);
        __global_pointer$ = . + 0x800;
        *(.sdata .sdata.* .sdata2.*)
    } >ram

    /* Thread-local storage template (picolibc keeps errno here). */
    .tdata : {
        __tls_base = .;
        *(.tdata .tdata.*)
        __data_end = .;
    } >ram
    __data_source = LOADADDR(.data);
    __data_size = __data_end - __data_start;
    _edata = __data_end;

    .tbss (NOLOAD) : {
        __bss_start = .;
        *(.tbss .tbss.*)
        *(.tcommon)
        __tls_end = .;
    } >ram
    /* The linker does not advance over .tbss; reserve its space by hand. */
    .tbss_space (NOLOAD) : {
        . = ADDR(.tbss) + SIZEOF(.tbss);
    } >ram
    __tls_size = __tls_end - __tls_base;
    __tls_align = MAX(ALIGNOF(.tdata), ALIGNOF(.tbss));
    __tbss_size = SIZEOF(.tbss);

    .bss (NOLOAD) : {
        *(.sbss .sbss.*)
        *(.bss .bss.*)
        *(COMMON)
        . = ALIGN(16);
        __bss_end = .;
    } >ram
    __bss_size = __bss_end - __bss_start;
    _end = __bss_end;
    end = __bss_end;

    __stack = ORIGIN(ram) + LENGTH(ram);
    __heap_start = __bss_end;
    __heap_end = __stack - STACK_BYTES;
    ASSERT(__heap_end >= __heap_start, "firmware does not fit: no room for the stack")

    /DISCARD/ : {
        *(.note .note.*)
        *(.eh_frame .eh_frame.*)
    }
}
