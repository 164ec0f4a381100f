# ch04-occupancy-h200.gp: resident clusters and idle SMs against cluster size on an H200, from the occupancy probe's sweeps.
# csv: bench/results/occupancy_h200.csv
# date: 2026-11-29
# driver: 580.159.04 / CUDA 13.0
# The probe's CSV (bench/hw/occupancy_probe): column 4 the set, 6 the cluster size,
#   13 the max active clusters, 14 the CTAs resident. Sweeps over cluster sizes 1..16 at 2 CTAs
#   per SM (sweep_1024t_64k, sweep_128t_100k: the same answers) and at 1 (sweep_1024t_160k).
#   Idle SMs = 132 - CTAs resident / CTAs per SM.
# Points are drawn as circles: WeasyPrint (the PDF) cannot draw gnuplot's point symbols.
# Output: build/figures/ch04-occupancy-h200.svg (mk/book.mk passes csv and out):
#   gnuplot -e "csv='bench/results/occupancy_h200.csv'; out='build/figures/ch04-occupancy-h200.svg'" ch04-occupancy-h200.gp
set terminal svg size 760,620 fixed enhanced font "DejaVu Sans,13" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
is(set_name) = strcol(4) eq set_name
# The two sweeps at 2 CTAs per SM gave the same numbers; together their rows are contiguous, so the line is unbroken.
two_per_sm(dummy) = is("sweep_1024t_64k") || is("sweep_128t_100k")
# Each panel's legend sits outside its data, at a fixed place on the canvas: the top panel's above it,
#   the bottom panel's in the gap between the panels (the margins leave room for both).
set multiplot layout 2,1 margins 0.1,0.97,0.1,0.89 spacing 0,0.12
set grid ytics xtics lc rgb "#d5d9e0"
set border 3
set xtics 1,1,16 nomirror
set ytics nomirror
set xrange [0.5:16.5]
set key at screen 0.5, screen 0.985 center top vertical maxrows 2 samplen 2.5 font "DejaVu Sans,12"
set ylabel "resident clusters"
set logscale y 2
set yrange [4:512]
plot csv using (two_per_sm(0) ? $6 : NaN):13 smooth unique with lines lw 2 lc rgb "#1f5f99" title "2 CTAs per SM (64 KB and 1024 threads, or 100 KB and 128)", \
     ''  using (is("sweep_1024t_160k") ? $6 : NaN):13 smooth unique with lines lw 2 dt 2 lc rgb "#c77c02" title "1 CTA per SM (160 KB, 1024 threads)", \
     ''  using (two_per_sm(0) ? $6 : NaN):13:(0.13) with circles fill solid lc rgb "#1f5f99" notitle, \
     ''  using (is("sweep_1024t_160k") ? $6 : NaN):13:(0.13) with circles fill solid lc rgb "#c77c02" notitle
unset logscale y
set yrange [0:*]
set xlabel "cluster size (CTAs)"
set ylabel "idle SMs (of 132)"
set key at screen 0.5, screen 0.445 center bottom horizontal samplen 2.5 font "DejaVu Sans,12"
set style fill solid 0.85 border rgb "#1d1f23"
set boxwidth 0.38
plot csv using (two_per_sm(0) ? $6 - 0.2 : NaN):(132 - $14 / 2.0) with boxes lc rgb "#1f5f99" title "2 CTAs per SM", \
     ''  using (is("sweep_1024t_160k") ? $6 + 0.2 : NaN):(132 - $14) with boxes fs pattern 4 lc rgb "#c77c02" title "1 CTA per SM"
unset multiplot
