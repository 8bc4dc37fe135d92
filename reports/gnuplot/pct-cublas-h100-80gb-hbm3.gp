# pct-cublas-h100-80gb-hbm3.gp - NVIDIA H100 80GB HBM3: % of cuBLAS against matrix size (f32, cold L2)
# Written by `mmbench report`. Redraw from this folder: gnuplot pct-cublas-h100-80gb-hbm3.gp
formats = "png svg pdf"
do for [i = 1:words(formats)] {
    fmt = word(formats, i)
    reset
    set encoding utf8
    if (fmt eq "png") { set terminal pngcairo size 1600,1000 noenhanced font "Sans,20" linewidth 2; PS = 1.0; FS = 1.0 }
    if (fmt eq "svg") { set terminal svg size 1600,1000 noenhanced font "sans-serif,20" linewidth 2 background "white"; PS = 0.55; FS = 1.0 }
    if (fmt eq "pdf") { set terminal pdfcairo size 8.00in,5.00in noenhanced font "Sans,7.2" fontscale 1.0 linewidth 1.5; PS = 0.45; FS = 0.360 }
    F12 = sprintf(",%g", 12 * FS)
    F14 = sprintf(",%g", 14 * FS)
    F16 = sprintf(",%g", 16 * FS)
    F18 = sprintf(",%g", 18 * FS)
    F20 = sprintf(",%g", 20 * FS)
    F22 = sprintf(",%g", 22 * FS)
    set output "../figures/pct-cublas-h100-80gb-hbm3.".fmt
    unset label
    unset object
    unset arrow
    unset logscale
    unset title
    set border lw 1.5
    set grid xtics ytics lc rgb "#c4c4c4" lw 1 dt 1
    set tics nomirror out
    set xtics norotate
    set style line 1 lc rgb "#0072B2" dt 1 pt 5 ps 2 * PS lw 2.5
    set style line 2 lc rgb "#D55E00" dt 2 pt 7 ps 2 * PS lw 2.5
    set style line 3 lc rgb "#009E73" dt 4 pt 9 ps 2 * PS lw 2.5
    set style line 4 lc rgb "#CC79A7" dt 5 pt 11 ps 2 * PS lw 2.5
    set style line 5 lc rgb "#000000" dt 1 pt 6 ps 2 * PS lw 2.5
    set title "NVIDIA H100 80GB HBM3: % of cuBLAS against matrix size (f32, cold L2)"
    set ylabel "% of cuBLAS (cuBLAS time / kernel time)"
    set xtics ("256" 0, "512" 1, "1024" 2, "2048" 3, "2048x8192x1024" 4, "1024x4096x8192" 5, "4096" 6, "8192x2048x4096" 7, "8192" 8)
    set xtics rotate by 30 right
    set xrange [-0.5:8.5]
    set xlabel "Matrix size: N for N x N x N, else M x N x K (by FLOP count)"
    set yrange [0:120]
    set key outside below center horizontal samplen 3 spacing 1.1 width 1 height 1
    plot "pct-cublas-h100-80gb-hbm3.dat" index 0 using 1:2 with linespoints ls 1 title "naive", \
         "pct-cublas-h100-80gb-hbm3.dat" index 1 using 1:2 with linespoints ls 2 title "tiled", \
         "pct-cublas-h100-80gb-hbm3.dat" index 2 using 1:2 with linespoints ls 3 title "rect_tiles", \
         "pct-cublas-h100-80gb-hbm3.dat" index 3 using 1:2 with linespoints ls 4 title "tunable", \
         100 with lines lc rgb "#404040" dt 3 lw 2.5 title "cuBLAS = 100%"
    unset output
}
