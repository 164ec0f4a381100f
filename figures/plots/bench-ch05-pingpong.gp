# bench-ch05-pingpong.gp: cycles per hop of every signalling mechanism of make bench's ch05_pingpong family, DSMEM blue, global memory orange.
# csv: bench/results/bench-h200/ch05_pingpong.csv
# Columns (bench/families/ch05_pingpong.c): 5 mechanism, 6 path (DSMEM or global), 10 cycles_per_hop (median), 11 min, 12 max.
# Output out: an SVG; bench/driver/plots.sh runs it on each run folder:
#   gnuplot -e "csv='build/bench/latest/ch05_pingpong.csv'; out='build/bench/latest/bench-ch05-pingpong.svg'" figures/plots/bench-ch05-pingpong.gp
set terminal svg size 820,380 fixed enhanced font "DejaVu Sans,13" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
set style fill solid 0.85 border rgb "#1d1f23"
set boxwidth 0.6
set ylabel "SM cycles per hop (median, min-max)"
set yrange [0:*]
set offsets 0.5, 0.5, graph 0.12, 0
set grid ytics lc rgb "#d5d9e0"
set border 3
set xtics nomirror scale 0 rotate by -30 font "DejaVu Sans,11" noenhanced
set ytics nomirror
set key off
colour(p) = p eq "global" ? 0xc8553d : 0x1f5f99
plot csv using 0:10:(colour(strcol(6))):xtic(strcol(5)) with boxes lc rgb variable, \
     '' using 0:11:(0):($12-$11) with vectors nohead lw 1.5 lc rgb "#1d1f23", \
     '' using 0:12:(sprintf("%.0f", $10)) with labels offset 0,0.8 font "DejaVu Sans,11"
