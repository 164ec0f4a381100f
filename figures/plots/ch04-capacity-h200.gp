# ch04-capacity-h200.gp: idle SMs against cluster size for five shared-memory sizes per CTA, from make bench's capacity sweep on an H200.
# csv: bench/results/bench-h200/ch04_capacity.csv
# The ch04_capacity family's CSV: columns 1-4 the driver's (gpu, clock, date, commit), 5 set (bare or
#   sweep), 7 cluster size, 8 threads, 9 shared memory per CTA, 15 idle SMs (unused CTA slots when
#   every resident cluster runs, in SMs). Drawn: the sweep rows at 1024 threads per CTA.
# Points are drawn as circles: WeasyPrint (the PDF) cannot draw gnuplot's point symbols.
# Output: build/figures/ch04-capacity-h200.svg (mk/book.mk passes csv and out).
set terminal svg size 760,400 fixed enhanced font "DejaVu Sans,13" background rgb "white"
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
set key top left
row(smem) = strcol(5) eq "sweep" && $8 == 1024 && $9 == smem
sizes = "16384 65536 102400 163840 232448"
colors = "#7aa6d1 #1f5f99 #2e7d32 #c77c02 #c62828"
plot for [i=1:5] csv using (row(word(sizes, i) + 0) ? $7 : NaN):15 smooth unique with lines lw 2 \
         lc rgb word(colors, i) title sprintf("%d KB per CTA", (word(sizes, i) + 0) / 1024), \
     for [i=1:5] '' using (row(word(sizes, i) + 0) ? $7 : NaN):15:(0.12) with circles fill solid \
         lc rgb word(colors, i) notitle
