# ch07-operand.gp: make bench's ch07_multicast family: own data beside a shared operand (mcast_operand), multicast's speedup over per-CTA loading against cluster size, per source of the two streams, 32 KB steps with 90 % (solid) and 50 % (dashed) of each step operand (with 16 KB steps multicast stays between 0.94 and 1.05 times per-CTA loading everywhere).
# csv: bench/results/bench-h200/ch07_multicast_operand.csv
# Columns: 5 cluster, 6 step_bytes, 7 operand_pct, 8 own_from, 9 operand_from, 10 mode, 13 launch, 20 speedup_vs_per_cta.
#   gnuplot -e "csv='build/bench/latest/ch07_multicast_operand.csv'; out='x.svg'" figures/plots/ch07-operand.gp
set terminal svg size 760,400 fixed enhanced font "DejaVu Sans,13" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
set datafile missing NaN
set logscale x 2
set xrange [1.7:19]
set xtics ("2" 2, "4" 4, "8" 8, "16" 16) nomirror
set ytics nomirror
set xlabel "CTAs per cluster"
set ylabel "per-CTA time / multicast time"
set grid ytics lc rgb "#d5d9e0"
set border 3
set key outside right top vertical
set yrange [0.8:1.35]
ok(o, p, s) = $6 == 32768 && $7 == s && strcol(8) eq o && strcol(9) eq p && strcol(10) eq "multicast" && strcol(13) eq "cudaSuccess"
pick(o, p, s) = ok(o, p, s) ? $20 : NaN
plot 1 with lines lw 1 dt 3 lc rgb "#555555" title "break-even", \
     csv using 5:(pick("L2", "L2", 90)) with linespoints lw 2 pt 7 lc rgb "#1f5f99" title "90 %: own L2, operand L2", \
     '' using 5:(pick("L2", "HBM", 90)) with linespoints lw 2 pt 5 lc rgb "#3b8fd9" title "90 %: own L2, operand HBM", \
     '' using 5:(pick("HBM", "L2", 90)) with linespoints lw 2 pt 9 lc rgb "#b5541b" title "90 %: own HBM, operand L2", \
     '' using 5:(pick("HBM", "HBM", 90)) with linespoints lw 2 pt 11 lc rgb "#e08a3c" title "90 %: own HBM, operand HBM", \
     '' using 5:(pick("L2", "L2", 50)) with linespoints lw 2 dt 2 pt 6 lc rgb "#1f5f99" title "50 %: own L2, operand L2", \
     '' using 5:(pick("L2", "HBM", 50)) with linespoints lw 2 dt 2 pt 4 lc rgb "#3b8fd9" title "50 %: own L2, operand HBM", \
     '' using 5:(pick("HBM", "L2", 50)) with linespoints lw 2 dt 2 pt 8 lc rgb "#b5541b" title "50 %: own HBM, operand L2", \
     '' using 5:(pick("HBM", "HBM", 50)) with linespoints lw 2 dt 2 pt 10 lc rgb "#e08a3c" title "50 %: own HBM, operand HBM"
