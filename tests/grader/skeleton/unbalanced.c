/* unbalanced.c: a solution region that is never closed. */
int f(void)
{
    // BEGIN SOLUTION
    return 1;
}
