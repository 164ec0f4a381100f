# ch06-pattern-sweep.gp: make bench's ch06_exchange family: bytes crossing between SMs per second against cluster size, per traffic pattern, DSMEM and global memory.
# csv: bench/results/bench-h200/ch06-pattern-sweep.csv
# Columns: 5 path (dsmem|gmem), 6 pattern, 7 cluster, 12 launch, 17 crossing_tbps. One row per path x pattern x cluster size
# (16 KB tiles, 512 threads, as many clusters as fit). Run by bench/driver/plots.sh and the book:
#   gnuplot -e "csv='build/bench/latest/ch06-pattern-sweep.csv'; out='x.svg'" figures/plots/ch06-pattern-sweep.gp
set terminal svg size 760,400 fixed enhanced font "DejaVu Sans,13" background rgb "white"
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
set key outside right top vertical
ok(p, pat) = strcol(5) eq p && strcol(6) eq pat && strcol(12) eq "cudaSuccess"
pick(p, pat) = ok(p, pat) ? $17 : NaN
plot csv using 7:(pick("dsmem", "neighbour")) with linespoints lw 2 pt 7 lc rgb "#1f5f99" title "DSMEM, neighbour", \
     '' using 7:(pick("dsmem", "permutation")) with linespoints lw 2 pt 5 lc rgb "#3b8fd9" title "DSMEM, permutation", \
     '' using 7:(pick("dsmem", "all-to-all")) with linespoints lw 2 pt 9 lc rgb "#8cc0ef" title "DSMEM, all-to-all", \
     '' using 7:(pick("gmem", "neighbour")) with linespoints lw 2 dt 2 pt 6 lc rgb "#b5541b" title "global, neighbour", \
     '' using 7:(pick("gmem", "permutation")) with linespoints lw 2 dt 2 pt 4 lc rgb "#e08a3c" title "global, permutation", \
     '' using 7:(pick("gmem", "all-to-all")) with linespoints lw 2 dt 2 pt 8 lc rgb "#f0c08f" title "global, all-to-all"
