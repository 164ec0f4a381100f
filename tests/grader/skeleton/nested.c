/* nested.c: a solution region opened inside another. */
int f(void)
{
    // BEGIN SOLUTION
    // BEGIN SOLUTION
    return 1;
    // END SOLUTION
}
