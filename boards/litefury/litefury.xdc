# SPDX-License-Identifier: Apache-2.0
# LiteFury (XC7A100T-L2FGG484) pins and timing for litefury_top.sv.
# DDR3 pins are placed by the MIG from mig.prj; the PCIe lanes' transceiver
# sites are in litefury_gt.xdc. tests/boards/check_board_ports.py checks that
# every top-level port is constrained here or in mig.prj.
# Pin facts: the LiteFury's published constraints (RHS Research sample projects).

# ---------------------------------------------------------------- PCIe
set_property PACKAGE_PIN F6 [get_ports pcie_refclk_p_i]
set_property PACKAGE_PIN E6 [get_ports pcie_refclk_n_i]
create_clock -period 10.000 -name pcie_refclk [get_ports pcie_refclk_p_i]

set_property PACKAGE_PIN J1 [get_ports pcie_perst_ni]
set_property IOSTANDARD LVCMOS33 [get_ports pcie_perst_ni]
set_property PULLUP true [get_ports pcie_perst_ni]
set_false_path -from [get_ports pcie_perst_ni]

set_property PACKAGE_PIN G1 [get_ports pcie_clkreq_no]
set_property IOSTANDARD LVCMOS33 [get_ports pcie_clkreq_no]

# Lane n of the M.2 connector (transceiver pins need no IOSTANDARD)
set_property PACKAGE_PIN B10 [get_ports {pcie_rx_p_i[0]}]
set_property PACKAGE_PIN A10 [get_ports {pcie_rx_n_i[0]}]
set_property PACKAGE_PIN B6  [get_ports {pcie_tx_p_o[0]}]
set_property PACKAGE_PIN A6  [get_ports {pcie_tx_n_o[0]}]
set_property PACKAGE_PIN B8  [get_ports {pcie_rx_p_i[1]}]
set_property PACKAGE_PIN A8  [get_ports {pcie_rx_n_i[1]}]
set_property PACKAGE_PIN B4  [get_ports {pcie_tx_p_o[1]}]
set_property PACKAGE_PIN A4  [get_ports {pcie_tx_n_o[1]}]
set_property PACKAGE_PIN D11 [get_ports {pcie_rx_p_i[2]}]
set_property PACKAGE_PIN C11 [get_ports {pcie_rx_n_i[2]}]
set_property PACKAGE_PIN D5  [get_ports {pcie_tx_p_o[2]}]
set_property PACKAGE_PIN C5  [get_ports {pcie_tx_n_o[2]}]
set_property PACKAGE_PIN D9  [get_ports {pcie_rx_p_i[3]}]
set_property PACKAGE_PIN C9  [get_ports {pcie_rx_n_i[3]}]
set_property PACKAGE_PIN D7  [get_ports {pcie_tx_p_o[3]}]
set_property PACKAGE_PIN C7  [get_ports {pcie_tx_n_o[3]}]

# ---------------------------------------------------------------- DDR clock
# 200 MHz oscillator on a clock-capable pair: the MIG's system clock (the
# MIG constrains its period; its location also comes from mig.prj).
set_property PACKAGE_PIN J19 [get_ports ddr_refclk_p_i]
set_property PACKAGE_PIN H19 [get_ports ddr_refclk_n_i]
set_property IOSTANDARD LVDS_25 [get_ports ddr_refclk_p_i]
set_property IOSTANDARD LVDS_25 [get_ports ddr_refclk_n_i]

# ---------------------------------------------------------------- LEDs
set_property PACKAGE_PIN G3 [get_ports {led_no[0]}]
set_property PACKAGE_PIN H3 [get_ports {led_no[1]}]
set_property PACKAGE_PIN G4 [get_ports {led_no[2]}]
set_property PACKAGE_PIN H4 [get_ports {led_no[3]}]
set_property IOSTANDARD LVCMOS33 [get_ports {led_no[*]}]
set_property DRIVE 8 [get_ports {led_no[*]}]
set_false_path -to [get_ports {led_no[*]}]

# ---------------------------------------------------------------- clocks
# The bridge's AXI clock and the MIG's ui_clk are created by their IPs. The
# only paths between them are the SmartConnect's (constrained by the IP)
# and the MSI toggle, synchronised in litefury_top.
set_max_delay -datapath_only -from [get_cells -hierarchical -filter {NAME =~ *msi_toggle_q_reg*}] \
  -to [get_cells -hierarchical -filter {NAME =~ *msi_sync_q_reg[0]*}] 8.000

# ---------------------------------------------------------------- configuration
# Quad SPI at full speed, so the FPGA is configured before the host
# enumerates PCIe.
set_property CONFIG_VOLTAGE 3.3 [current_design]
set_property CFGBVS VCCO [current_design]
set_property CONFIG_MODE SPIx4 [current_design]
set_property BITSTREAM.CONFIG.SPI_BUSWIDTH 4 [current_design]
set_property BITSTREAM.CONFIG.EXTMASTERCCLK_EN Div-1 [current_design]
set_property BITSTREAM.CONFIG.SPI_FALL_EDGE YES [current_design]
set_property BITSTREAM.GENERAL.COMPRESS TRUE [current_design]
