# SPDX-License-Identifier: Apache-2.0
# Block design litefury_bd: the Xilinx IP around soc_top on the LiteFury.
# Sourced by build.tcl with the project open; ROOT is the repository root.
#
#   PCIe refclk -> util_ds_buf (IBUFDSGTE) -> axi_pcie_0 (Gen2 x4, AXI bridge)
#   axi_pcie_0/M_AXI (host BAR accesses, 128-bit, axi_aclk_out)
#       -> smc_bar (SmartConnect: width, protocol and clock conversion)
#           -> M_BAR0 (AXI4-Lite, ui_clk) at 0x0000_0000, 64 KiB  = BAR0
#           -> M_BAR1 (AXI4-Lite, ui_clk) at 0x0100_0000, 16 MiB  = BAR1
#           -> axi_pcie_0/S_AXI_CTL at 0x0200_0000, 4 KiB          = BAR2
#              (the bridge's own registers: the host driver programs the
#              AXIBAR2PCIEBAR translation there)
#   S_DDR (AXI4 64-bit, 6-bit IDs, ui_clk) -> mig_0/S_AXI (MIG 7-series DDR3)
#   S_SYSMEM (AXI4 64-bit, 32-bit addresses, 8-bit IDs, AxCACHE, ui_clk)
#       -> smc_sysmem (clock, width 64 -> 128 and ID conversion)
#       -> axi_pcie_0/S_AXI: the slave bridge, whose bursts become PCIe
#          memory reads and writes to the host:
#            AXI 0x0000_0000-0x7FFF_FFFF = AXIBAR 0 -> PCIe AXIBAR2PCIEBAR_0 + offset
#            AXI 0x8000_0000-0xFFFF_FFFF = AXIBAR 1 -> PCIe AXIBAR2PCIEBAR_1 + offset
#          64-bit PCIe addresses (AXIBAR_AS_n), translation registers
#          writable at run time (INCLUDE_BAROFFSET_REG) through BAR2 at
#          0x208/0x20C (window 0, upper/lower) and 0x210/0x214 (window 1);
#          reset values 0 and 0x8000_0000 (identity below 4 GiB).
#       axi_pcie's S_AXI has no AxCACHE (nor lock/prot/qos) input, so
#       S_SYSMEM's AxCACHE (CacheCoherent 0xF, else 0x3) ends in smc_sysmem
#       (which uses its modifiable bit) and does not reach the TLP's No
#       Snoop attribute. See boards/litefury/README.md.
#
# External ports (names as litefury_top.sv connects them through the
# generated litefury_bd_wrapper): pcie_refclk, pcie_perst_n, pcie_mgt,
# pcie_axi_clk, pcie_link_up, pcie_msi_*, ddr_sys_clk, DDR3, ui_clk, ui_rstn,
# init_calib_complete, M_BAR0, M_BAR1, S_DDR, S_SYSMEM.

set bd litefury_bd
create_bd_design $bd
current_bd_design $bd

# ------------------------------------------------------------ external ports
set pcie_refclk [create_bd_intf_port -mode Slave -vlnv xilinx.com:interface:diff_clock_rtl:1.0 pcie_refclk]
set_property CONFIG.FREQ_HZ 100000000 $pcie_refclk
set pcie_perst_n [create_bd_port -dir I -type rst pcie_perst_n]
set_property CONFIG.POLARITY ACTIVE_LOW $pcie_perst_n
create_bd_intf_port -mode Master -vlnv xilinx.com:interface:pcie_7x_mgt_rtl:1.0 pcie_mgt
create_bd_port -dir O -type clk pcie_axi_clk
create_bd_port -dir O pcie_link_up
create_bd_port -dir I pcie_msi_request
create_bd_port -dir O pcie_msi_grant
create_bd_port -dir O pcie_msi_enable

set ddr_sys_clk [create_bd_intf_port -mode Slave -vlnv xilinx.com:interface:diff_clock_rtl:1.0 ddr_sys_clk]
set_property CONFIG.FREQ_HZ 200000000 $ddr_sys_clk
create_bd_intf_port -mode Master -vlnv xilinx.com:interface:ddrx_rtl:1.0 DDR3
create_bd_port -dir O -type clk ui_clk
create_bd_port -dir O -type rst ui_rstn
create_bd_port -dir O init_calib_complete

