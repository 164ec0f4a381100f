# ch04-histogram-h200.gp: the big histogram's throughput against cluster size on an H200, with the global-atomics baseline.
# csv: bench/results/bench-h200/ch04_histogram.csv
# The ch04_capacity family's CSV (make bench): columns 1-4 gpu, clock, date, commit (the driver's),
#   5 variant (dsmem or global), 8 cluster size, 9 clusters launched, and the G inputs per second in the
#   column named ginputs_per_s (14 in runs before the status column came in, 15 since: read by name).
#   Shapes that did not fit have an empty time and failed rows "failed": neither is drawn.
# Points are drawn as circles: WeasyPrint (the PDF) cannot draw gnuplot's point symbols.
# Output: build/figures/ch04-histogram-h200.svg (mk/book.mk passes csv and out).
set terminal svg size 760,400 fixed enhanced font "DejaVu Sans,13" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
set grid ytics xtics lc rgb "#d5d9e0"
set border 3
set xtics 2,1,16 nomirror
set ytics nomirror
set xrange [1.5:16.5]
set yrange [0:*]
set xlabel "cluster size (CTAs holding the 96 K bins)"
set ylabel "G inputs per second"
set key outside bottom center horizontal samplen 2.5  # the legend outside the data
set bmargin 6
# The baseline has one row; store its rate to draw it as a line across the plot.
global = NaN
stats csv using (strcol(5) eq "global" ? column("ginputs_per_s") : NaN) nooutput
global = STATS_max
plot csv using (strcol(5) eq "dsmem" ? $8 : NaN):(column("ginputs_per_s")) smooth unique with lines lw 2 lc rgb "#1f5f99" \
         title "DSMEM: bins in the cluster's shared memory", \
     '' using (strcol(5) eq "dsmem" ? $8 : NaN):(column("ginputs_per_s")):(0.12) with circles fill solid lc rgb "#1f5f99" notitle, \
     global with lines lw 2 dt 2 lc rgb "#c62828" title "global atomics on the same bins"
