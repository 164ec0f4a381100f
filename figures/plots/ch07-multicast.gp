# ch07-multicast.gp: make bench's ch07_multicast family: what every CTA of a cluster needs, loaded per CTA or once per cluster with multicast: bytes delivered into shared memory (solid) and fetched from L2 (dashed) per second against cluster size, from L2 and from HBM.
# csv: bench/results/bench-h200/ch07_multicast.csv
# Columns: 5 data (L2|HBM), 6 cluster, 7 mode (per-CTA|multicast), 8 chunk_bytes, 9 stages, 13 launch, 18 delivered_tbps,
# 19 fetched_tbps. The main shape only (8 slots of 16 KB); the rows of other shapes are the ring-shape sweep.
#   gnuplot -e "csv='build/bench/latest/ch07_multicast.csv'; out='x.svg'" figures/plots/ch07-multicast.gp
set terminal svg size 760,420 fixed enhanced font "DejaVu Sans,13" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
set datafile missing NaN
set logscale x 2
set xrange [0.8:19]
set xtics ("1" 1, "2" 2, "4" 4, "8" 8, "16" 16) nomirror
set ytics nomirror
set yrange [0:*]
set xlabel "CTAs per cluster"
set ylabel "TB/s (median)"
set grid ytics lc rgb "#d5d9e0"
set border 3
# one panel per source (3 curves each), the legend under them; colour-blind-safe colours
# (Okabe-Ito) with a marker, and dashed for what is fetched
set key outside bottom center horizontal samplen 2.5 font "DejaVu Sans,12"
ok(d, m) = strcol(5) eq d && strcol(7) eq m && $8 == 16384 && $9 == 8 && strcol(13) eq "cudaSuccess"
delivered(d, m) = ok(d, m) ? $18 : NaN
fetched(d, m) = ok(d, m) ? $19 : NaN
set bmargin 6.5
set multiplot layout 1,2
do for [src in "L2 HBM"] {
    set title "from ".src font "DejaVu Sans,13"
    plot csv using 6:(delivered(src, "per-CTA")) with linespoints lw 2.5 dt 1 pt 7 ps 1.1 lc rgb "#0072B2" title "per CTA", \
         '' using 6:(delivered(src, "multicast")) with linespoints lw 2.5 dt 1 pt 5 ps 1.1 lc rgb "#D55E00" title "multicast: delivered", \
         '' using 6:(fetched(src, "multicast")) with linespoints lw 2.5 dt 2 pt 4 ps 1.1 lc rgb "#D55E00" title "multicast: fetched"
    unset ylabel
}
unset multiplot
