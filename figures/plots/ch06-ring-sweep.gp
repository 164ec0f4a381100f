# ch06-ring-sweep.gp: make bench's ch06_exchange family: the bulk-copy ring's bytes crossing between SMs per second against ring depth, per chunk size (clusters of 2, 576 threads).
# csv: bench/results/bench-h200/ch06-ring-sweep.csv
# Columns: 5 cluster, 6 stages, 7 chunk_bytes, 8 threads, 11 launch, 16 crossing_tbps, 18 kernel (ring_push, or
#   ring_global for the global-memory twin, dashed; runs before the twin have no column 18: all ring_push).
#   gnuplot -e "csv='build/bench/latest/ch06-ring-sweep.csv'; out='x.svg'" figures/plots/ch06-ring-sweep.gp
set terminal svg size 760,420 fixed enhanced font "DejaVu Sans,13" background rgb "white"
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
set grid ytics lc rgb "#d5d9e0"
set border 3
# one panel per medium (at most 3 curves each), the legend under the panels; colour-blind-safe
# colours (Okabe-Ito) with a marker and a dash per chunk size as the second cue
set key outside bottom center horizontal samplen 2.5 font "DejaVu Sans,12"
# rows are not in stage order (the steps table's ring comes first): smooth unique sorts each curve by depth
# runs before the global twin have 17 columns: there every row is ring_push
stats csv using 5 nooutput
ncols = STATS_columns
twin(d) = ncols >= 18 ? (strcol(18) eq "ring_global") : 0
pick(c) = $5 == 2 && $8 == 576 && $7 == c && strcol(11) eq "cudaSuccess" && !twin(0) ? $16 : NaN
pickg(c) = $5 == 2 && $8 == 576 && $7 == c && strcol(11) eq "cudaSuccess" && twin(0) ? $16 : NaN
stats csv using (strcol(11) eq "cudaSuccess" ? $16 : NaN) nooutput
set yrange [0:(STATS_max > 0 ? STATS_max * 1.08 : 1)]   # a dry run measures zeros
set bmargin 6.5
set multiplot layout 1,2
set ylabel "TB/s crossing between SMs (median)"
set title "DSMEM ring (ring\\_push)" font "DejaVu Sans,13"
# the first, invisible curve holds every row, so that a run without these shapes (the dry run) still plots
plot csv using 6:(strcol(11) eq "cudaSuccess" ? $16 : NaN) with points ps 0 lc rgb "white" notitle, \
     '' using 6:(pick(8192)) smooth unique with linespoints lw 2.5 dt 1 pt 7 ps 1.1 lc rgb "#0072B2" title "8 KB chunks", \
     '' using 6:(pick(16384)) smooth unique with linespoints lw 2.5 dt 2 pt 5 ps 1.1 lc rgb "#E69F00" title "16 KB chunks", \
     '' using 6:(pick(32768)) smooth unique with linespoints lw 2.5 dt 4 pt 9 ps 1.3 lc rgb "#009E73" title "32 KB chunks"
unset ylabel
set title "global-memory twin" font "DejaVu Sans,13"
if (ncols >= 18) {
  plot csv using 6:(strcol(11) eq "cudaSuccess" ? $16 : NaN) with points ps 0 lc rgb "white" notitle, \
       '' using 6:(pickg(8192)) smooth unique with linespoints lw 2.5 dt 1 pt 7 ps 1.1 lc rgb "#0072B2" title "8 KB chunks", \
       '' using 6:(pickg(16384)) smooth unique with linespoints lw 2.5 dt 2 pt 5 ps 1.1 lc rgb "#E69F00" title "16 KB chunks", \
       '' using 6:(pickg(32768)) smooth unique with linespoints lw 2.5 dt 4 pt 9 ps 1.3 lc rgb "#009E73" title "32 KB chunks"
} else {
  set label 1 "no global twin in this run" at graph 0.5, graph 0.5 center
  plot csv using 6:(strcol(11) eq "cudaSuccess" ? $16 : NaN) with points ps 0 lc rgb "white" notitle
}
unset multiplot
