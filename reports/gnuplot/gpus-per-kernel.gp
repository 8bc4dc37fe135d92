# gpus-per-kernel.gp - Every GPU per kernel: GFLOP/s at 4096 (f32, cold L2, best configuration)
# Written by `mmbench report`. Redraw from this folder: gnuplot gpus-per-kernel.gp
formats = "png svg pdf"
do for [i = 1:words(formats)] {
    fmt = word(formats, i)
    reset
    set encoding utf8
    if (fmt eq "png") { set terminal pngcairo size 1600,900 noenhanced font "Sans,20" linewidth 2; PS = 1.0; FS = 1.0 }
    if (fmt eq "svg") { set terminal svg size 1600,900 noenhanced font "sans-serif,20" linewidth 2 background "white"; PS = 0.55; FS = 1.0 }
    if (fmt eq "pdf") { set terminal pdfcairo size 8.00in,4.50in noenhanced font "Sans,7.2" fontscale 1.0 linewidth 1.5; PS = 0.45; FS = 0.360 }
    F12 = sprintf(",%g", 12 * FS)
    F14 = sprintf(",%g", 14 * FS)
    F16 = sprintf(",%g", 16 * FS)
    F18 = sprintf(",%g", 18 * FS)
    F20 = sprintf(",%g", 20 * FS)
    F22 = sprintf(",%g", 22 * FS)
    set output "../figures/gpus-per-kernel.".fmt
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
    set title "Every GPU per kernel: GFLOP/s at 4096 (f32, cold L2, best configuration)"
    set ylabel "GFLOP/s (log scale)"
    set format y "%g"
    set xtics ("naive" 0, "tiled" 1, "rect_tiles" 2, "tunable" 3, "cublas" 4)
    set xrange [-0.6:4.6]
    set xlabel "Kernel (best configuration at this size)"
    set grid noxtics
    set logscale y 10
    set format y "%.10g"
    set yrange [100:82671]
    set key outside below center horizontal samplen 2 spacing 1.1 height 1
    set boxwidth 0.2533
    plot "gpus-per-kernel.dat" using ($1-0.2667):2 with boxes fs pattern 4 border lc rgb "#202020" lc rgb "#404040" title "GeForce GTX TITAN X (published)", \
         "" using ($1-0.2667):2:(column(2) >= 10000 ? sprintf("%.1fk", column(2) / 1000) : sprintf("%.0f", column(2))) with labels offset 0,0.6 font F16 notitle, \
         "gpus-per-kernel.dat" using ($1+0.0000):3 with boxes fs solid 0.9 border lc rgb "#202020" lc rgb "#0072B2" title "NVIDIA H100 80GB HBM3", \
         "" using ($1+0.0000):3:(column(3) >= 10000 ? sprintf("%.1fk", column(3) / 1000) : sprintf("%.0f", column(3))) with labels offset 0,0.6 font F16 notitle, \
         "gpus-per-kernel.dat" using ($1+0.2667):4 with boxes fs solid 0.9 border lc rgb "#202020" lc rgb "#009E73" title "NVIDIA H200", \
         "" using ($1+0.2667):4:(column(4) >= 10000 ? sprintf("%.1fk", column(4) / 1000) : sprintf("%.0f", column(4))) with labels offset 0,0.6 font F16 notitle
    unset output
}
