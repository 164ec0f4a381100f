/* stray.c: a //~ line outside any solution region. */
int f(void)
{
    //~ return 0;
    return 1;
}