set m_bar0 [create_bd_intf_port -mode Master -vlnv xilinx.com:interface:aximm_rtl:1.0 M_BAR0]
set_property -dict [list CONFIG.PROTOCOL AXI4LITE CONFIG.DATA_WIDTH 32 CONFIG.ADDR_WIDTH 32] $m_bar0
set m_bar1 [create_bd_intf_port -mode Master -vlnv xilinx.com:interface:aximm_rtl:1.0 M_BAR1]
set_property -dict [list CONFIG.PROTOCOL AXI4LITE CONFIG.DATA_WIDTH 32 CONFIG.ADDR_WIDTH 32] $m_bar1
set s_ddr [create_bd_intf_port -mode Slave -vlnv xilinx.com:interface:aximm_rtl:1.0 S_DDR]
set_property -dict [list CONFIG.PROTOCOL AXI4 CONFIG.DATA_WIDTH 64 CONFIG.ADDR_WIDTH 29 \
  CONFIG.ID_WIDTH 6 CONFIG.HAS_REGION 0 CONFIG.HAS_QOS 1 CONFIG.HAS_LOCK 1 CONFIG.HAS_CACHE 1 \
  CONFIG.HAS_PROT 1 CONFIG.MAX_BURST_LENGTH 256 CONFIG.SUPPORTS_NARROW_BURST 0] $s_ddr
set s_sysmem [create_bd_intf_port -mode Slave -vlnv xilinx.com:interface:aximm_rtl:1.0 S_SYSMEM]
set_property -dict [list CONFIG.PROTOCOL AXI4 CONFIG.DATA_WIDTH 64 CONFIG.ADDR_WIDTH 32 \
  CONFIG.ID_WIDTH 8 CONFIG.HAS_REGION 0 CONFIG.HAS_QOS 0 CONFIG.HAS_LOCK 0 CONFIG.HAS_CACHE 1 \
  CONFIG.HAS_PROT 0 CONFIG.SUPPORTS_NARROW_BURST 0] $s_sysmem

# ------------------------------------------------------------ PCIe bridge
set refbuf [create_bd_cell -type ip -vlnv xilinx.com:ip:util_ds_buf refbuf]
set_property CONFIG.C_BUF_TYPE IBUFDSGTE $refbuf

set pcie [create_bd_cell -type ip -vlnv xilinx.com:ip:axi_pcie axi_pcie_0]
set_property -dict [list \
  CONFIG.NO_OF_LANES {X4} \
  CONFIG.MAX_LINK_SPEED {5.0_GT/s} \
  CONFIG.REF_CLK_FREQ {100_MHz} \
  CONFIG.VENDOR_ID {0x10EE} \
  CONFIG.DEVICE_ID {0x7024} \
  CONFIG.SUBSYSTEM_VENDOR_ID {0x10EE} \
  CONFIG.SUBSYSTEM_ID {0x0007} \
  CONFIG.CLASS_CODE {0x058000} \
  CONFIG.M_AXI_DATA_WIDTH {128} \
  CONFIG.S_AXI_DATA_WIDTH {128} \
  CONFIG.BAR0_ENABLED {true} \
  CONFIG.BAR0_TYPE {Memory} \
  CONFIG.BAR0_SCALE {Kilobytes} \
  CONFIG.BAR0_SIZE {64} \
  CONFIG.PCIEBAR2AXIBAR_0 {0x00000000} \
  CONFIG.BAR1_ENABLED {true} \
  CONFIG.BAR1_TYPE {Memory} \
  CONFIG.BAR1_SCALE {Megabytes} \
  CONFIG.BAR1_SIZE {16} \
  CONFIG.PCIEBAR2AXIBAR_1 {0x01000000} \
  CONFIG.BAR2_ENABLED {true} \
  CONFIG.BAR2_TYPE {Memory} \
  CONFIG.BAR2_SCALE {Kilobytes} \
  CONFIG.BAR2_SIZE {4} \
  CONFIG.PCIEBAR2AXIBAR_2 {0x02000000} \
  CONFIG.BAR_64BIT {false} \
  CONFIG.AXIBAR_NUM {2} \
  CONFIG.AXIBAR_AS_0 {true} \
  CONFIG.AXIBAR2PCIEBAR_0 {0x0000000000000000} \
  CONFIG.AXIBAR_AS_1 {true} \
  CONFIG.AXIBAR2PCIEBAR_1 {0x0000000080000000} \
  CONFIG.INCLUDE_BAROFFSET_REG {true} \
  CONFIG.NUM_MSI_REQ {1} \
  CONFIG.INTERRUPT_PIN {false} \
  CONFIG.S_AXI_SUPPORTS_NARROW_BURST {false} \
] $pcie

