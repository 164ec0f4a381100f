# ch06-tile-sweep.gp: make bench's ch06_exchange family: the careful exchange's bytes crossing between SMs per second against tile size, DSMEM and global memory (clusters of 2, neighbour, 512 threads).
# csv: bench/results/bench-h200/ch06-tile-sweep.csv
# Columns: 5 path, 8 tile_bytes, 12 launch, 17 crossing_tbps.
#   gnuplot -e "csv='build/bench/latest/ch06-tile-sweep.csv'; out='x.svg'" figures/plots/ch06-tile-sweep.gp
set terminal svg size 760,400 fixed enhanced font "DejaVu Sans,13" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
set datafile missing NaN
set logscale x 2
set xrange [3.3:78]
set xtics ("4" 4, "8" 8, "16" 16, "32" 32, "64" 64) nomirror
set ytics nomirror
set yrange [0:*]
set xlabel "tile size (KB)"
set ylabel "TB/s crossing between SMs (median)"
set grid ytics lc rgb "#d5d9e0"
set border 3
set key outside right top vertical
pick(p) = strcol(5) eq p && strcol(12) eq "cudaSuccess" ? $17 : NaN
plot csv using ($8 / 1024):(pick("dsmem")) with linespoints lw 2 pt 7 lc rgb "#1f5f99" title "DSMEM", \
     '' using ($8 / 1024):(pick("gmem")) with linespoints lw 2 dt 2 pt 6 lc rgb "#b5541b" title "global memory"
