/* audit.c: `bench_driver --audit RUN`: does a run folder keep its promise that no row of a kernel that failed a check carries a number? */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

/* " a b c ": the kernels of RUN/failed_kernels.txt (first word of each line). */
static void read_failed(const char *run, text *failed)
{
    char path[1200], line[512];
    snprintf(path, sizeof path, "%s/failed_kernels.txt", run);
    text_printf(failed, " ");
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    while (fgets(line, sizeof line, f) != NULL) {
        char name[160];
        if (sscanf(line, "%159s", name) == 1)
            text_printf(failed, "%s ", name);
    }
    fclose(f);
}

int audit_run(const char *run, const char *expect_failed)
{
    text failed = {0};
    read_failed(run, &failed);
    int problems = 0, tables = 0, audited_tables = 0;

    /* The kernels the caller knows to be unfinished must be among the failed ones. */
    if (expect_failed && expect_failed[0]) {
        char list[2048], *save = NULL;
        snprintf(list, sizeof list, "%s", expect_failed);
        for (char *k = strtok_r(list, ", ", &save); k; k = strtok_r(NULL, ", ", &save)) {
            char word[160];
            snprintf(word, sizeof word, " %s ", k);
            if (strstr(failed.s, word) == NULL) {
                printf("  %s is unfinished, but the run did not name it among its failed kernels\n", k);
                ++problems;
            }
        }
    }
    DIR *d = opendir(run);
    if (d == NULL) {
        printf("bench audit: cannot open %s\n", run);
        text_free(&failed);
        return 2;
    }
    for (struct dirent *e = readdir(d); e; e = readdir(d)) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".csv") != 0)
            continue;
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", run, e->d_name);
        int audited = 0;
        problems += csv_audit_file(path, failed.s, stdout, &audited);
        ++tables;
        audited_tables += audited;
    }
    closedir(d);
    printf("bench audit: %s: failed kernels:%s; %d of %d tables audited; %d problems\n", run,
           strcmp(failed.s, " ") == 0 ? " none " : failed.s, audited_tables, tables, problems);
    text_free(&failed);
    return problems ? 1 : 0;
}