connect_bd_intf_net $pcie_refclk [get_bd_intf_pins refbuf/CLK_IN_D]
connect_bd_net [get_bd_pins refbuf/IBUF_OUT] [get_bd_pins axi_pcie_0/REFCLK]
connect_bd_net $pcie_perst_n [get_bd_pins axi_pcie_0/axi_aresetn]
connect_bd_intf_net [get_bd_intf_ports pcie_mgt] [get_bd_intf_pins axi_pcie_0/pcie_7x_mgt]
connect_bd_net [get_bd_pins axi_pcie_0/axi_aclk_out] [get_bd_ports pcie_axi_clk]
connect_bd_net [get_bd_pins axi_pcie_0/user_link_up] [get_bd_ports pcie_link_up]
connect_bd_net [get_bd_ports pcie_msi_request] [get_bd_pins axi_pcie_0/INTX_MSI_Request]
connect_bd_net [get_bd_pins axi_pcie_0/INTX_MSI_Grant] [get_bd_ports pcie_msi_grant]
connect_bd_net [get_bd_pins axi_pcie_0/MSI_enable] [get_bd_ports pcie_msi_enable]
# With axi_aclk_loopback (off by default) the bridge exposes its AXI clock
# inputs and wants its own outputs looped back; otherwise they are internal.
foreach {in out} {axi_aclk axi_aclk_out axi_ctl_aclk axi_ctl_aclk_out} {
  if {[llength [get_bd_pins -quiet axi_pcie_0/$in]]} {
    connect_bd_net [get_bd_pins axi_pcie_0/$out] [get_bd_pins axi_pcie_0/$in]
  }
}
set msi_vec [create_bd_cell -type ip -vlnv xilinx.com:ip:xlconstant msi_vector]
set_property -dict [list CONFIG.CONST_WIDTH 5 CONFIG.CONST_VAL 0] $msi_vec
connect_bd_net [get_bd_pins msi_vector/dout] [get_bd_pins axi_pcie_0/MSI_Vector_Num]

# ------------------------------------------------------------ DDR3 (MIG)
set mig [create_bd_cell -type ip -vlnv xilinx.com:ip:mig_7series mig_0]
set mig_dir [get_property IP_DIR [get_ips [get_property CONFIG.Component_Name $mig]]]
file copy -force [file join $ROOT boards litefury mig.prj] [file join $mig_dir mig.prj]
set_property -dict [list \
  CONFIG.XML_INPUT_FILE {mig.prj} \
  CONFIG.RESET_BOARD_INTERFACE {Custom} \
  CONFIG.MIG_DONT_TOUCH_PARAM {Custom} \
  CONFIG.BOARD_MIG_PARAM {Custom} \
] $mig
connect_bd_intf_net $ddr_sys_clk [get_bd_intf_pins mig_0/SYS_CLK]
connect_bd_intf_net [get_bd_intf_ports DDR3] [get_bd_intf_pins mig_0/DDR3]
connect_bd_net $pcie_perst_n [get_bd_pins mig_0/sys_rst]
connect_bd_net [get_bd_pins mig_0/ui_clk] [get_bd_ports ui_clk]
connect_bd_net [get_bd_pins mig_0/init_calib_complete] [get_bd_ports init_calib_complete]

set ui_rst [create_bd_cell -type ip -vlnv xilinx.com:ip:proc_sys_reset ui_rst]
connect_bd_net [get_bd_pins mig_0/ui_clk] [get_bd_pins ui_rst/slowest_sync_clk]
connect_bd_net [get_bd_pins mig_0/ui_clk_sync_rst] [get_bd_pins ui_rst/ext_reset_in]
connect_bd_net [get_bd_pins mig_0/mmcm_locked] [get_bd_pins ui_rst/dcm_locked]
connect_bd_net [get_bd_pins ui_rst/peripheral_aresetn] [get_bd_pins mig_0/aresetn]
connect_bd_net [get_bd_pins ui_rst/peripheral_aresetn] [get_bd_ports ui_rstn]

