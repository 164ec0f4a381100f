# ch04-capacity-h200.gp: idle SMs against cluster size at 1, 2, 3 and 8 CTAs per SM, from make bench's capacity sweep on an H200.
# csv: bench/results/bench-h200/ch04_capacity.csv
# The ch04_capacity family's CSV: columns 1-4 the driver's (gpu, clock, date, commit), 5 set (bare or
#   sweep), 7 cluster size, 8 threads, 9 shared memory per CTA, 15 idle SMs (unused CTA slots when
#   every resident cluster runs, in SMs). Drawn: the sweep rows at 128 threads per CTA with 16, 64,
#   100 and 160 KB (8, 3, 2 and 1 CTAs per SM). The other rows repeat two of these lines: 227 KB gives
#   the 160 KB numbers, and at 1024 threads 16 to 100 KB give the 100 KB line and 160 and 227 KB the 160 KB one.
# Points are drawn as circles: WeasyPrint (the PDF) cannot draw gnuplot's point symbols.
# Output: build/figures/ch04-capacity-h200.svg (mk/book.mk passes csv and out).
set terminal svg size 760,440 fixed enhanced font "DejaVu Sans,13" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
set grid ytics xtics lc rgb "#d5d9e0"
set border 3
set xtics 1,1,16 nomirror
set ytics nomirror
set xrange [0.5:16.5]
set yrange [0:*]
set xlabel "cluster size (CTAs)"
set ylabel "idle SMs"
# the legend outside the data; colour-blind-safe colours (Okabe-Ito) with a marker and a dash each
set key outside bottom center horizontal maxcols 2 samplen 2.5 font "DejaVu Sans,12"
row(smem) = strcol(5) eq "sweep" && $8 == 128 && $9 == smem
sizes = "16384 65536 102400 163840"
per_sm = "8 3 2 1"
colors = "#0072B2 #E69F00 #009E73 #D55E00"
plot for [i=1:4] csv using (row(word(sizes, i) + 0) ? $7 : NaN):15 smooth unique with linespoints lw 2 \
         dt i pt (i == 1 ? 7 : i == 2 ? 5 : i == 3 ? 9 : 13) ps 0.9 \
         lc rgb word(colors, i) title sprintf("%d KB per CTA: %s per SM", (word(sizes, i) + 0) / 1024, word(per_sm, i))
