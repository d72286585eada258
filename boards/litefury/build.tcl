# SPDX-License-Identifier: Apache-2.0
# LiteFury Vivado batch flow: project, block design, synthesis,
# implementation, bitstream, flash image and reports.
#
#   vivado -mode batch -source boards/litefury/build.tcl \
#          -tclargs ROOT OUT_DIR FIRMWARE_HEX VEXRISCV_V SOURCES...
#
# make bitstream BOARD=litefury runs it with the SoC's source list from
# tools/mk/rtl.mk (so a module added to the SoC reaches the board too).
# Outputs in OUT_DIR: litefury.bit, litefury.mcs (quad-SPI flash image),
# utilization.rpt, timing.rpt, and the project in OUT_DIR/vivado.
# Tested here: nothing (no Vivado on the CI machine); checked without
# Vivado by tests/boards/check_board_ports.py. See boards/litefury/README.md.

if {[llength $argv] < 5} {
  puts "usage: vivado -mode batch -source build.tcl -tclargs ROOT OUT FIRMWARE_HEX VEXRISCV_V SOURCES..."
  exit 2
}
set ROOT   [file normalize [lindex $argv 0]]
set OUT    [file normalize [lindex $argv 1]]
set FWHEX  [file normalize [lindex $argv 2]]
set VEXV   [file normalize [lindex $argv 3]]
set SRCS   [lrange $argv 4 end]
set PART   xc7a100tlfgg484-2L
set BOARD  [file join $ROOT boards litefury]
set JOBS   2

file mkdir $OUT
create_project -force litefury [file join $OUT vivado] -part $PART
set_property target_language Verilog [current_project]

# ---------------------------------------------------------------- sources
foreach f $SRCS { add_files -norecurse [file join $ROOT $f] }
add_files -norecurse $VEXV [file join $BOARD litefury_top.sv]
foreach f [get_files -filter {FILE_TYPE == Verilog}] {
  if {[string match *.sv $f]} { set_property file_type SystemVerilog $f }
}
set_property top litefury_top [current_fileset]
set_property generic "RamInit=\"$FWHEX\"" [current_fileset]

# ---------------------------------------------------------------- block design
source [file join $BOARD bd.tcl]
set bd_file [get_files litefury_bd.bd]
generate_target all $bd_file
add_files -norecurse [make_wrapper -files $bd_file -top]

# ---------------------------------------------------------------- constraints
add_files -fileset constrs_1 -norecurse [file join $BOARD litefury.xdc] [file join $BOARD litefury_gt.xdc]
set_property PROCESSING_ORDER EARLY [get_files litefury_gt.xdc]

# ---------------------------------------------------------------- runs
puts "litefury: \[1/3\] synthesis"
launch_runs synth_1 -jobs $JOBS
wait_on_run synth_1
if {[get_property PROGRESS [get_runs synth_1]] ne "100%"} { puts "litefury: synthesis failed"; exit 1 }

puts "litefury: \[2/3\] implementation"
launch_runs impl_1 -to_step write_bitstream -jobs $JOBS
wait_on_run impl_1
if {[get_property PROGRESS [get_runs impl_1]] ne "100%"} { puts "litefury: implementation failed"; exit 1 }

puts "litefury: \[3/3\] reports and flash image"
open_run impl_1
report_utilization -hierarchical -hierarchical_depth 2 -file [file join $OUT utilization.rpt]
report_utilization -file [file join $OUT utilization-summary.rpt]
report_timing_summary -max_paths 10 -file [file join $OUT timing.rpt]
report_clocks -file [file join $OUT clocks.rpt]
set bit [file join $OUT litefury.bit]
file copy -force [lindex [glob [file join $OUT vivado litefury.runs impl_1 *.bit]] 0] $bit
write_cfgmem -force -format mcs -interface SPIx4 -size 16 -loadbit "up 0x0 $bit" \
  -file [file join $OUT litefury.mcs]
set wns [get_property STATS.WNS [get_runs impl_1]]
puts "litefury: done: $bit (WNS $wns ns)"
if {$wns < 0} { puts "litefury: WARNING: timing not met (see timing.rpt)" }
