#!/usr/bin/env bash
# price-table.sh - the price of exactness as a table: exact / plain time per
# call for each dtype and data kind (rows) and n = 2^10 .. 2^30 (columns),
# at the default block (256), from the output of test_gpu_reduce --price.
#
#   scripts/price-table.sh price.log
#
# Then, for the standard fill, exact's us per call and GB/s beside plain's
# at 2^24 and up (the acceptance wants exact/plain <= 1.03 there).
set -uo pipefail
log=${1:?usage: price-table.sh price.log}
awk 'NR > 1 && $5 == 256 { t[$1 " " $2 " " $3 " " $4] = $7; g[$1 " " $2 " " $3 " " $4] = $8;
                           if (!($1 " " $2 in seen)) { seen[$1 " " $2] = 1; order[++n] = $1 " " $2 } }
     END {
       printf "%-15s", "exact/plain"
       for (lg = 10; lg <= 30; lg += 2) printf " %6s", "2^" lg
       printf "\n"
       for (i = 1; i <= n; i++) {
         k = order[i]; printf "%-15s", k
         for (lg = 10; lg <= 30; lg += 2) {
           e = t[k " " lg " exact"]; p = t[k " " lg " plain"]
           if (e != "" && p != "" && p > 0) printf " %6.2f", e / p; else printf " %6s", "-"
         }
         printf "\n"
       }
       printf "\n%-5s %6s %11s %10s %11s %10s %8s\n", "dtype", "log2n", "exact us", "GB/s", "plain us", "GB/s", "ratio"
       for (i = 1; i <= n; i++) {
         k = order[i]; split(k, f, " ")
         if (f[2] != "standard") continue
         for (lg = 24; lg <= 30; lg += 2) {
           e = t[k " " lg " exact"]; p = t[k " " lg " plain"]
           if (e == "" || p == "") continue
           printf "%-5s %6d %11.2f %10.1f %11.2f %10.1f %8.3f\n", f[1], lg, e, g[k " " lg " exact"], p, g[k " " lg " plain"], e / p
         }
       }
     }' "$log"
