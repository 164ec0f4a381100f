# latency_ladder.gp: bar chart of the latency ladder measured by make bench.
# Input csv: bench/results/latency_ladder.csv, a header line, then one row per level:
#   level,cycles[,more columns ignored]   e.g. "local shared,33"
# Output out: build/figures/latency_ladder.svg. mk/book.mk runs it only when the CSV exists:
#   gnuplot -e "csv='bench/results/latency_ladder.csv'; out='build/figures/latency_ladder.svg'" latency_ladder.gp
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
plot csv using 2:xtic(1) lc rgb "#1f5f99", \
     '' using 0:2:(sprintf("%.0f", $2)) with labels offset 0,0.8 font "DejaVu Sans,12"
