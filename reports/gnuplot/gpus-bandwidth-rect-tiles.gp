# gpus-bandwidth-rect-tiles.gp - rect_tiles: memory bandwidth on every GPU (f32, cold L2)
# Written by `mmbench report`. Redraw from this folder: gnuplot gpus-bandwidth-rect-tiles.gp
formats = "png svg pdf"
do for [i = 1:words(formats)] {
    fmt = word(formats, i)
    reset
    set encoding utf8
    if (fmt eq "png") { set terminal pngcairo size 1800,1050 noenhanced font "Sans,20.0" linewidth 2; PS = 1.0; FS = 1.0; FK = 1.0000; FMIN = 0.00 }
    if (fmt eq "svg") { set terminal svg size 1800,1050 noenhanced font "sans-serif,20.0" linewidth 2 background "white"; PS = 0.55; FS = 1.0; FK = 1.0000; FMIN = 0.00 }
    if (fmt eq "pdf") { set terminal pdfcairo size 9.00in,5.25in noenhanced font "Sans,7.20" fontscale 1.0 linewidth 1.5; PS = 0.450; FS = 0.3600; FK = 1.0000; FMIN = 0.00 }
    LARGE = FMIN > 0
    F8 = sprintf(",%g", (8 * FK > FMIN ? 8 * FK : FMIN) * FS)
    F10 = sprintf(",%g", (10 * FK > FMIN ? 10 * FK : FMIN) * FS)
    F12 = sprintf(",%g", (12 * FK > FMIN ? 12 * FK : FMIN) * FS)
    F14 = sprintf(",%g", (14 * FK > FMIN ? 14 * FK : FMIN) * FS)
    F16 = sprintf(",%g", (16 * FK > FMIN ? 16 * FK : FMIN) * FS)
    F18 = sprintf(",%g", (18 * FK > FMIN ? 18 * FK : FMIN) * FS)
    F20 = sprintf(",%g", (20 * FK > FMIN ? 20 * FK : FMIN) * FS)
    F22 = sprintf(",%g", (22 * FK > FMIN ? 22 * FK : FMIN) * FS)
    set output (fmt eq "deck" ? "../figures/deck-gpus-bandwidth-rect-tiles.pdf" : "../figures/gpus-bandwidth-rect-tiles.".fmt)
    set multiplot title "rect_tiles: memory bandwidth on every GPU (f32, cold L2)" font F22
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
    set lmargin at screen 0.0850
    set rmargin at screen 0.4750
    set bmargin at screen 0.3000
    set tmargin at screen 0.8600
    unset key
    set logscale x 2
    set xtics ("256" 256, "512" 512, "1024" 1024, "2048" 2048, "4096" 4096, "8192" 8192)
    set xrange [176.552:11878.4]
    set xlabel "Matrix size N (N×N×N, log scale)"
    set title "Memory bandwidth (GB/s)"
    set yrange [0:469.326]
    set ylabel "GB/s"
    set arrow 1 from 2090.23, graph 0 to 2090.23, graph 1 nohead dt 2 lw 2 lc rgb "#442200" back
    set label "H100 80GB HBM3 L2 50 MiB" at 2090.23, graph 0.970 right offset -0.5,0 tc rgb "#442200" font F14
    set arrow 2 from 2289.73, graph 0 to 2289.73, graph 1 nohead dt 2 lw 2 lc rgb "#FF44FF" back
    set label "H200 L2 60 MiB" at 2289.73, graph 0.910 right offset -0.5,0 tc rgb "#FF44FF" font F14
    plot "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:2 with linespoints dt 1 pt 7 ps 2 * PS lw 2.5 lc rgb "#442200" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:4 with linespoints dt 2 pt 6 ps 2 * PS lw 2.5 lc rgb "#442200" notitle, \
         "bandwidth-h200.dat" index 4 using 1:2 with linespoints dt 1 pt 7 ps 2 * PS lw 2.5 lc rgb "#FF44FF" notitle, \
         "bandwidth-h200.dat" index 4 using 1:4 with linespoints dt 2 pt 6 ps 2 * PS lw 2.5 lc rgb "#FF44FF" notitle
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
    set lmargin at screen 0.5700
    set rmargin at screen 0.9600
    set bmargin at screen 0.3000
    set tmargin at screen 0.8600
    unset key
    set logscale x 2
    set xtics ("256" 256, "512" 512, "1024" 1024, "2048" 2048, "4096" 4096, "8192" 8192)
    set xrange [176.552:11878.4]
    set xlabel "Matrix size N (N×N×N, log scale)"
    set title "Bandwidth utilisation (% of each GPU's DRAM peak)"
    set yrange [0:14]
    set ylabel "% of DRAM peak"
    set arrow 1 from 2090.23, graph 0 to 2090.23, graph 1 nohead dt 2 lw 2 lc rgb "#442200" back
    set label "H100 80GB HBM3 L2 50 MiB" at 2090.23, graph 0.970 right offset -0.5,0 tc rgb "#442200" font F14
    set arrow 2 from 2289.73, graph 0 to 2289.73, graph 1 nohead dt 2 lw 2 lc rgb "#FF44FF" back
    set label "H200 L2 60 MiB" at 2289.73, graph 0.910 right offset -0.5,0 tc rgb "#FF44FF" font F14
    plot "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:3 with linespoints dt 1 pt 7 ps 2 * PS lw 2.5 lc rgb "#442200" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:5 with linespoints dt 2 pt 6 ps 2 * PS lw 2.5 lc rgb "#442200" notitle, \
         "bandwidth-h200.dat" index 4 using 1:3 with linespoints dt 1 pt 7 ps 2 * PS lw 2.5 lc rgb "#FF44FF" notitle, \
         "bandwidth-h200.dat" index 4 using 1:5 with linespoints dt 2 pt 6 ps 2 * PS lw 2.5 lc rgb "#FF44FF" notitle
    set lmargin at screen 0.02
    set rmargin at screen 0.98
    set bmargin at screen 0.005
    set tmargin at screen 0.1810
    unset border
    unset tics
    unset xlabel
    unset ylabel
    unset title
    unset grid
    unset logscale
    unset label
    unset object
    unset arrow
    unset colorbox
    unset y2tics
    unset y2label
    unset x2tics
    set xrange [0:1]
    set yrange [0:1]
    set key center center horizontal maxrows 1 width 2 samplen 3 spacing 1.2
    plot NaN with linespoints dt 1 pt 7 ps 2 * PS lw 2.5 lc rgb "#442200" title "H100 80GB HBM3, measured", \
         NaN with linespoints dt 2 pt 6 ps 2 * PS lw 2.5 lc rgb "#442200" title "H100 80GB HBM3, declared", \
         NaN with linespoints dt 1 pt 7 ps 2 * PS lw 2.5 lc rgb "#FF44FF" title "H200, measured", \
         NaN with linespoints dt 2 pt 6 ps 2 * PS lw 2.5 lc rgb "#FF44FF" title "H200, declared"
    unset multiplot
    unset output
}
