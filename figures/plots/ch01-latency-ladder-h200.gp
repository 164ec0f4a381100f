# ch01-latency-ladder-h200.gp: bar chart of the latency ladder measured on an H200 by the retired bench/ch01/latency_ladder.c (now make bench's ch01_latency family).
# Input csv: bench/results/ch01-latency-ladder-h200.csv (the program's CSV: column 6 the level,
#   column 8 the median cycles per load; the first four rows are the first run).
# Kept as history with its CSV: chapter 1 now shows bench-ch01-latency.gp, drawn from
#   bench/results/bench-h200/ch01_latency.csv (2026-12-01), and no longer this plot.
# Output out: build/figures/ch01-latency-ladder-h200.svg; mk/book.mk runs it only when the CSV exists:
#   gnuplot -e "csv='bench/results/ch01-latency-ladder-h200.csv'; out='build/figures/ch01-latency-ladder-h200.svg'" ch01-latency-ladder-h200.gp
set terminal svg size 720,360 fixed enhanced font "DejaVu Sans,13" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb "#1d1f23"
set boxwidth 0.7
set ylabel "cycles per dependent load"
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set grid ytics lc rgb "#d5d9e0"
set border 3
set xtics nomirror scale 0
set ytics nomirror
set key off
short(s) = strstrt(s, "DSMEM") > 0 ? "DSMEM (peer CTA)" : (strstrt(s, "local") > 0 ? "local shared" : s)
plot csv every ::0::3 using 8:xtic(short(strcol(6))) lc rgb "#1f5f99", \
     '' every ::0::3 using 0:8:(sprintf("%.0f", $8)) with labels offset 0,0.8 font "DejaVu Sans,12"
