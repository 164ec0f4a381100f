# ch07-operand.gp: make bench's ch07_multicast family: own data beside a shared operand (mcast_operand), multicast's speedup over per-CTA loading against cluster size, per source of the two streams, 32 KB steps with 90 % (left panel) and 50 % (right panel) of each step operand (with 16 KB steps multicast is 0.86 to 1.02 times per-CTA loading in clusters of 2, 0.41 to 0.45 in clusters of 16).
# csv: bench/results/bench-h200/ch07_multicast_operand.csv
# Columns: 5 cluster, 6 step_bytes, 7 operand_pct, 8 own_from, 9 operand_from, 10 mode, 13 launch, 20 speedup_vs_per_cta.
#   gnuplot -e "csv='build/bench/latest/ch07_multicast_operand.csv'; out='x.svg'" figures/plots/ch07-operand.gp
set terminal svg size 760,460 fixed enhanced font "DejaVu Sans,13" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
set datafile missing NaN
set logscale x 2
set xrange [1.7:19]
set xtics ("2" 2, "4" 4, "8" 8, "16" 16) nomirror
set ytics nomirror
set xlabel "CTAs per cluster"
set grid ytics lc rgb "#d5d9e0"
set border 3
set yrange [0.2:1.35]
# one panel per operand share (4 curves and the break-even line each); one legend under both.
# Colour-blind-safe colours (Okabe-Ito) with a marker and a dash per pair of sources.
set bmargin 7.5
ok(o, p, s) = $6 == 32768 && $7 == s && strcol(8) eq o && strcol(9) eq p && strcol(10) eq "multicast" && strcol(13) eq "cudaSuccess"
pick(o, p, s) = ok(o, p, s) ? $20 : NaN
set multiplot layout 1,2
set ylabel "per-CTA time / multicast time"
set title "90 % of each step operand" font "DejaVu Sans,13"
set key at screen 0.5, screen 0.015 center bottom horizontal maxcols 3 samplen 2.5 font "DejaVu Sans,12"
plot 1 with lines lw 1.5 dt 3 lc rgb "#555555" title "break-even", \
     csv using 5:(pick("L2", "L2", 90)) with linespoints lw 2.5 dt 1 pt 7 ps 1.1 lc rgb "#0072B2" title "own L2, operand L2", \
     '' using 5:(pick("L2", "HBM", 90)) with linespoints lw 2.5 dt 2 pt 5 ps 1.1 lc rgb "#56B4E9" title "own L2, operand HBM", \
     '' using 5:(pick("HBM", "L2", 90)) with linespoints lw 2.5 dt 4 pt 9 ps 1.3 lc rgb "#D55E00" title "own HBM, operand L2", \
     '' using 5:(pick("HBM", "HBM", 90)) with linespoints lw 2.5 dt 5 pt 13 ps 1.3 lc rgb "#E69F00" title "own HBM, operand HBM"
unset ylabel
unset key
set title "50 % of each step operand" font "DejaVu Sans,13"
plot 1 with lines lw 1.5 dt 3 lc rgb "#555555" notitle, \
     csv using 5:(pick("L2", "L2", 50)) with linespoints lw 2.5 dt 1 pt 7 ps 1.1 lc rgb "#0072B2" notitle, \
     '' using 5:(pick("L2", "HBM", 50)) with linespoints lw 2.5 dt 2 pt 5 ps 1.1 lc rgb "#56B4E9" notitle, \
     '' using 5:(pick("HBM", "L2", 50)) with linespoints lw 2.5 dt 4 pt 9 ps 1.3 lc rgb "#D55E00" notitle, \
     '' using 5:(pick("HBM", "HBM", 50)) with linespoints lw 2.5 dt 5 pt 13 ps 1.3 lc rgb "#E69F00" notitle
unset multiplot
