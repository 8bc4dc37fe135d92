# tune-occupancy-naive.gp - Tuning naive at 4096: median time against theoretical occupancy
# Written by `mmbench report`. Redraw from this folder: gnuplot tune-occupancy-naive.gp
formats = "png svg pdf"
do for [i = 1:words(formats)] {
    fmt = word(formats, i)
    reset
    set encoding utf8
    if (fmt eq "png") { set terminal pngcairo size 1600,1000 noenhanced font "Sans,20.0" linewidth 2; PS = 1.0; FS = 1.0; FK = 1.0000; FMIN = 0.00 }
    if (fmt eq "svg") { set terminal svg size 1600,1000 noenhanced font "sans-serif,20.0" linewidth 2 background "white"; PS = 0.55; FS = 1.0; FK = 1.0000; FMIN = 0.00 }
    if (fmt eq "pdf") { set terminal pdfcairo size 8.00in,5.00in noenhanced font "Sans,7.20" fontscale 1.0 linewidth 1.5; PS = 0.450; FS = 0.3600; FK = 1.0000; FMIN = 0.00 }
    LARGE = FMIN > 0
    F8 = sprintf(",%g", (8 * FK > FMIN ? 8 * FK : FMIN) * FS)
    F10 = sprintf(",%g", (10 * FK > FMIN ? 10 * FK : FMIN) * FS)
    F12 = sprintf(",%g", (12 * FK > FMIN ? 12 * FK : FMIN) * FS)
    F14 = sprintf(",%g", (14 * FK > FMIN ? 14 * FK : FMIN) * FS)
    F16 = sprintf(",%g", (16 * FK > FMIN ? 16 * FK : FMIN) * FS)
    F18 = sprintf(",%g", (18 * FK > FMIN ? 18 * FK : FMIN) * FS)
    F20 = sprintf(",%g", (20 * FK > FMIN ? 20 * FK : FMIN) * FS)
    F22 = sprintf(",%g", (22 * FK > FMIN ? 22 * FK : FMIN) * FS)
    set output (fmt eq "deck" ? "../figures/deck-tune-occupancy-naive.pdf" : "../figures/tune-occupancy-naive.".fmt)
    unset label
    unset object
    unset arrow
    unset logscale
    unset title
    unset y2tics
    unset y2label
    unset x2tics
    set border lw 1.5
    set grid xtics ytics lc rgb "#c4c4c4" lw 1 dt 1
    set tics nomirror out
    set xtics norotate
    set style line 1 lc rgb "#332288" dt 1 pt 5 ps 2 * PS lw 2.5  # naive
    set style line 2 lc rgb "#AA4499" dt 2 pt 7 ps 2 * PS lw 2.5  # tiled
    set style line 3 lc rgb "#88CCEE" dt 4 pt 9 ps 2 * PS lw 2.5  # rect_tiles
    set style line 4 lc rgb "#CC6677" dt 5 pt 11 ps 2 * PS lw 2.5  # tunable
    set style line 5 lc rgb "#000000" dt 1 pt 7 ps 2 * PS lw 2.5  # cublas
    set style line 6 lc rgb "#882255" dt 3 pt 13 ps 2 * PS lw 2.5  # 01_wmma
    set style line 7 lc rgb "#44AA99" dt 1 pt 4 ps 2 * PS lw 2.5  # 02_mma_sync
    set style line 8 lc rgb "#117733" dt 2 pt 6 ps 2 * PS lw 2.5  # 03_pipelined
    set style line 9 lc rgb "#DDCC77" dt 4 pt 8 ps 2 * PS lw 2.5  # 04_wgmma_tma
    set style line 10 lc rgb "#999933" dt 5 pt 10 ps 2 * PS lw 2.5  # 05_warp_specialized
    set style line 11 lc rgb "#332288" dt 3 pt 12 ps 2 * PS lw 2.5  # 06_tma_store
    set style line 12 lc rgb "#AA4499" dt 1 pt 5 ps 2 * PS lw 2.5  # 07_stream_k
    set style line 13 lc rgb "#88CCEE" dt 2 pt 7 ps 2 * PS lw 2.5  # 01_uncoalesced
    set style line 14 lc rgb "#CC6677" dt 4 pt 9 ps 2 * PS lw 2.5  # 01_coalesced
    set style line 15 lc rgb "#882255" dt 5 pt 11 ps 2 * PS lw 2.5  # 02_tiled
    set style line 16 lc rgb "#44AA99" dt 3 pt 13 ps 2 * PS lw 2.5  # 03_blocktile_1d
    set style line 17 lc rgb "#117733" dt 1 pt 4 ps 2 * PS lw 2.5  # 04_blocktile_2d
    set style line 18 lc rgb "#DDCC77" dt 2 pt 6 ps 2 * PS lw 2.5  # 05_vectorized
    set style line 19 lc rgb "#999933" dt 4 pt 8 ps 2 * PS lw 2.5  # 06_conflict_free
    set style line 20 lc rgb "#332288" dt 5 pt 10 ps 2 * PS lw 2.5  # 07_warptile
    set style line 21 lc rgb "#AA4499" dt 3 pt 12 ps 2 * PS lw 2.5  # 08_pipelined
    set style line 22 lc rgb "#88CCEE" dt 1 pt 5 ps 2 * PS lw 2.5  # 09_lean
    set style line 23 lc rgb "#CC6677" dt 2 pt 7 ps 2 * PS lw 2.5  # 10_stream_k
    set style line 24 lc rgb "#882255" dt 4 pt 9 ps 2 * PS lw 2.5  # wmma
    set style line 25 lc rgb "#CC6677" dt 1 pt 5 ps 2 * PS lw 2.5  # 004_basic
    set style line 26 lc rgb "#882255" dt 2 pt 7 ps 2 * PS lw 2.5  # 004_tiles
    set style line 27 lc rgb "#44AA99" dt 4 pt 9 ps 2 * PS lw 2.5  # 004_rec_tiles
    set style line 28 lc rgb "#AA4499" dt 5 pt 10 ps 2 * PS lw 2.5  # 003_default
    set style line 29 lc rgb "#88CCEE" dt 3 pt 12 ps 2 * PS lw 2.5  # 003_optimized
    set style line 30 lc rgb "#44AA99" dt 5 pt 11 ps 2 * PS lw 2.5  # 000_naive
    set style line 31 lc rgb "#117733" dt 3 pt 13 ps 2 * PS lw 2.5  # 000_data_reuse
    set style line 32 lc rgb "#DDCC77" dt 1 pt 4 ps 2 * PS lw 2.5  # 002_naive
    set style line 33 lc rgb "#999933" dt 2 pt 6 ps 2 * PS lw 2.5  # 002_shared
    set style line 34 lc rgb "#332288" dt 4 pt 8 ps 2 * PS lw 2.5  # 002_tiled_1xN
    set title "Tuning naive at 4096: median time against theoretical occupancy"
    set xlabel "theoretical occupancy (% of the SM's warps)"
    set ylabel "median time (ms)"
    set xrange [0:100]
    set xtics 0,25,100
    set format x "%g%%"
    set yrange [*:*]
    set offsets 0, 0, graph 0.05, graph 0.05
    set bmargin 7
    set key outside below center horizontal samplen 2 spacing 1.1
    plot "tune-occupancy-naive.dat" index 0 using 1:2 with points pt 7 ps 2.2 * PS lw 2 lc rgb "#442200" title "NVIDIA H100 80GB HBM3", \
         "tune-occupancy-naive.dat" index 0 every ::0::0 using 1:2 with points pt 6 ps 4.5 * PS lw 3 lc rgb "#e4002b" title "fastest"
    unset output
}
