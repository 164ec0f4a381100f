/* fiber_switch_x86_64.S: the context switch for x86-64 (System V): saves callee-saved registers, swaps stacks. */
#if defined(__x86_64__)
    .text
    .globl dsm_fiber_switch_asm
    .type dsm_fiber_switch_asm, @function
/* void dsm_fiber_switch_asm(void **save_sp, void *new_sp) */
dsm_fiber_switch_asm:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size dsm_fiber_switch_asm, .-dsm_fiber_switch_asm

/* First entry of a fiber: r12 = entry, r13 = arg (set up by fiber_make). */
    .globl dsm_fiber_start_asm
    .type dsm_fiber_start_asm, @function
dsm_fiber_start_asm:
    movq %r13, %rdi
    callq *%r12
    ud2
    .size dsm_fiber_start_asm, .-dsm_fiber_start_asm
#endif
    .section .note.GNU-stack,"",@progbits