connect_bd_intf_net $s_ddr [get_bd_intf_pins mig_0/S_AXI]
set_property CONFIG.ASSOCIATED_BUSIF {M_BAR0:M_BAR1:S_DDR:S_SYSMEM} [get_bd_ports ui_clk]
set_property CONFIG.ASSOCIATED_RESET {ui_rstn} [get_bd_ports ui_clk]

# ------------------------------------------------------------ BAR split
set smc_bar [create_bd_cell -type ip -vlnv xilinx.com:ip:smartconnect smc_bar]
set_property -dict [list CONFIG.NUM_SI {1} CONFIG.NUM_MI {3} CONFIG.NUM_CLKS {3}] $smc_bar
connect_bd_intf_net [get_bd_intf_pins axi_pcie_0/M_AXI] [get_bd_intf_pins smc_bar/S00_AXI]
connect_bd_intf_net [get_bd_intf_pins smc_bar/M00_AXI] $m_bar0
connect_bd_intf_net [get_bd_intf_pins smc_bar/M01_AXI] $m_bar1
# BAR2: the host's way to the bridge's registers (AXIBAR2PCIEBAR_0/1).
connect_bd_intf_net [get_bd_intf_pins smc_bar/M02_AXI] [get_bd_intf_pins axi_pcie_0/S_AXI_CTL]
connect_bd_net [get_bd_pins axi_pcie_0/axi_aclk_out] [get_bd_pins smc_bar/aclk]
connect_bd_net [get_bd_pins mig_0/ui_clk] [get_bd_pins smc_bar/aclk1]
connect_bd_net [get_bd_pins axi_pcie_0/axi_ctl_aclk_out] [get_bd_pins smc_bar/aclk2]
connect_bd_net $pcie_perst_n [get_bd_pins smc_bar/aresetn]

# ------------------------------------------------------------ system memory
# S_SYSMEM's 8-bit IDs: smc_sysmem converts them; axi_pcie's S_AXI_ID_WIDTH
# is propagated from what is connected to it (the IP marks it propagate-only),
# so it is not set above.
set smc_sys [create_bd_cell -type ip -vlnv xilinx.com:ip:smartconnect smc_sysmem]
set_property -dict [list CONFIG.NUM_SI {1} CONFIG.NUM_MI {1} CONFIG.NUM_CLKS {2}] $smc_sys
connect_bd_intf_net $s_sysmem [get_bd_intf_pins smc_sysmem/S00_AXI]
connect_bd_intf_net [get_bd_intf_pins smc_sysmem/M00_AXI] [get_bd_intf_pins axi_pcie_0/S_AXI]
connect_bd_net [get_bd_pins mig_0/ui_clk] [get_bd_pins smc_sysmem/aclk]
connect_bd_net [get_bd_pins axi_pcie_0/axi_aclk_out] [get_bd_pins smc_sysmem/aclk1]
connect_bd_net $pcie_perst_n [get_bd_pins smc_sysmem/aresetn]

# ------------------------------------------------------------ address map
assign_bd_address -target_address_space [get_bd_addr_spaces axi_pcie_0/M_AXI] \
  [get_bd_addr_segs M_BAR0/Reg] -offset 0x00000000 -range 64K
assign_bd_address -target_address_space [get_bd_addr_spaces axi_pcie_0/M_AXI] \
  [get_bd_addr_segs M_BAR1/Reg] -offset 0x01000000 -range 16M
assign_bd_address -target_address_space [get_bd_addr_spaces S_DDR] \
  [get_bd_addr_segs mig_0/memmap/memaddr] -offset 0x00000000 -range 512M
assign_bd_address -target_address_space [get_bd_addr_spaces axi_pcie_0/M_AXI] \
  [get_bd_addr_segs axi_pcie_0/S_AXI_CTL/CTL0] -offset 0x02000000 -range 4K
# The two AXI BARs of the slave bridge (this sets AXIBAR_n/AXIBAR_HIGHADDR_n).
assign_bd_address -target_address_space [get_bd_addr_spaces S_SYSMEM] \
  [get_bd_addr_segs axi_pcie_0/S_AXI/BAR0] -offset 0x00000000 -range 2G
assign_bd_address -target_address_space [get_bd_addr_spaces S_SYSMEM] \
  [get_bd_addr_segs axi_pcie_0/S_AXI/BAR1] -offset 0x80000000 -range 2G

validate_bd_design
save_bd_design
