# ch09-xent.gp: make bench's ch09_xent family: one panel per vocabulary (bf16), the bandwidth of fused cross-entropy (logits read once and gradient written once, per second) against the number of rows, for the copy floor, the cluster kernel (slice in shared memory), one CTA per row and PyTorch eager and compiled (best configuration of each, a pool of at least 4 x L2, CUDA graphs of consecutive calls).
# csv: bench/results/xent-h200-20261202-onchip/ch09_xent.csv
# Columns: 5 dtype, 6 V, 7 M, 8 variant, 11 status, 12 us (median), 16 TB/s; PyTorch from the
# _torch.csv beside it: 5 dtype, 6 V, 7 M, 8 impl, 9 status, 10 us (median).
#   gnuplot -e "csv='build/bench/latest/ch09_xent.csv'; out='x.svg'" figures/plots/ch09-xent.gp
set terminal svg size 900,760 fixed enhanced font "DejaVu Sans,14" background rgb "white"
set output out
torch = csv[1:strlen(csv) - 4] . "_torch.csv"
set datafile separator ","
set datafile columnheaders
set datafile missing NaN
set logscale x 2
set logscale y 10
set xrange [0.7:24000]
set yrange [0.002:6]
set xtics ("1" 1, "8" 8, "64" 64, "512" 512, "4K" 4096, "16K" 16384) nomirror
set ytics ("0.01" 0.01, "0.1" 0.1, "1" 1, "4" 4) nomirror
set grid ytics lc rgb "#d5d9e0"
set border 3
pick(V, v) = strcol(5) eq "bf16" && $6 == V && strcol(8) eq v && strcol(11) eq "timed" ? $16 : NaN
tpick(V, v) = strcol(5) eq "bf16" && $6 == V && strcol(8) eq v && strcol(9) eq "ok" ? 4.0 * $6 * $7 / ($10 * 1e6) : NaN
array vs[4] = [32000, 128256, 151936, 262144]
array title[4] = ["V = 32000 (a row fits one SM)", "V = 128256", "V = 151936", "V = 262144"]
set multiplot
set lmargin 8
set rmargin 2
set tmargin 2
set bmargin 3.5
do for [i=1:4] {
    set origin ((i - 1) % 2) / 2.0, 0.12 + (1 - (i - 1) / 2) * 0.44
    set size 0.5, 0.44
    set title title[i]
    unset key
    if (i > 2) { set xlabel "rows (M)" } else { unset xlabel }
    if (i % 2 == 1) { set ylabel "TB/s (read + write)" } else { unset ylabel }
    V = vs[i]
    plot csv using 7:(pick(V, "copy")) with linespoints lw 1.5 dt 3 pt 1 lc rgb "#666666", \
         '' using 7:(pick(V, "rowpass")) with linespoints lw 2 pt 4 lc rgb "#009E73", \
         '' using 7:(pick(V, "cluster")) with linespoints lw 2 dt 2 pt 8 lc rgb "#0072B2", \
         torch using 7:(tpick(V, "torch_eager")) with linespoints lw 2 pt 5 lc rgb "#000000", \
         '' using 7:(tpick(V, "torch_compile")) with linespoints lw 1.5 dt 4 pt 6 lc rgb "#E69F00"
}
set origin 0, 0
set size 1, 0.1
unset title
unset xlabel
unset ylabel
unset border
unset tics
unset grid
unset logscale x
unset logscale y
set xrange [0:1]
set yrange [0:1]
set key center center horizontal maxrows 2 samplen 2.5 width 2
plot NaN with linespoints lw 1.5 dt 3 pt 1 lc rgb "#666666" title "copy (the floor)", \
     NaN with linespoints lw 2 pt 4 lc rgb "#009E73" title "one CTA per row (two passes)", \
     NaN with linespoints lw 2 dt 2 pt 8 lc rgb "#0072B2" title "cluster kernel (shared memory)", \
     NaN with linespoints lw 2 pt 5 lc rgb "#000000" title "PyTorch eager", \
     NaN with linespoints lw 1.5 dt 4 pt 6 lc rgb "#E69F00" title "torch.compile"
unset multiplot
