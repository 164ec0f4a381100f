/* fiber_switch_aarch64.S: the context switch for AArch64 (AAPCS64): saves x19-x30, d8-d15, swaps stacks. */
#if defined(__aarch64__)
    .text
    .globl dsm_fiber_switch_asm
    .type dsm_fiber_switch_asm, %function
/* void dsm_fiber_switch_asm(void **save_sp, void *new_sp) */
dsm_fiber_switch_asm:
    sub sp, sp, #176
    stp x19, x20, [sp, #0]
    stp x21, x22, [sp, #16]
    stp x23, x24, [sp, #32]
    stp x25, x26, [sp, #48]
    stp x27, x28, [sp, #64]
    stp x29, x30, [sp, #80]
    stp d8, d9, [sp, #96]
    stp d10, d11, [sp, #112]
    stp d12, d13, [sp, #128]
    stp d14, d15, [sp, #144]
    mov x9, sp
    str x9, [x0]
    mov sp, x1
    ldp x19, x20, [sp, #0]
    ldp x21, x22, [sp, #16]
    ldp x23, x24, [sp, #32]
    ldp x25, x26, [sp, #48]
    ldp x27, x28, [sp, #64]
    ldp x29, x30, [sp, #80]
    ldp d8, d9, [sp, #96]
    ldp d10, d11, [sp, #112]
    ldp d12, d13, [sp, #128]
    ldp d14, d15, [sp, #144]
    add sp, sp, #176
    ret
    .size dsm_fiber_switch_asm, .-dsm_fiber_switch_asm

/* First entry of a fiber: x19 = entry, x20 = arg (set up by fiber_make). */
    .globl dsm_fiber_start_asm
    .type dsm_fiber_start_asm, %function
dsm_fiber_start_asm:
    mov x0, x20
    blr x19
    brk #0
    .size dsm_fiber_start_asm, .-dsm_fiber_start_asm
#endif
    .section .note.GNU-stack,"",%progbits
