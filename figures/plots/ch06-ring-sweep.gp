# ch06-ring-sweep.gp: make bench's ch06_exchange family: the bulk-copy ring's bytes crossing between SMs per second against ring depth, per chunk size (clusters of 2, 576 threads).
# csv: bench/results/bench-h200/ch06-ring-sweep.csv
# Columns: 5 cluster, 6 stages, 7 chunk_bytes, 8 threads, 11 launch, 16 crossing_tbps, 18 kernel (ring_push, or
#   ring_global for the global-memory twin, dashed; runs before the twin have no column 18: all ring_push).
#   gnuplot -e "csv='build/bench/latest/ch06-ring-sweep.csv'; out='x.svg'" figures/plots/ch06-ring-sweep.gp
set terminal svg size 760,400 fixed enhanced font "DejaVu Sans,13" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
set datafile missing NaN
set logscale x 2
set xrange [0.8:10]
set xtics ("1" 1, "2" 2, "4" 4, "6" 6, "8" 8) nomirror
set ytics nomirror
set yrange [0:*]
set xlabel "ring depth (slots)"
set ylabel "TB/s crossing between SMs (median)"
set grid ytics lc rgb "#d5d9e0"
set border 3
set key outside right top vertical
# rows are not in stage order (the steps table's ring comes first): smooth unique sorts each curve by depth
# runs before the global twin have 17 columns: there every row is ring_push
stats csv using 5 nooutput
ncols = STATS_columns
twin(d) = ncols >= 18 ? (strcol(18) eq "ring_global") : 0
pick(c) = $5 == 2 && $8 == 576 && $7 == c && strcol(11) eq "cudaSuccess" && !twin(0) ? $16 : NaN
pickg(c) = $5 == 2 && $8 == 576 && $7 == c && strcol(11) eq "cudaSuccess" && twin(0) ? $16 : NaN
# the first, invisible curve holds every row, so that a run without these shapes (the dry run) still plots
if (ncols >= 18) {
  plot csv using 6:(strcol(11) eq "cudaSuccess" ? $16 : NaN) with points ps 0 lc rgb "white" notitle, \
       '' using 6:(pick(8192)) smooth unique with linespoints lw 2 pt 7 lc rgb "#8cc0ef" title "8 KB chunks", \
       '' using 6:(pick(16384)) smooth unique with linespoints lw 2 pt 5 lc rgb "#3b8fd9" title "16 KB chunks", \
       '' using 6:(pick(32768)) smooth unique with linespoints lw 2 pt 9 lc rgb "#1f5f99" title "32 KB chunks", \
       '' using 6:(pickg(8192)) smooth unique with linespoints lw 2 dt 2 pt 6 lc rgb "#f0c08f" title "global twin, 8 KB", \
       '' using 6:(pickg(16384)) smooth unique with linespoints lw 2 dt 2 pt 4 lc rgb "#e08a3c" title "global twin, 16 KB", \
       '' using 6:(pickg(32768)) smooth unique with linespoints lw 2 dt 2 pt 8 lc rgb "#b5541b" title "global twin, 32 KB"
} else {
  plot csv using 6:(strcol(11) eq "cudaSuccess" ? $16 : NaN) with points ps 0 lc rgb "white" notitle, \
       '' using 6:(pick(8192)) smooth unique with linespoints lw 2 pt 7 lc rgb "#8cc0ef" title "8 KB chunks", \
       '' using 6:(pick(16384)) smooth unique with linespoints lw 2 pt 5 lc rgb "#3b8fd9" title "16 KB chunks", \
       '' using 6:(pick(32768)) smooth unique with linespoints lw 2 pt 9 lc rgb "#1f5f99" title "32 KB chunks"
}
