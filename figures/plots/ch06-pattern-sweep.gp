# ch06-pattern-sweep.gp: make bench's ch06_exchange family: bytes crossing between SMs per second against cluster size, per traffic pattern, DSMEM and global memory.
# csv: bench/results/bench-h200/ch06-pattern-sweep.csv
# Columns: 5 path (dsmem|gmem), 6 pattern, 7 cluster, 12 launch, 17 crossing_tbps. One row per path x pattern x cluster size
# (16 KB tiles, 512 threads, as many clusters as fit). Run by bench/driver/plots.sh and the book:
#   gnuplot -e "csv='build/bench/latest/ch06-pattern-sweep.csv'; out='x.svg'" figures/plots/ch06-pattern-sweep.gp
set terminal svg size 760,420 fixed enhanced font "DejaVu Sans,13" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
set datafile missing NaN
set logscale x 2
set xrange [1.7:19]
set xtics ("2" 2, "4" 4, "8" 8, "16" 16) nomirror
set ytics nomirror
set yrange [0:*]
set xlabel "CTAs per cluster"
set ylabel "TB/s crossing between SMs (median)"
set grid ytics lc rgb "#d5d9e0"
set border 3
# one panel per medium (3 curves each), the legend under them; colour-blind-safe colours
# (Okabe-Ito) with a marker and a dash per pattern
set key outside bottom center horizontal samplen 2.5 font "DejaVu Sans,12"
ok(p, pat) = strcol(5) eq p && strcol(6) eq pat && strcol(12) eq "cudaSuccess"
pick(p, pat) = ok(p, pat) ? $17 : NaN
stats csv using (strcol(12) eq "cudaSuccess" ? $17 : NaN) nooutput
set yrange [0:(STATS_max > 0 ? STATS_max * 1.08 : 1)]   # a dry run measures zeros
set bmargin 6.5
set multiplot layout 1,2
set title "DSMEM" font "DejaVu Sans,13"
plot csv using 7:(pick("dsmem", "neighbour")) with linespoints lw 2.5 dt 1 pt 7 ps 1.1 lc rgb "#0072B2" title "neighbour", \
     '' using 7:(pick("dsmem", "permutation")) with linespoints lw 2.5 dt 2 pt 5 ps 1.1 lc rgb "#E69F00" title "permutation", \
     '' using 7:(pick("dsmem", "all-to-all")) with linespoints lw 2.5 dt 4 pt 9 ps 1.3 lc rgb "#009E73" title "all-to-all"
unset ylabel
set title "global memory" font "DejaVu Sans,13"
plot csv using 7:(pick("gmem", "neighbour")) with linespoints lw 2.5 dt 1 pt 7 ps 1.1 lc rgb "#0072B2" title "neighbour", \
     '' using 7:(pick("gmem", "permutation")) with linespoints lw 2.5 dt 2 pt 5 ps 1.1 lc rgb "#E69F00" title "permutation", \
     '' using 7:(pick("gmem", "all-to-all")) with linespoints lw 2.5 dt 4 pt 9 ps 1.3 lc rgb "#009E73" title "all-to-all"
unset multiplot
