# ch08-gemv.gp: make bench's ch08_gemv family: two panels per shape (without clusters, with clusters), microseconds per decode GEMV call against the number of tokens, for every variant of chapter 8, cuBLAS and the read floor (best configuration of each, weights from HBM, CUDA graph of consecutive calls).
# csv: bench/results/bench-h200/ch08_gemv.csv
# Columns: 5 shape, 6 M, 7 K, 8 weight_mb, 9 nb, 10 variant, 11 us (median).
#   gnuplot -e "csv='build/bench/latest/ch08_gemv.csv'; out='x.svg'" figures/plots/ch08-gemv.gp
set terminal svg size 760,1180 fixed enhanced font "DejaVu Sans,12" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
set datafile missing NaN
set logscale x 2
set xrange [0.8:10]
set xtics ("1" 1, "2" 2, "4" 4, "8" 8) nomirror
set ytics nomirror
set yrange [0:*]
set grid ytics lc rgb "#d5d9e0"
set border 3
pick(s, v) = strcol(5) eq s && strcol(10) eq v ? $11 : NaN
array shape[9] = ["llama_qkv", "llama_o", "llama_gate_up", "llama_down", "llama_lm_head", \
                  "dsv3_q_a", "dsv3_kv_a", "dsv3_router", "dsv3_expert_down"]
array title[9] = ["Llama q,k,v 6144 x 4096", "Llama o 4096 x 4096", "Llama gate+up 28672 x 4096", \
                  "Llama down 4096 x 14336", "Llama lm\\_head 128256 x 4096", "1536 x 7168", "576 x 7168", \
                  "router 256 x 7168", "expert down 7168 x 2048"]
# Each shape has two panels, one above the other (at most 5 curves each): the variants without
# clusters above, the two cluster variants below, both with cuBLAS and the read floor. Colour-blind-
# safe colours (Okabe-Ito) with a marker and a dash per variant; the key in a strip at the foot.
set multiplot
set lmargin 7
set rmargin 1.5
set tmargin 1.6
set bmargin 1.6
H = 0.88 / 6
do for [i=1:9] {
    s = shape[i]
    row = (i - 1) / 3
    do for [half=0:1] {
        set origin ((i - 1) % 3) / 3.0, 0.12 + (5 - (2 * row + half)) * H
        set size 1 / 3.0, H
        unset key
        if (half == 0) { set title title[i] font "DejaVu Sans,12" offset 0,-0.3; set xtics ("" 1, "" 2, "" 4, "" 8); set tmargin 2; set bmargin 0.8 } \
        else { unset title; set xtics ("1" 1, "2" 2, "4" 4, "8" 8); set tmargin 0.8; set bmargin 1.6 }
        if (i % 3 == 1) { set ylabel (half == 0 ? "µs, no clusters" : "µs, clusters") } else { unset ylabel }
        if (half == 0) {
            plot csv using 9:(pick(s, "read_floor")) with linespoints lw 1.5 dt 3 pt 1 lc rgb "#808080", \
                 '' using 9:(pick(s, "cublas")) with linespoints lw 2 pt 5 lc rgb "#000000", \
                 '' using 9:(pick(s, "rowpar")) with linespoints lw 2 dt 1 pt 4 lc rgb "#009E73", \
                 '' using 9:(pick(s, "splitk_atomic")) with linespoints lw 2 dt 2 pt 8 lc rgb "#D55E00", \
                 '' using 9:(pick(s, "splitk_twokernel")) with linespoints lw 2 dt 4 pt 10 lc rgb "#CC79A7"
        } else {
            plot csv using 9:(pick(s, "read_floor")) with linespoints lw 1.5 dt 3 pt 1 lc rgb "#808080", \
                 '' using 9:(pick(s, "cublas")) with linespoints lw 2 pt 5 lc rgb "#000000", \
                 '' using 9:(pick(s, "cluster_gmem")) with linespoints lw 2 dt 2 pt 6 lc rgb "#E69F00", \
                 '' using 9:(pick(s, "cluster_dsmem")) with linespoints lw 2.5 pt 7 lc rgb "#0072B2"
        }
    }
}
# the key, in a strip of its own under the panels, with the x axis's label
set origin 0, 0
set size 1, 0.12
unset title
unset ylabel
unset border
unset tics
unset grid
unset logscale x
set format x "%g"
set xrange [0:1]
set yrange [0:1]
set label 1 "tokens (batch)" at screen 0.5, screen 0.105 center
set key at screen 0.5, screen 0.045 center center horizontal maxrows 3 samplen 2.5 width 1 font "DejaVu Sans,12"
plot NaN with linespoints lw 1.5 dt 3 pt 1 lc rgb "#808080" title "read floor (the weights alone)", \
     NaN with linespoints lw 2 pt 5 lc rgb "#000000" title "cuBLAS", \
     NaN with linespoints lw 2 dt 1 pt 4 lc rgb "#009E73" title "row-parallel", \
     NaN with linespoints lw 2 dt 2 pt 8 lc rgb "#D55E00" title "split-K, atomics", \
     NaN with linespoints lw 2 dt 4 pt 10 lc rgb "#CC79A7" title "split-K, two kernels", \
     NaN with linespoints lw 2 dt 2 pt 6 lc rgb "#E69F00" title "cluster, partials via global memory", \
     NaN with linespoints lw 2.5 pt 7 lc rgb "#0072B2" title "cluster, partials via DSMEM"
unset multiplot
