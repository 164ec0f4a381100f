# bench-ch01-latency.gp: the latency ladder of make bench's ch01_latency family: cycles per dependent load, median with min-max bars.
# csv: bench/results/bench-h200/ch01_latency.csv
# Columns (bench/families/ch01_latency.c): 5 level, 7 cycles_per_load (median), 8 min, 9 max, 12 cluster_size.
# One bar per row, in the CSV's order: local, DSMEM in clusters of 2, 4, 8, 16, L2, HBM.
# Chapter 1 shows it drawn from the committed H200 run (build/figures/bench-ch01-latency.svg).
# Output out: an SVG. make bench runs it on each run folder's ch01_latency.csv (bench/driver/plots.sh):
#   gnuplot -e "csv='build/bench/latest/ch01_latency.csv'; out='build/bench/latest/bench-ch01-latency.svg'" figures/plots/bench-ch01-latency.gp
set terminal svg size 760,380 fixed enhanced font "DejaVu Sans,13" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
set style fill solid 0.85 border rgb "#1d1f23"
set boxwidth 0.6
set ylabel "SM cycles per dependent load (median, min-max)"
set yrange [0:*]
set offsets 0.5, 0.5, graph 0.12, 0
set grid ytics lc rgb "#d5d9e0"
set border 3
set xtics nomirror scale 0 rotate by -20 font "DejaVu Sans,11"
set ytics nomirror
set key off
short(s, c) = strstrt(s, "DSMEM") > 0 ? sprintf("DSMEM, %d CTAs", c) : (strstrt(s, "local") > 0 ? "local shared" : s)
colour(s) = strstrt(s, "DSMEM") > 0 ? 0x1f5f99 : (strstrt(s, "local") > 0 ? 0x5b8fc7 : 0xc8553d)
plot csv using 0:7:(colour(strcol(5))):xtic(short(strcol(5), int(column(12)))) with boxes lc rgb variable, \
     '' using 0:8:(0):($9-$8) with vectors nohead lw 1.5 lc rgb "#1d1f23", \
     '' using 0:9:(sprintf("%.0f", $7)) with labels offset 0,0.8 font "DejaVu Sans,12"
